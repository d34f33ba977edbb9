import APICheckJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `apicheck record`, `serve --proxy` and `verify` end to end: real processes on 127.0.0.1.
@Suite(.serialized) struct RecordVerifyTests {
    typealias ServeProcess = ServeCommandTests.ServeProcess

    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-record-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var path: String { url.path }
        func write(_ name: String, _ text: String) throws {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    private static func json(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }

    private static func defectIDs(_ report: JSONValue) -> [String] {
        guard case .array(let defects)? = report["defects"] else { return [] }
        return defects.map { "defect \($0["id"].map { "\($0)" } ?? "-")" }.sorted()
    }

    /// Every stub set under stubs/, served by `apicheck serve`, recorded through `apicheck record`
    /// by a crawl that goes through the proxy: the recording lints clean, an in-memory crawl of it
    /// finds what the live crawl finds, and `verify` finds no drift.
    @Test(arguments: [
        ("acmeflix", "/", ["--rewrite-origin", "http://localhost:3000"]),
        ("hal-shop", "/", []), ("jsonapi-blog", "/articles", []), ("linkheader-pages", "/", []), ("siren-orders", "/", []),
        ("github-root", "/", []), ("drf-root", "/", []),
    ])
    func recordingAStubSetReproducesItsCrawl(folder: String, root: String, serveOptions: [String]) throws {
        let upstream = try ServeProcess(["stubs/\(folder)", "--port", "0"] + serveOptions)
        try upstream.waitUntilListening()
        let recording = try Folder()
        let proxy = try ServeProcess([upstream.baseURL, "--to", recording.path, "--port", "0"], command: "record")
        try proxy.waitUntilListening()
        let throughProxy = try CLI.run(["crawl", proxy.baseURL + root, "--format", "json"])
        #expect(throughProxy.status == 0 || throughProxy.status == 1, "\(throughProxy.stderr)")
        #expect(proxy.stop(SIGINT) == 0)
        #expect(proxy.errors.contains(" written"), "\(proxy.errors)")

        let lint = try CLI.run(["lint", recording.path])
        #expect(lint.status == 0, "\(lint.stdout) \(lint.stderr)")
        let live = try CLI.run(["crawl", upstream.baseURL + root, "--format", "json"])
        let replayed = try CLI.run(["crawl", upstream.baseURL + root, "--stubs", recording.path, "--format", "json"])
        // Unsafe methods too: live, the crawl asks OPTIONS and reads Allow; in memory it asks the
        // recording, which holds those OPTIONS answers. The same defects, by id.
        func safeFindings(_ text: String) throws -> [String] {
            let report = try Self.json(text)
            return CrawlOverServeTests.findings(report) + Self.defectIDs(report)
        }
        #expect(try safeFindings(replayed.stdout) == safeFindings(live.stdout), "\(folder)")

        let verify = try CLI.run(["verify", recording.path, "--against", upstream.baseURL, "--format", "json"])
        #expect(verify.status == 0, "\(folder): \(verify.stdout.prefix(2000)) \(verify.stderr)")

        // `crawl --record` records the same crawl without a proxy: the same files, and a replay
        // with the live crawl's findings.
        let crawled = try Folder()
        let recordingCrawl = try CLI.run(["crawl", upstream.baseURL + root, "--record", crawled.path, "--format", "json"])
        #expect(try safeFindings(recordingCrawl.stdout) == safeFindings(live.stdout), "recording does not change the crawl")
        #expect(recordingCrawl.stderr.contains("Replay it offline: apicheck crawl"), "\(recordingCrawl.stderr)")
        let crawledFiles = try FileManager.default.subpathsOfDirectory(atPath: crawled.path).sorted()
        let proxiedFiles = try FileManager.default.subpathsOfDirectory(atPath: recording.path).sorted()
        #expect(crawledFiles == proxiedFiles, "\(folder)")
        let replayedCrawl = try CLI.run(["crawl", upstream.baseURL + root, "--stubs", crawled.path, "--format", "json"])
        #expect(try safeFindings(replayedCrawl.stdout) == safeFindings(live.stdout), "\(folder)")
        #expect(upstream.stop() == 0)
    }

    /// `verify --coverage` crawls the live API too and names each kind of resource no stub
    /// answers; a templated stub is sent as its example request.
    @Test func coverageNamesTheKindsNoStubAnswers() throws {
        let upstream = try ServeProcess(["stubs/hal-shop", "--port", "0"])
        try upstream.waitUntilListening()
        let recording = try Folder()
        let crawl = try CLI.run(["crawl", upstream.baseURL + "/", "--record", recording.path])
        #expect(crawl.status == 1, "hal-shop has contract findings: \(crawl.stderr)")
        try FileManager.default.removeItem(at: recording.url.appendingPathComponent("stores"))
        let product = recording.url.appendingPathComponent("products/p-1001.json")
        let text = try String(contentsOf: product, encoding: .utf8)
        try text.replacingOccurrences(of: #""path": "/products/p-1001""#, with: #""path": "/products/{id}", "example": "/products/p-1001""#)
            .write(to: product, atomically: true, encoding: .utf8)

        let verify = try CLI.run(["verify", recording.path, "--against", upstream.baseURL, "--coverage", "--format", "json", "--list-checks"])
        #expect(verify.status == 0, "gaps are warnings: \(verify.stderr)")
        let report = try Self.json(verify.stdout)
        #expect(report["command"] == "verify")
        guard case .array(let findings)? = report["findings"], case .array(let checks)? = report["checks"] else {
            Issue.record("no findings or checks: \(verify.stdout.prefix(500))")
            return
        }
        #expect(findings.map { $0["rule"] } == [.string("drift-coverage")], "only the stores are uncovered: \(findings)")
        #expect(findings.first?["step"] == .string("shop:stores[0]") && findings.first?["via"] == nil, "a step from the root")
        #expect(findings.first?["message"] == .string("no stub answers root → shop:stores[*] (2 resources live)"))
        let templated = checks.first { check in
            if case .string(let referrer)? = check["referrer"] { referrer.hasPrefix(product.path + ":") } else { false }
        }
        #expect(templated?["outcome"] == .string("passed"), "the example was sent: \(String(describing: templated))")
        #expect(templated?["url"] == .string(upstream.baseURL + "/products/p-1001"))

        let strict = try CLI.run(["verify", recording.path, "--against", upstream.baseURL, "--coverage", "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.hasPrefix("apicheck ") && strict.stdout.contains(" verify of stubs against "), "\(strict.stdout.prefix(200))")
        let noCoverage = try CLI.run(["verify", recording.path, "--against", upstream.baseURL, "--root", "/x"])
        #expect(noCoverage.status == 2 && noCoverage.stderr.contains("add --coverage"), "\(noCoverage.stderr)")
        #expect(upstream.stop() == 0)
    }

    /// A copy of a stub set with five seeded drifts: verifying the original against it reports
    /// exactly those.
    @Test func verifyReportsExactlyTheSeededDrifts() throws {
        let original = try Folder()
        let drifted = try Folder()
        func files(rootLinks: String, rootType: String, orderID: String, status: Int) -> [(String, String)] {
            [
                ("root.json", #"{"request": {"method": "GET", "path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": {"_links": {\#(rootLinks)}}}}"#),
                ("orders.json", #"{"request": {"method": "GET", "path": "/orders/1"}, "response": {"status": 200, "headers": {"Content-Type": "\#(rootType)"}, "body": {"id": \#(orderID), "total": 12.5, "_links": {"self": {"href": "/orders/1"}}}}}"#),
                ("gone.json", #"{"request": {"method": "GET", "path": "/gone"}, "response": {"status": \#(status), "headers": {"Content-Type": "application/json"}, "body": {"ok": true}}}"#),
            ]
        }
        for (name, text) in files(rootLinks: #""self": {"href": "/"}, "orders": {"href": "/orders/1"}, "help": {"href": "/help"}"#, rootType: "application/hal+json", orderID: "1", status: 200) {
            try original.write(name, text)
        }
        for (name, text) in files(rootLinks: #""self": {"href": "/"}, "orders": {"href": "/orders/1"}, "search": {"href": "/s{?q}", "templated": true}"#, rootType: "application/json", orderID: "\"1\"", status: 404) {
            try drifted.write(name, text)
        }
        let live = try ServeProcess([drifted.path, "--port", "0"])
        try live.waitUntilListening()
        let verify = try CLI.run(["verify", original.path, "--against", live.baseURL, "--format", "json"])
        #expect(verify.status == 1, "\(verify.stdout) \(verify.stderr)")
        let report = try Self.json(verify.stdout)
        guard case .array(let findings)? = report["findings"] else { Issue.record("no findings: \(verify.stdout)"); return }
        func text(_ value: JSONValue?) -> String {
            if case .string(let string)? = value { return string }
            return "-"
        }
        let seen = findings.map { finding in
            "\(text(finding["rule"])) \(text(finding["url"]).replacingOccurrences(of: live.baseURL, with: "")) \(text(finding["sourcePointer"]))"
        }.sorted()
        // Exactly the seeded drifts; the 404's body is not compared once the status class changed.
        #expect(seen == ["drift-links / help", "drift-links / search", "drift-shape /orders/1 /id", "drift-status /gone -", "drift-type /orders/1 -"], "\(seen)")
        #expect(live.stop() == 0)
    }

    /// Credentials sent through the recording proxy and cookies set by the API never reach a
    /// written file; the summary says what was redacted.
    @Test func secretsSentThroughTheProxyAreNeverWritten() async throws {
        let upstreamStubs = try Folder()
        try upstreamStubs.write("me.json", #"""
            {"request": {"method": "GET", "path": "/me"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
               "cookies": [{"name": "session", "value": "cookie-secret-4711", "path": "/"}],
               "body": {"name": "Ada", "apiKey": "key-secret-0815"}}}
            """#)
        let upstream = try ServeProcess([upstreamStubs.path, "--port", "0"])
        try upstream.waitUntilListening()
        let recording = try Folder()
        let proxy = try ServeProcess([upstream.baseURL, "--to", recording.path, "--port", "0", "--redact-json", "/apiKey"], command: "record")
        try proxy.waitUntilListening()
        var request = URLRequest(url: try #require(URL(string: proxy.baseURL + "/me?access_token=query-secret-42")))
        request.setValue("Bearer bearer-secret-1234", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("key-secret-0815"), "the client gets the answer unchanged")
        #expect(proxy.stop(SIGINT) == 0)
        #expect(proxy.errors.contains("redacted:"), "\(proxy.errors)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: recording.path)
        #expect(!written.isEmpty)
        let everything = try written.map { try String(contentsOf: recording.url.appendingPathComponent($0), encoding: .utf8) }.joined() + written.joined()
        for secret in ["bearer-secret-1234", "cookie-secret-4711", "key-secret-0815", "query-secret-42"] {
            #expect(!everything.contains(secret), "\(secret) reached the disk")
        }
        #expect(upstream.stop() == 0)
    }

    /// `crawl --record` with a credential: an answer that echoes it is recorded masked, and the
    /// credential itself is in no file or file name.
    @Test func crawlRecordKeepsTheCrawlsCredentialOffTheDisk() throws {
        let upstreamStubs = try Folder()
        try upstreamStubs.write("root.json", #"""
            {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"},
              "body": {"_links": {"self": {"href": "/"}, "me": {"href": "/me"}}}}}
            """#)
        try upstreamStubs.write("me.json", #"{"request": {"path": "/me"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "template": "me.json.mustache"}}"#)
        try upstreamStubs.write("me.json.mustache", #"{"you sent": "{{request.headers.authorization}}"}"#)
        let upstream = try ServeProcess([upstreamStubs.path, "--port", "0"])
        try upstream.waitUntilListening()
        let recording = try Folder()
        let crawl = try CLI.run(["crawl", upstream.baseURL + "/", "--header", "Authorization: Bearer crawl-secret-4242", "--record", recording.path])
        #expect(crawl.status == 0, "\(crawl.stdout) \(crawl.stderr)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: recording.path)
        #expect(written.contains("me.json"), "\(written)")
        let everything = try written.map { name -> String in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: recording.url.appendingPathComponent(name).path, isDirectory: &isFolder)
            return isFolder.boolValue ? name : try String(contentsOf: recording.url.appendingPathComponent(name), encoding: .utf8) + name
        }.joined()
        #expect(!everything.contains("crawl-secret-4242"), "the credential reached the disk")
        #expect(everything.contains("REDACTED"), "the echo is masked, not dropped")
        #expect(upstream.stop() == 0)
    }

    /// Spy mode: stubs answer what they match, the rest goes upstream, and the journal says which.
    @Test func spyModeSendsOnlyUnmatchedRequestsUpstream() async throws {
        let upstream = try ServeProcess(["stubs/hal-shop", "--port", "0"])
        try upstream.waitUntilListening()
        let local = try Folder()
        try local.write("berlin.json", #"{"request": {"method": "GET", "path": "/stores/berlin"}, "response": {"status": 200, "bodyText": "local"}}"#)
        let spy = try ServeProcess([local.path, "--port", "0", "--proxy", upstream.baseURL])
        try spy.waitUntilListening()
        let session = URLSession(configuration: .ephemeral)
        let (localData, _) = try await session.data(from: try #require(URL(string: spy.baseURL + "/stores/berlin")))
        #expect(String(decoding: localData, as: UTF8.self) == "local")
        let (storeData, storeResponse) = try await session.data(from: try #require(URL(string: spy.baseURL + "/")))
        #expect((storeResponse as? HTTPURLResponse)?.statusCode == 200)
        let store = String(decoding: storeData, as: UTF8.self)
        #expect(store.contains(spy.baseURL) && !store.contains(upstream.baseURL), "links lead back through the spy: \(store.prefix(300))")
        let (journal, _) = try await session.data(from: try #require(URL(string: spy.baseURL + "/__apicheck/journal")))
        let text = String(decoding: journal, as: UTF8.self)
        #expect(text.contains("passedThrough") && text.contains("stubbed"), "\(text.prefix(500))")
        #expect(spy.stop() == 0)
        #expect(upstream.stop() == 0)
    }
}
