import APICheckModel
import APICheckServer
import Foundation
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Paths used by the server tests.
enum Paths {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var acmeflix: String { repository.appendingPathComponent("stubs/acmeflix").path }

    static var fixtures: URL {
        Bundle.module.resourceURL?.appendingPathComponent("Fixtures")
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}

/// A folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Builds stubs in code.
func stub(
    _ name: String, _ method: String? = "GET", _ path: String, status: Int = 200, headers: [HTTPHeader] = [], cookies: [StubCookie] = [],
    body: String = "", latency: StubLatency = .none, failure: StubFailure? = nil, sequence: StubSequence? = nil,
    scenario: ScenarioTag? = nil, query: [ValueConstraint] = []
) -> Stub {
    guard case .success(let pattern) = PathPattern.parse(path) else { fatalError("bad test pattern \(path)") }
    return Stub(
        id: "test/\(name)#0", name: name,
        request: RequestPattern(method: method, path: pattern, query: query),
        response: StubResponse(status: status, headers: headers, cookies: cookies, body: .bytes(Data(body.utf8)), latency: latency, failure: failure),
        source: SourceLocation(path: "test/\(name).json"), scenario: scenario, sequence: sequence
    )
}

/// Loopback-only test configuration: one event loop, short timeouts.
func testConfiguration(_ change: (inout StubServer.Configuration) -> Void = { _ in }) -> StubServer.Configuration {
    var configuration = StubServer.Configuration(eventLoopThreads: 1, shutdownTimeout: .seconds(2))
    change(&configuration)
    return configuration
}

/// Runs blocking socket work on a thread of its own: it never ties up the Swift concurrency pool,
/// and never waits behind other tests' blocking work (GCD's global queue has a thread per core).
func blockingIO<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// A URLSession that never caches, for normal traffic.
func testSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration)
}

// MARK: A raw HTTP client over POSIX sockets

struct SocketError: Error, CustomStringConvertible {
    var description: String
}

/// One parsed response from a ``RawConnection``.
struct RawResponse: Sendable {
    var status: Int
    var statusLine: String
    /// In order, as received.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    func headers(_ name: String) -> [String] { headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How a read ended.
enum ReadEnd: Equatable {
    case data
    case eof
    case reset
    case timeout
}

/// A blocking TCP connection to 127.0.0.1 with timeouts, for what URLSession cannot send:
/// malformed requests, pipelining, slow clients, resets.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    init(port: Int, timeout: Double = 5) throws {
        descriptor = socket(AF_INET, SocketConstants.stream, 0)
        SocketConstants.disableSIGPIPE(descriptor)
        guard descriptor >= 0 else { throw SocketError(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw SocketError(description: "connect: \(message)")
        }
    }

    deinit {
        if !closed { close(descriptor) }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, SocketConstants.noSignal) }
            guard count > 0 else { throw SocketError(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads what is available (at most 64 KiB) into the buffer.
    @discardableResult
    func fill() -> ReadEnd {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[0..<count]
            return .data
        }
        if count == 0 { return .eof }
        switch errno {
        case ECONNRESET: return .reset
        case EAGAIN, EWOULDBLOCK: return .timeout
        default: return .reset
        }
    }

    /// Reads until the peer closes (or resets, or the timeout passes); returns everything unread.
    func readToEnd() -> (bytes: [UInt8], end: ReadEnd) {
        while true {
            let end = fill()
            if end != .data {
                defer { buffer.removeAll() }
                return (buffer, end)
            }
        }
    }

    /// Reads one response (`Content-Length` bodies, or none for `HEAD` when `expectBody` is false).
    func readResponse(expectBody: Bool = true) throws -> RawResponse {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil {
                let end = fill()
                if end != .data { throw SocketError(description: "connection ended (\(end)) before a response head; got \(String(decoding: buffer, as: UTF8.self).debugDescription)") }
            }
        }
        guard let headEnd else { throw SocketError(description: "no head") }
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw SocketError(description: "not a status line: \(statusLine.debugDescription)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        buffer.removeFirst(headEnd + 4)
        var response = RawResponse(status: status, statusLine: statusLine, headers: headers, body: [])
        if status == 100 { return response }
        let length = expectBody ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
        while buffer.count < length {
            let end = fill()
            if end != .data { throw SocketError(description: "connection ended (\(end)) inside a body of \(length) bytes (got \(buffer.count))") }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// Closes with `SO_LINGER` 0: the server sees a reset.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
        closed = true
    }

    /// Half-closes: no more requests, responses still arrive.
    func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}

/// `GET path` over a fresh connection, closing after.
func rawGET(_ port: Int, _ path: String, headers: String = "") throws -> RawResponse {
    let connection = try RawConnection(port: port)
    try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\r\n")
    return try connection.readResponse()
}

// MARK: Capturing logs

/// Keeps every log message, for tests that check what the server reports.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var messages: [String] { lines.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
}

/// Socket constants that differ between Glibc and Darwin.
enum SocketConstants {
    #if canImport(Darwin)
    static let stream = SOCK_STREAM
    static let noSignal: Int32 = 0
    /// Darwin has no MSG_NOSIGNAL; the socket itself is told not to raise SIGPIPE.
    static func disableSIGPIPE(_ descriptor: Int32) {
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    #else
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let noSignal = Int32(MSG_NOSIGNAL)
    static func disableSIGPIPE(_ descriptor: Int32) {}
    #endif
}
