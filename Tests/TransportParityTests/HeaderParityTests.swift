import APICheckCrawler
import APICheckInterceptor
import APICheckModel
import APICheckServer
import APICheckStubFiles
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The head every transport delivers is the responder's, byte for byte: the server's raw header
/// lines (without the ones it owns: `Server`, `Content-Length`, `Date`, `Connection`) are exactly
/// the in-memory fetcher's headers in order, and the interceptor's `HTTPURLResponse` holds the same
/// fields (Foundation keeps one value per name: repeated ones joined with ", "; it may re-case a
/// name) and the same
/// `Content-Length` as the server sends.
@Suite struct HeaderParityTests {
    static let stubs: [String: String] = [
        "headers.json": #"""
        {"name": "headers", "request": {"method": "GET", "path": "/headers"},
         "response": {"status": 200,
           "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "X-Multi", "value": "a"},
                       {"name": "Link", "value": "<{{baseURL}}/movies/2>; rel=\"next\""}, {"name": "X-Multi", "value": "b"},
                       {"name": "Content-Length", "value": "999"}, {"name": "Transfer-Encoding", "value": "chunked"},
                       {"name": "Connection", "value": "close"}, {"name": "Keep-Alive", "value": "timeout=5"},
                       {"name": "X-Evil", "value": "a\r\nSet-Cookie: injected=1"}, {"name": "Bad Name", "value": "x"},
                       {"name": "Content-Location", "value": "{{baseURL}}/headers"}],
           "cookies": [{"name": "session", "value": "abc", "path": "/", "httpOnly": true}, {"name": "theme", "value": "dark"}],
           "body": {"ok": true}}}
        """#,
        "dated.json": #"""
        {"name": "dated", "request": {"method": "GET", "path": "/dated"},
         "response": {"status": 200, "headers": {"Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Server": "upstream/1.0", "Content-Type": "text/plain"}, "bodyText": "old"}}
        """#,
        "gone.json": #"""
        {"name": "gone", "request": {"method": "DELETE", "path": "/things/{id}"}, "response": {"status": 204, "headers": {"X-Deleted": "yes"}}}
        """#,
        "unchanged.json": #"""
        {"name": "unchanged", "request": {"method": "GET", "path": "/cached"}, "response": {"status": 304, "headers": {"ETag": "\"v1\""}}}
        """#,
        "template.json": #"""
        {"name": "template", "request": {"method": "GET", "path": "/hello/{name}"},
         "response": {"status": 201, "headers": {"Content-Type": "text/plain", "Location": "{{baseURL}}/hello/1"}, "template": "hello.mustache"}}
        """#,
        "hello.mustache": "Hello {{request.pathParams.name}}",
    ]

    /// Method, path and the header lines every transport must deliver (`BASE` is the origin).
    static let steps: [(method: String, path: String, headers: [String])] = [
        (
            "GET", "/headers",
            [
                "Content-Type: application/json", "X-Multi: a", "Link: <BASE/movies/2>; rel=\"next\"", "X-Multi: b",
                "Content-Location: BASE/headers", "Set-Cookie: session=abc; Path=/; HttpOnly", "Set-Cookie: theme=dark",
            ]
        ),
        ("HEAD", "/headers", []),  // the same lines as the GET (checked below)
        ("GET", "/dated", ["Date: Sun, 06 Nov 1994 08:49:37 GMT", "Server: upstream/1.0", "Content-Type: text/plain"]),
        ("DELETE", "/things/7", ["X-Deleted: yes"]),
        ("GET", "/cached", ["ETag: \"v1\""]),
        ("GET", "/hello/ada", ["Content-Type: text/plain", "Location: BASE/hello/1"]),
    ]

    @Test func theServerTheInterceptorAndTheInMemoryFetcherDeliverTheSameHeadBytes() async throws {
        let folder = try ScratchFolder(Self.stubs)
        let result = StubLoader().load([folder.path])
        let stubs = result.stubSet
        #expect(stubs.count == 5, "\(result.diagnostics)")
        try await withStubServer(stubs, configuration: StubServer.Configuration(eventLoopThreads: 1, shutdownTimeout: .seconds(2))) { server in
            let base = server.baseURL
            let interceptor = StubInterceptor(stubs: stubs)
            let session = interceptor.makeSession()
            defer { session.finishTasksAndInvalidate() }
            let fetcher = StubSetFetcher(stubs: stubs)

            for step in Self.steps {
                let expected = (step.method == "HEAD" ? Self.steps[0].headers : step.headers).map { $0.replacingOccurrences(of: "BASE", with: base) }
                let url = try #require(URL(string: base + step.path))
                let label = "\(step.method) \(step.path)"

                // The server: its raw lines, minus the ones it owns, are the expected bytes.
                let raw = try RawHTTP.exchange(port: server.port, method: step.method, path: step.path)
                let owned = ["Content-Length", "Connection"] + (expected.contains { $0.hasPrefix("Date:") } ? [] : ["Date"])
                    + (expected.contains { $0.hasPrefix("Server:") } ? [] : ["Server"])
                let stubLines = raw.lines.filter { line in !owned.contains { line.lowercased().hasPrefix($0.lowercased() + ":") } }
                #expect(stubLines.joined(separator: "\r\n") == expected.joined(separator: "\r\n"), "\(label): server")
                if !expected.contains(where: { $0.hasPrefix("Server:") }) { #expect(raw.lines.contains("Server: apicheck"), "\(label)") }

                // The in-memory fetcher: the same lines, in the same order.
                let fetched = try await fetcher.fetch(FetchRequest(method: step.method, url: url), maximumBodyBytes: 1 << 20, timeout: .seconds(5))
                #expect(fetched.headers.map { "\($0.name): \($0.value)" } == expected, "\(label): fetcher")
                #expect(fetched.status == raw.status, "\(label)")

                // The interceptor: the same fields as Foundation holds them, and the server's Content-Length.
                var request = URLRequest(url: url)
                request.httpMethod = step.method
                let (_, response) = try await session.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == raw.status, "\(label)")
                var fields = Self.combined(expected)
                if let length = raw.value("Content-Length") { fields["Content-Length"] = length }
                // Foundation spells some names its own way (`ETag` becomes `Etag`): names compare without case.
                let delivered = Dictionary(uniqueKeysWithValues: ((http.allHeaderFields as? [String: String]) ?? [:]).map { ($0.key.lowercased(), $0.value) })
                #expect(delivered == Dictionary(uniqueKeysWithValues: fields.map { ($0.key.lowercased(), $0.value) }), "\(label): interceptor")
            }
        }
    }

    /// Lines as Foundation keeps them: one value per name, repeated ones joined with ", ".
    static func combined(_ lines: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts[0]
            let value = String(parts[1].dropFirst())
            if let existing = fields.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                fields[existing]! += ", " + value
            } else {
                fields[name] = value
            }
        }
        return fields
    }
}

/// One request over a plain socket, for the head exactly as the server wrote it.
enum RawHTTP {
    struct Response {
        var status: Int
        /// The header lines, in order, without the status line.
        var lines: [String]

        func value(_ name: String) -> String? {
            lines.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func exchange(port: Int, method: String, path: String) throws -> Response {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else { throw Failure(description: "send: \(errno)") }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw Failure(description: "no head in \(text.debugDescription)") }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        return Response(status: status, lines: Array(lines.dropFirst()))
    }
}

/// Files in a scratch folder, removed with the value.
final class ScratchFolder {
    let path: String

    init(_ files: [String: String]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-heads-\(UUID().uuidString)").path
        for (relative, contents) in files {
            let file = path + "/" + relative
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
