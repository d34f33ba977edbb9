import APICheckHypermedia
import APICheckCrawler
import APICheckInterceptor
import APICheckJSON
import APICheckModel
import APICheckServer
import APICheckStubFiles
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import NIOSSL
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same stub files and the same requests through the three transports — the interceptor (a
/// real `URLSession`), `apicheck serve` (real sockets on 127.0.0.1) and the crawl's in-memory
/// fetcher — must give the same answers (docs/stub-files.md, "One answer, every transport").
///
/// Every transport is sent the server's own URLs, so templates see the same `baseURL` and
/// near-miss reports name the same request. Each transport has its own responder, so each
/// walks the sequences from their start.
@Suite struct TransportParityTests {
    /// What a client can observe, in the vocabulary of the table in docs/stub-files.md.
    enum Observed: Equatable, CustomStringConvertible {
        /// A stub's own response.
        case response(status: Int, contentType: String?, trace: String?, body: String)
        /// Not a stub's response: a problem document over HTTP, a `URLError` in-process; the
        /// status the problem has (or the `URLError` code stands for) and its explanation.
        case refused(status: Int, explanation: String)
        /// A simulated transport failure.
        case failed

        var description: String {
            switch self {
            case .response(let status, let type, let trace, let body): "\(status) \(type ?? "-") trace=\(trace ?? "-") \(body)"
            case .refused(let status, let explanation): "refused \(status): \(explanation)"
            case .failed: "failed"
            }
        }
    }

    struct Step: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    /// The requests, in order (sequence steps rely on it), and what every transport must answer.
    static let steps: [(Step, expected: @Sendable (String) -> Observed)] = [
        (Step(method: "GET", path: "/movies/42"), { _ in .response(status: 200, contentType: "application/json", trace: "t-1", body: #"{"id":1}"#) }),
        (Step(method: "GET", path: "/greetings/ada"), { base in .response(status: 200, contentType: "text/plain", trace: nil, body: "Hello ada from \(base)") }),
        (Step(method: "GET", path: "/counter"), { _ in .response(status: 200, contentType: "text/plain", trace: nil, body: "one") }),
        (Step(method: "GET", path: "/counter"), { _ in .response(status: 201, contentType: "text/plain", trace: nil, body: "two") }),
        (Step(method: "GET", path: "/counter"), { _ in .refused(status: 404, explanation: "") }),
        (Step(method: "GET", path: "/download"), { _ in .refused(status: 500, explanation: "") }),
        (Step(method: "GET", path: "/nothing/here"), { _ in .refused(status: 404, explanation: "") }),
        (Step(method: "GET", path: "/reset"), { _ in .failed }),
        (Step(method: "HEAD", path: "/movies/7"), { _ in .response(status: 200, contentType: "application/json", trace: "t-1", body: "") }),
        (Step(method: "DELETE", path: "/movies/7"), { _ in .response(status: 204, contentType: nil, trace: nil, body: "") }),
    ]

    /// How the server is reached: cleartext HTTP/1.1 (URLSession), HTTPS with HTTP/1.1 and HTTPS
    /// with HTTP/2 (AsyncHTTPClient trusting the server's CA: swift-corelibs-foundation's
    /// URLSession cannot trust a private CA).
    enum Wire: String, CaseIterable, Sendable {
        case cleartext, tlsHTTP1, http2
    }

    @Test(arguments: Wire.allCases) func theInterceptorTheServerAndTheInMemoryFetcherGiveTheSameAnswers(wire: Wire) async throws {
        let folder = try StubFolder()
        let stubs = try folder.load()
        // Checked at load, gone when answered: unservable, the same way everywhere.
        try FileManager.default.removeItem(atPath: folder.path + "/files/report.bin")

        var configuration = StubServer.Configuration(eventLoopThreads: 1, shutdownTimeout: .seconds(2))
        if wire != .cleartext { configuration.tls = try .ephemeral(http2: wire == .http2) }
        try await withStubServer(stubs, configuration: configuration) { server in
            let base = server.baseURL
            let interceptor = StubInterceptor(stubs: stubs)
            let intercepted = interceptor.makeSession()
            let fetcher = StubSetFetcher(stubs: stubs)
            defer {
                intercepted.finishTasksAndInvalidate()
            }

            for (step, expected) in Self.steps {
                let url = try #require(URL(string: base + step.path))
                let viaInterceptor = await Self.observe(session: intercepted, step.method, url)
                // A connection per request: a client retries a GET whose reused connection is
                // reset, which would send the `reset` step twice.
                let viaServer: Observed
                if wire == .cleartext {
                    let overSockets = URLSession(configuration: .ephemeral)
                    viaServer = await Self.observe(session: overSockets, step.method, url)
                    overSockets.finishTasksAndInvalidate()
                } else {
                    viaServer = try await Self.observe(trusting: try #require(server.certificateAuthorityPEM), http2: wire == .http2, step.method, url)
                }
                let viaFetcher = await Self.observe(fetcher: fetcher, step.method, url)

                #expect(viaInterceptor == viaServer, "\(step): interceptor \(viaInterceptor) / server \(viaServer)")
                #expect(viaFetcher == viaServer, "\(step): fetcher \(viaFetcher) / server \(viaServer)")
                // The explanation is compared across transports above; its wording is the
                // responder's, so here only the kind and status are pinned.
                #expect(viaServer.withoutExplanation == expected(base), "\(step): \(viaServer)")
            }
            // Each transport journaled each request once.
            #expect(interceptor.journal.count == Self.steps.count)
            #expect(server.journal.count == Self.steps.count, "\(server.journal.entries(offset: 0, limit: 100).entries.map { "\($0.request.method) \($0.request.path)" })")
            #expect(fetcher.responder.journal.count == Self.steps.count)
        }
    }

    // MARK: Observing

    static func observe(session: URLSession, _ method: String, _ url: URL) async -> Observed {
        var request = URLRequest(url: url)
        request.httpMethod = method
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failed }
            return observe(status: http.statusCode, header: { http.value(forHTTPHeaderField: $0) }, body: data)
        } catch let error as URLError {
            if let status = refusalStatus(error.code) {
                return .refused(status: status, explanation: (error as NSError).localizedDescription)
            }
            return .failed
        } catch {
            return .failed
        }
    }

    /// Over HTTPS, on a connection of its own; with `http2`, the answer must have come over HTTP/2.
    static func observe(trusting pem: String, http2: Bool, _ method: String, _ url: URL) async throws -> Observed {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = http2 ? .automatic : .http1Only
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        let observed: Observed
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            if response.version != (http2 ? .http2 : .http1_1) {
                observed = .response(status: 0, contentType: "wrong version \(response.version)", trace: nil, body: "")
            } else {
                observed = observe(status: Int(response.status.code), header: { response.headers.first(name: $0) }, body: Data(body.readableBytesView))
            }
        } catch {
            observed = .failed
        }
        try await client.shutdown()
        return observed
    }

    static func observe(fetcher: StubSetFetcher, _ method: String, _ url: URL) async -> Observed {
        do {
            let response = try await fetcher.fetch(FetchRequest(method: method, url: url), maximumBodyBytes: 1 << 20, timeout: .seconds(5))
            return observe(
                status: response.status, header: { name in response.headers.first { $0.name.lowercased() == name.lowercased() }?.value },
                body: response.body)
        } catch {
            return .failed
        }
    }

    /// Over HTTP, a problem document is a refusal; anything else is the stub's response.
    static func observe(status: Int, header: (String) -> String?, body: Data) -> Observed {
        let contentType = header("Content-Type")
        if contentType == "application/problem+json" {
            guard let problem = try? JSONParser().parseValue(Array(body)), case .string(let detail)? = problem["detail"]
            else { return .response(status: status, contentType: contentType, trace: nil, body: "unparsable problem") }
            return .refused(status: status, explanation: detail)
        }
        return .response(status: status, contentType: contentType, trace: header("X-Trace"), body: String(decoding: body, as: UTF8.self))
    }

    /// The status of the problem document a `URLError` of the interceptor stands for.
    static func refusalStatus(_ code: URLError.Code) -> Int? {
        switch code {
        case .resourceUnavailable: 404
        case .fileDoesNotExist, .dataLengthExceedsMaximum, .cannotDecodeContentData: 500
        default: nil
        }
    }
}

extension TransportParityTests.Observed {
    var withoutExplanation: Self {
        if case .refused(let status, _) = self { return .refused(status: status, explanation: "") }
        return self
    }
}

/// The stub files of the parity test, in a scratch folder.
final class StubFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-parity-\(UUID().uuidString)").path
        let files: [String: String] = [
            "movie.json": #"""
            {"name": "movie", "request": {"method": "GET", "path": "/movies/{id}"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json", "X-Trace": "t-1", "Content-Length": "999"}, "body": {"id": 1}}}
            """#,
            "delete.json": #"""
            {"name": "delete movie", "request": {"method": "DELETE", "path": "/movies/{id}"}, "response": {"status": 204}}
            """#,
            "greeting.json": #"""
            {"name": "greeting", "request": {"method": "GET", "path": "/greetings/{name}"},
             "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "template": "templates/greeting.mustache"}}
            """#,
            "templates/greeting.mustache": "Hello {{request.pathParams.name}} from {{baseURL}}",
            "counter.json": #"""
            {"name": "counter", "request": {"method": "GET", "path": "/counter"}, "afterLast": "fail",
             "responses": [{"status": 200, "headers": {"Content-Type": "text/plain"}, "bodyText": "one"},
                           {"status": 201, "headers": {"Content-Type": "text/plain"}, "bodyText": "two"}]}
            """#,
            "download.json": #"""
            {"name": "download", "request": {"method": "GET", "path": "/download"},
             "response": {"status": 200, "headers": {"Content-Type": "application/octet-stream"}, "bodyFile": "files/report.bin"}}
            """#,
            "files/report.bin": "0123456789",
            "reset.json": #"""
            {"name": "reset", "request": {"method": "GET", "path": "/reset"}, "failure": "connection-reset"}
            """#,
        ]
        for (relative, contents) in files {
            let file = path + "/" + relative
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func load() throws -> StubSet {
        let result = StubLoader().load([path])
        // The stub's own Content-Length is advisory, and wrong on purpose: every transport sends the real one.
        #expect(result.diagnostics.map(\.message) == ["Content-Length 999 does not match the body (8 bytes); the real length is sent"])
        return result.stubSet
    }
}
