import APICheckJSON
import APICheckModel
import Foundation
import NIOHTTP1
import Testing

@testable import APICheckServer

/// What WireMock users script against the admin API: runtime stubs added, replaced and removed,
/// journal queries, and who may call it now that a browser page does (Host and Origin checks).
@Suite struct AdminRuntimeStubsTests {
    /// One admin request over a raw socket; `host` is the `Host` header (the server's own by default).
    private func admin(
        _ port: Int, _ method: String, _ target: String, body: String? = nil, host: String? = nil, headers: String = ""
    ) throws -> (RawResponse, JSONValue?) {
        let connection = try RawConnection(port: port)
        let bodyPart = body.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n\r\n\($0)" } ?? "\r\n"
        try connection.send("\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(headers)Connection: close\r\n\(bodyPart)")
        let response = try connection.readResponse()
        return (response, try? JSONParser().parseValue(response.body))
    }

    private static func runtimeStub(_ path: String, _ text: String, method: String = "GET") -> String {
        #"{"name": "\#(text)", "request": {"method": "\#(method)", "path": "\#(path)"}, "response": {"status": 200, "bodyText": "\#(text)"}}"#
    }

    @Test func runtimeStubsAreAddedListedReplacedAndRemoved() async throws {
        let files = StubSet([stub("file", "GET", "/movies/{id}", body: "file")])
        try await withStubServer(files, configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let (added, addedJSON) = try admin(port, "POST", "/__apicheck/stubs", body: Self.runtimeStub("/movies/1", "runtime"))
                #expect(added.status == 201, "\(added.text)")
                #expect(added.header("Location") == "/__apicheck/stubs/runtime-1")
                #expect(addedJSON?.value(at: "/stubs/0/origin") == "runtime")
                // It answers first, for its request only.
                #expect(try rawGET(port, "/movies/1").text == "runtime")
                #expect(try rawGET(port, "/movies/2").text == "file")

                let (_, list) = try admin(port, "GET", "/__apicheck/stubs")
                #expect(list?["count"] == 2 && list?["runtimeCount"] == 1)
                #expect(list?.value(at: "/stubs/0/id") == "runtime-1")
                #expect(list?.value(at: "/stubs/1/origin") == "file")
                let (one, oneJSON) = try admin(port, "GET", "/__apicheck/stubs/runtime-1")
                #expect(one.status == 200 && oneJSON?.value(at: "/stub/name") == "runtime")

                // The newest runtime stub answers among equals.
                let (_, newer) = try admin(port, "POST", "/__apicheck/stubs", body: #"{"stubs": [\#(Self.runtimeStub("/movies/1", "newer"))]}"#)
                #expect(newer?.value(at: "/stubs/0/id") == "runtime-2")
                #expect(try rawGET(port, "/movies/1").text == "newer")

                let (replaced, _) = try admin(port, "PUT", "/__apicheck/stubs/runtime-1", body: Self.runtimeStub("/movies/3", "replaced"))
                #expect(replaced.status == 200)
                #expect(try rawGET(port, "/movies/3").text == "replaced")
                // A file's stub is changed by editing its file.
                let (fileStub, fileProblem) = try admin(port, "PUT", "/__apicheck/stubs/test%2Ffile%230", body: Self.runtimeStub("/x", "x"))
                #expect(fileStub.status == 409, "\(fileStub.text)")
                #expect(fileProblem?["title"] == "A file's stub")

                let (removed, _) = try admin(port, "DELETE", "/__apicheck/stubs/runtime-2")
                #expect(removed.status == 200)
                #expect(try rawGET(port, "/movies/1").text == "file")
                let (unknown, _) = try admin(port, "DELETE", "/__apicheck/stubs/runtime-2")
                #expect(unknown.status == 404)
                let (all, allJSON) = try admin(port, "DELETE", "/__apicheck/stubs")
                #expect(all.status == 200 && allJSON?["removed"] == 1)
                #expect(try rawGET(port, "/movies/3").text == "file")
                let (patch, _) = try admin(port, "PATCH", "/__apicheck/stubs", body: "{}")
                #expect(patch.status == 405)
            }
        }
    }

