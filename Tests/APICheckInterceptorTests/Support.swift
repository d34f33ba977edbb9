import APICheckModel
import Foundation

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

/// A one-connection-at-a-time HTTP server on 127.0.0.1 that answers every request with `body`:
/// the "real network" for passthrough tests. Stops when released.
final class LoopbackServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let thread: Thread

    init(body: String) throws {
        let descriptor = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw URLError(.cannotConnectToHost) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: actual.sin_port))
        socket = descriptor
        let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        thread = Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 65536)
                _ = recv(client, &buffer, buffer.count, 0)
                _ = response.withCString { send(client, $0, strlen($0), 0) }
                close(client)
            }
        }
        thread.start()
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
