import APICheckModel
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stub built in code, for interceptor tests.
func stub(
    _ name: String, _ method: String? = "GET", _ path: String, status: Int = 200, headers: [HTTPHeader] = [],
    cookies: [StubCookie] = [], body: StubBody = .empty, latency: StubLatency = .none, failure: StubFailure? = nil,
    bodyConstraints: [BodyConstraint] = [], scenario: ScenarioTag? = nil, sequence: StubSequence? = nil
) -> Stub {
    let pattern = (try? PathPattern.parse(path).get()) ?? PathPattern.anything
    return Stub(
        id: name, name: name,
        request: RequestPattern(method: method, path: pattern, body: bodyConstraints),
        response: StubResponse(status: status, headers: headers, cookies: cookies, body: body, latency: latency, failure: failure),
        source: SourceLocation(path: "tests/\(name).xml", line: 2, column: 1), scenario: scenario, sequence: sequence
    )
}

func text(_ string: String) -> StubBody { .bytes(Data(string.utf8)) }

let origin = "http://localhost:3000"

func url(_ path: String) -> URL { URL(string: origin + path)! }

/// A scratch folder removed when the test ends.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-interceptor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    @discardableResult
    func write(_ relative: String, _ string: String) throws -> String { try write(relative, Data(string.utf8)) }
}

enum Repository {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var acmeflix: String { root.appendingPathComponent("stubs/acmeflix").path }
}

extension URLError.Code: @retroactive CustomStringConvertible {
    public var description: String { "URLError(\(rawValue))" }
}

/// A request as ``LoopbackServer`` received it.
struct LoopbackRequest: Sendable {
    var method: String
    /// Origin-form, as sent: `/movies/1?x=y`.
    var target: String
    /// Names lower-cased.
    var headers: [String: String]
    var body: Data
}

/// What ``LoopbackServer`` answers.
struct LoopbackResponse: Sendable {
    var status = 200
    var headers: [(name: String, value: String)] = []
    var body = Data()
}

/// A one-connection-at-a-time HTTP/1.1 server on 127.0.0.1 (port 0: the kernel picks one), the
/// "real network" for passthrough and recording tests: Foundation sockets only, no NIO. It keeps
/// every request it received; `stop()` (or releasing it) closes the port, after which connecting
/// is refused.
final class LoopbackServer: @unchecked Sendable {  // the socket is only closed by stop(), once
    let port: Int
    var origin: String { "http://127.0.0.1:\(port)" }
    private let socket: Int32
    private let log = RequestLog()
    private let exited = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    private final class RequestLog: Sendable {
        let requests = Mutex<[LoopbackRequest]>([])
    }

    /// Every request so far, in order.
    var requests: [LoopbackRequest] { log.requests.withLock { $0 } }

    /// Answers every request with `body` as text/plain.
    convenience init(body: String) throws {
        try self.init { _ in LoopbackResponse(headers: [("Content-Type", "text/plain")], body: Data(body.utf8)) }
    }

    init(respond: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) throws {
        #if canImport(Glibc)
        let descriptor = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Foundation.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw URLError(.cannotConnectToHost)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: actual.sin_port))
        socket = descriptor
        let (log, exited) = (log, exited)
        let thread = Thread {
            defer { exited.signal() }
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                if let request = Self.read(client) {
                    log.requests.withLock { $0.append(request) }
                    Self.write(respond(request), to: client)
                }
                close(client)
            }
        }
        thread.start()
    }

    /// Closes the port and waits for the accepting thread to end. Idempotent.
    func stop() {
        guard stopped.withLock({ stopped in defer { stopped = true }; return !stopped }) else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        _ = exited.wait(timeout: .now() + 5)
        close(socket)
    }

    deinit { stop() }

    private static func read(_ client: Int32) -> LoopbackRequest? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var contentLength = 0
        while headerEnd.map({ data.count < $0 + contentLength }) ?? true {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data += buffer[0..<count]
            if headerEnd == nil, let range = data.firstRange(of: separator) {
                headerEnd = range.upperBound
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let headerEnd else { return nil }
        let lines = String(decoding: data[..<(headerEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
            body: Data(data[headerEnd..<(headerEnd + contentLength)]))
    }

    private static func write(_ response: LoopbackResponse, to client: Int32) {
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.body)
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
            #endif
            guard count > 0 else { return }
            sent += count
        }
    }
}