    @Test func aBrokenRuntimeStubIsRefusedWithLocatedErrorsAndNothingIsAdded() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a", body: "A")]), configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let broken = "{\n  \"request\": {\"path\": \"/b\", \"method\": \"GE T\"},\n  \"response\": {\"status\": 99}\n}"
                let (refused, problem) = try admin(port, "POST", "/__apicheck/stubs", body: broken)
                #expect(refused.status == 422)
                #expect(refused.header("Content-Type") == "application/problem+json")
                #expect(problem?.value(at: "/diagnostics/0/path") == "request body")
                #expect(problem?.value(at: "/diagnostics/0/line") == 2)
                #expect(problem?.value(at: "/diagnostics/1/line") == 3)
                guard case .string(let detail)? = problem?["detail"] else { Issue.record("no detail"); return }
                #expect(detail.hasPrefix("request body:2:") && detail.contains(": error: "), "\(detail)")

                let (notJSON, notJSONProblem) = try admin(port, "POST", "/__apicheck/stubs", body: "{\"request\": ")
                #expect(notJSON.status == 422)
                #expect(notJSONProblem?.value(at: "/diagnostics/0/message").map { "\($0)".contains("invalid JSON") } == true)
                // Under the admin prefix: it could never be served.
                let (underPrefix, _) = try admin(port, "POST", "/__apicheck/stubs", body: Self.runtimeStub("/__apicheck/health", "sneaky"))
                #expect(underPrefix.status == 422)
                // No stub folder: files cannot be referred to.
                let file = #"{"request": {"path": "/f"}, "response": {"status": 200, "bodyFile": "body.json"}}"#
                let (noFolder, noFolderProblem) = try admin(port, "POST", "/__apicheck/stubs", body: file)
                #expect(noFolder.status == 422)
                #expect(noFolderProblem.map { "\($0)".contains("send the body inline") } == true)

                let (_, list) = try admin(port, "GET", "/__apicheck/stubs")
                #expect(list?["runtimeCount"] == 0 && list?["count"] == 1)
                #expect(try rawGET(port, "/a").text == "A")
            }
        }
    }

    @Test func runtimeStubsOutliveAReloadAndResetGoesBackToTheFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", #"{"request": {"path": "/a"}, "response": {"status": 200, "bodyText": "from the file"}}"#)
        try folder.write("bodies/b.txt", "b body")
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                // Files resolve in the stub folder, as a stub file's would, and may not leave it.
                let withFile = #"{"request": {"path": "/b"}, "response": {"status": 200, "bodyFile": "bodies/b.txt"}}"#
                let (added, _) = try admin(port, "POST", "/__apicheck/stubs", body: withFile)
                #expect(added.status == 201, "\(added.text)")
                #expect(try rawGET(port, "/b").text == "b body")
                let escaping = #"{"request": {"path": "/c"}, "response": {"status": 200, "bodyFile": "../../../etc/passwd"}}"#
                let (escaped, _) = try admin(port, "POST", "/__apicheck/stubs", body: escaping)
                #expect(escaped.status == 422)

                _ = try admin(port, "POST", "/__apicheck/stubs", body: Self.runtimeStub("/a", "runtime"))
                let (reloaded, _) = try admin(port, "POST", "/__apicheck/reload", body: "")
                #expect(reloaded.status == 200)
                #expect(try rawGET(port, "/a").text == "runtime")

                let (reset, resetJSON) = try admin(port, "POST", "/__apicheck/reset", body: "")
                #expect(reset.status == 200 && resetJSON?["runtimeStubsRemoved"] == 2)
                #expect(server.journal.count == 0)
                #expect(try rawGET(port, "/a").text == "from the file")
                #expect(try rawGET(port, "/b").status == 404)
            }
        }
    }

    @Test func theJournalIsQueriedWithTheStubsRequestPatterns() async throws {
        let stubs = StubSet([stub("a", "GET", "/a", body: "A"), stub("b", "POST", "/b", status: 201, body: "B")])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                _ = try rawGET(port, "/a")
                _ = try rawGET(port, "/a?page=2")
                let post = try RawConnection(port: port)
                let json = #"{"id": 7}"#
                try post.send("POST /b HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
                #expect(try post.readResponse().status == 201)
                _ = try rawGET(port, "/missing")

                let (found, foundJSON) = try admin(port, "POST", "/__apicheck/requests/find", body: #"{"path": "/a"}"#)
                #expect(found.status == 200)
                #expect(foundJSON?["total"] == 2)
                #expect(foundJSON?.value(at: "/requests/1/url") == .string("\(server.baseURL)/a?page=2"))
                let (_, withQuery) = try admin(port, "POST", "/__apicheck/requests/find", body: #"{"path": "/a", "query": {"page": "2"}}"#)
                #expect(withQuery?["total"] == 1)
                let (_, byBody) = try admin(port, "POST", "/__apicheck/requests/count", body: #"{"method": "POST", "bodyJSON": [{"path": "/id", "equals": 7}]}"#)
                #expect(byBody?["count"] == 1)
                let (_, wrongBody) = try admin(port, "POST", "/__apicheck/requests/count", body: #"{"bodyJSON": [{"path": "/id", "equals": 8}]}"#)
                #expect(wrongBody?["count"] == 0)
                let (_, everything) = try admin(port, "POST", "/__apicheck/requests/count", body: "")
                #expect(everything?["count"] == 4)
                // A misspelt key is said, as in a stub file (the pattern then matches more than meant).
                let (_, misspelt) = try admin(port, "POST", "/__apicheck/requests/count", body: #"{"path": "/a", "mthod": "POST"}"#)
                #expect(misspelt?["count"] == 2)
                #expect(misspelt?.value(at: "/warnings/0").map { "\($0)".contains("mthod") } == true)

                let (bad, badJSON) = try admin(port, "POST", "/__apicheck/requests/find", body: "{\n\"path\": 3}")
                #expect(bad.status == 422)
                #expect(badJSON?.value(at: "/diagnostics/0/line") == 2)

                let (unmatched, unmatchedJSON) = try admin(port, "GET", "/__apicheck/requests/unmatched")
                #expect(unmatched.status == 200)
                #expect(unmatchedJSON?["total"] == 1)
                #expect(unmatchedJSON?.value(at: "/requests/0/path") == "/missing")
                #expect(unmatchedJSON?.value(at: "/requests/0/index") == 3)
                guard case .array(let misses)? = unmatchedJSON?.value(at: "/requests/0/nearMisses") else { Issue.record("no near misses"); return }
                #expect(!misses.isEmpty)
                let (wrongMethod, _) = try admin(port, "GET", "/__apicheck/requests/find")
                #expect(wrongMethod.status == 405)
            }
        }
    }

    @Test func browsersCannotReachTheAdminAPIThroughAnotherName() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a", body: "A")]), configuration: testConfiguration { $0.adminHosts = ["stubs.test"] }) { server in
            let port = server.port
            try await blockingIO {
                // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1.
                let (rebound, problem) = try admin(port, "POST", "/__apicheck/stubs", body: Self.runtimeStub("/a", "evil"), host: "evil.example:\(port)")
                #expect(rebound.status == 403)
                #expect(problem?["title"] == "Host not accepted")
                #expect(try rawGET(port, "/a").text == "A")
                for host in ["localhost:\(port)", "[::1]:\(port)", "127.0.0.1", "stubs.test:\(port)", "LOCALHOST."] {
                    let (accepted, _) = try admin(port, "GET", "/__apicheck/health", host: host)
                    #expect(accepted.status == 200, "\(host)")
                }
                // Stubs themselves answer any Host.
                let stubbed = try RawConnection(port: port)
                try stubbed.send("GET /a HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
                #expect(try stubbed.readResponse().text == "A")

                // CSRF: another site's page, a sandboxed one, and the server's own.
                let (crossSite, crossProblem) = try admin(port, "DELETE", "/__apicheck/journal", headers: "Origin: http://evil.example\r\n")
                #expect(crossSite.status == 403 && crossProblem?["title"] == "Cross-origin request refused")
                let (sandboxed, _) = try admin(port, "DELETE", "/__apicheck/journal", headers: "Origin: null\r\n")
                #expect(sandboxed.status == 403)
                let (sameOrigin, _) = try admin(port, "DELETE", "/__apicheck/journal", headers: "Origin: http://127.0.0.1:\(port)\r\n")
                #expect(sameOrigin.status == 200)
                let (otherPort, _) = try admin(port, "DELETE", "/__apicheck/journal", headers: "Origin: http://127.0.0.1:\(port + 1)\r\n")
                #expect(otherPort.status == 403)
            }
        }
    }

    @Test func theGuardsRulesOneByOne() {
        var configuration = StubServer.Configuration(host: "0.0.0.0", baseURL: "http://10.0.2.2:8080")
        configuration.adminHosts = ["Dev.Example"]
        let guardian = AdminGuard(configuration: configuration, scheme: "http")
        #expect(guardian.accepts(host: "10.0.2.2:8080"))
        #expect(guardian.accepts(host: "192.168.1.20"))
        #expect(guardian.accepts(host: "[fe80::1]:80"))
        #expect(guardian.accepts(host: "dev.example:9"))
        #expect(!guardian.accepts(host: "127.0.0.1.nip.io"))
        #expect(!guardian.accepts(host: "localhost.evil.example"))
        #expect(guardian.isSameOrigin("http://dev.example:9", host: "dev.example:9"))
        #expect(guardian.isSameOrigin("http://dev.example", host: "dev.example:80"))
        #expect(!guardian.isSameOrigin("https://dev.example:9", host: "dev.example:9"))
        #expect(!guardian.isSameOrigin("http://dev.example:9", host: nil))
        var headers = HTTPHeaders([("Host", "localhost:1")])
        #expect(guardian.check(headers: headers, peerIsLoopback: false) == .notLoopback)
        #expect(guardian.check(headers: headers, peerIsLoopback: true) == nil)
        headers.add(name: "Origin", value: "http://localhost:2")
        #expect(guardian.check(headers: headers, peerIsLoopback: true) == .crossOrigin("http://localhost:2"))
    }
}

/// `/__apicheck/` itself: the live page for a browser, an index for programs, and stub listing
/// pages and searches the page uses.
@Suite struct LivePageServingTests {
    private func get(_ port: Int, _ target: String, accept: String, host: String? = nil, headers: String = "") throws -> RawResponse {
        let connection = try RawConnection(port: port)
        try connection.send("GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nAccept: \(accept)\r\n\(headers)Connection: close\r\n\r\n")
        return try connection.readResponse()
    }

    @Test func aBrowserGetsThePageAndAProgramTheIndex() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a"), stub("b", "GET", "/things/b")]), configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let page = try get(port, "/__apicheck/", accept: "text/html,application/xhtml+xml,*/*;q=0.8")
                #expect(page.status == 200)
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                let policy = try #require(page.header("Content-Security-Policy"))
                #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-") && policy.contains("connect-src 'self'") && policy.hasSuffix("frame-ancestors 'none'"))
                #expect(page.header("X-Content-Type-Options") == "nosniff")
                #expect(page.text.contains("<title>apicheck serve</title>") && page.text.contains(#"<table id="journal">"#))
                #expect(try get(port, "/__apicheck", accept: "text/html").status == 200)

                let index = try get(port, "/__apicheck/", accept: "application/json")
                #expect(index.header("Content-Type") == "application/json")
                let json = try JSONParser().parseValue(index.body)
                #expect(json.value(at: "/_links/requests~1unmatched/href") == "/__apicheck/requests/unmatched")
                #expect(json["livePage"] == .string(server.baseURL + "/__apicheck/"))
                // Another site's name gets neither.
                #expect(try get(port, "/__apicheck/", accept: "text/html", host: "evil.example").status == 403)

                // What the page's stub list asks for: a search and a page of it.
                let searched = try JSONParser().parseValue(try get(port, "/__apicheck/stubs?q=THINGS&limit=5", accept: "application/json").body)
                #expect(searched["count"] == 1 && searched.value(at: "/stubs/0/name") == "b")
                let paged = try JSONParser().parseValue(try get(port, "/__apicheck/stubs?offset=1&limit=1", accept: "application/json").body)
                #expect(paged["count"] == 2 && paged.value(at: "/stubs/0/name") == "b")
            }
        }
    }

    @Test func withATokenThePageIsServedAndItsDataIsNot() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a")]), configuration: testConfiguration { $0.adminToken = "s3cret" }) { server in
            let port = server.port
            try await blockingIO {
                let page = try get(port, "/__apicheck/", accept: "text/html")
                let index = try get(port, "/__apicheck/", accept: "application/json")
                let stubs = try get(port, "/__apicheck/stubs", accept: "application/json")
                let withToken = try get(port, "/__apicheck/stubs", accept: "application/json", headers: "Authorization: Bearer s3cret\r\n")
                // The token is never read from the URL.
                let inTheURL = try get(port, "/__apicheck/stubs?token=s3cret&access_token=s3cret", accept: "application/json")
                #expect(page.status == 200 && index.status == 401 && stubs.status == 401 && withToken.status == 200 && inTheURL.status == 401)
            }
        }
    }
}
