import APICheckJSON
import APICheckModel
import Foundation
import NIOCore
import Testing

@testable import APICheckServer

/// The admin API under `/__apicheck/`, over real sockets.
@Suite struct AdminAPITests {
    private func request(_ port: Int, _ method: String, _ target: String, body: String? = nil, headers: String = "") throws -> (RawResponse, JSONValue?) {
        let connection = try RawConnection(port: port)
        let bodyPart = body.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n\r\n\($0)" } ?? "\r\n"
        try connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\(bodyPart)")
        let response = try connection.readResponse()
        return (response, try? JSONParser().parseValue(response.body))
    }

    @Test func healthStubsAndJournalWithPaging() async throws {
        let stubs = StubSet([stub("a", "GET", "/a", body: "A"), stub("b", "POST", "/b", body: "B")])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let (health, healthJSON) = try request(port, "GET", "/__apicheck/health")
                #expect(health.status == 200)
                #expect(health.header("Content-Type") == "application/json")
                #expect(healthJSON?["schemaVersion"] == 1)
                #expect(healthJSON?["status"] == "ok")
                #expect(healthJSON?["stubs"] == 2)

                let (_, list) = try request(port, "GET", "/__apicheck/stubs")
                #expect(list?["count"] == 2)
                #expect(list?.value(at: "/stubs/1/method") == "POST")
                #expect(list?.value(at: "/stubs/1/path") == "/b")
                #expect(list?.value(at: "/stubs/0/source") == "test/a.json:1:1")

                for index in 0..<5 { _ = try rawGET(port, "/a?n=\(index)") }
                _ = try rawGET(port, "/missing")
                let (_, page) = try request(port, "GET", "/__apicheck/journal?offset=2&limit=3")
                #expect(page?["total"] == 6)
                #expect(page?["offset"] == 2)
                #expect(page?.value(at: "/entries/0/index") == 2)
                #expect(page?.value(at: "/entries/0/url") == .string("\(server.baseURL)/a?n=2"))
                #expect(page?.value(at: "/entries/0/outcome/kind") == "stubbed")
                #expect(page?.value(at: "/entries/0/outcome/stub") == "a")
                guard case .array(let entries)? = page?["entries"] else {
                    Issue.record("no entries")
                    return
                }
                #expect(entries.count == 3)
                let (_, last) = try request(port, "GET", "/__apicheck/journal?offset=5")
                #expect(last?.value(at: "/entries/0/outcome/kind") == "unmatched")
                // Admin requests are not journaled; DELETE clears.
                let (cleared, clearedJSON) = try request(port, "DELETE", "/__apicheck/journal")
                #expect(cleared.status == 200)
                #expect(clearedJSON?["cleared"] == 6)
                #expect(server.journal.count == 0)

                let (bad, _) = try request(port, "GET", "/__apicheck/journal?limit=-1")
                #expect(bad.status == 400)
                let (unknown, problem) = try request(port, "GET", "/__apicheck/nope")
                #expect(unknown.status == 404)
                #expect(unknown.header("Content-Type") == "application/problem+json")
                #expect(problem?["title"] == "No such admin endpoint")
                let (wrongMethod, _) = try request(port, "POST", "/__apicheck/health", body: "{}")
                #expect(wrongMethod.status == 405)
            }
        }
    }

    @Test func scenariosAreListedSelectedAndCleared() async throws {
        let success = stub("success", "POST", "/sign-in", body: "welcome", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "success"))
        let locked = stub("locked", "POST", "/sign-in", status: 423, body: "locked", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "locked"))
        try await withStubServer(StubSet([success, locked]), configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let signIn = { () throws -> Int in try request(port, "POST", "/sign-in", body: "").0.status }
                #expect(try signIn() == 200)  // first in load order
                let (_, list) = try request(port, "GET", "/__apicheck/scenarios")
                #expect(list?.value(at: "/useCases/0/useCase") == "welcome/sign-in")
                #expect(list?.value(at: "/useCases/0/scenarios") == ["success", "locked"])
                #expect(list?.value(at: "/useCases/0/active") == .null)

                let (selected, selection) = try request(port, "PUT", "/__apicheck/scenarios/welcome/sign-in", body: #"{"scenario": "locked"}"#)
                #expect(selected.status == 200)
                #expect(selection?["active"] == "locked")
                #expect(try signIn() == 423)

                let (unknown, _) = try request(port, "POST", "/__apicheck/scenarios/welcome/sign-in", body: #"{"scenario": "nope"}"#)
                #expect(unknown.status == 404)
                let (noUseCase, _) = try request(port, "PUT", "/__apicheck/scenarios/other", body: #"{"scenario": "x"}"#)
                #expect(noUseCase.status == 404)
                let (badBody, _) = try request(port, "PUT", "/__apicheck/scenarios/welcome/sign-in", body: "not json")
                #expect(badBody.status == 400)

                let (cleared, _) = try request(port, "DELETE", "/__apicheck/scenarios/welcome/sign-in")
                #expect(cleared.status == 200)
                #expect(try signIn() == 200)
            }
        }
    }

    @Test func reloadKeepsTheLastGoodSetWhenAFileIsBroken() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", #"{"request": {"path": "/a"}, "response": {"status": 200, "bodyText": "one"}}"#)
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            let port = server.port
            try folder.write("a.json", #"{"request": {"path": "/a"}, "response": {"status": 200, "bodyText": "two"}}"#)
            let (reloaded, outcome) = try await blockingIO { try request(port, "POST", "/__apicheck/reload", body: "") }
            #expect(reloaded.status == 200)
            #expect(outcome?["accepted"] == true)
            #expect(try await blockingIO { try rawGET(port, "/a") }.text == "two")

            try folder.write("a.json", "{\"request\": {\"path\": \"/a\"},\n \"response\": {\"status\": \"broken\"}}")
            let (rejected, report) = try await blockingIO { try request(port, "POST", "/__apicheck/reload", body: "") }
            #expect(rejected.status == 422)
            #expect(report?["accepted"] == false)
            #expect(report?.value(at: "/diagnostics/0/line") == 2)
            guard case .string(let text)? = report?.value(at: "/diagnostics/0/text") else {
                Issue.record("no diagnostic text")
                return
            }
            #expect(text.hasPrefix("\(folder.path)/a.json:2:") && text.contains(": error: "), "\(text)")
            #expect(try await blockingIO { try rawGET(port, "/a") }.text == "two")

            let (health, healthJSON) = try await blockingIO { try request(port, "GET", "/__apicheck/health") }
            #expect(health.status == 200)
            #expect(healthJSON?["reloads"] == 2)
            #expect(healthJSON?.value(at: "/lastReload/accepted") == false)
        }
        // A server started from a stub set has nothing to reload.
        try await withStubServer(StubSet([stub("a", "GET", "/a")]), configuration: testConfiguration()) { server in
            let (response, _) = try await blockingIO { try request(server.port, "POST", "/__apicheck/reload", body: "") }
            #expect(response.status == 409)
        }
    }

    @Test func anAdminTokenIsRequiredFromEveryoneOnceSet() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a")]), configuration: testConfiguration { $0.adminToken = "s3cret" }) { server in
            let port = server.port
            try await blockingIO {
                let (missing, _) = try request(port, "GET", "/__apicheck/health")
                #expect(missing.status == 401)
                #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                let (wrong, _) = try request(port, "GET", "/__apicheck/health", headers: "Authorization: Bearer s3crex\r\n")
                #expect(wrong.status == 401)
                let (longer, _) = try request(port, "GET", "/__apicheck/health", headers: "Authorization: Bearer s3cret2\r\n")
                #expect(longer.status == 401)
                let (right, _) = try request(port, "GET", "/__apicheck/health", headers: "Authorization: Bearer s3cret\r\n")
                #expect(right.status == 200)
            }
        }
    }

    @Test func withoutATokenOnlyLoopbackPeersAreAdmitted() throws {
        #expect(StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
        #expect(StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "127.8.9.10", port: 1)))
        #expect(StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "::1", port: 1)))
        #expect(StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1)))
        #expect(!StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "10.0.0.1", port: 1)))
        #expect(!StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "128.0.0.1", port: 1)))
        #expect(!StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "::2", port: 1)))
        #expect(!StubHTTPHandler.isLoopback(try SocketAddress(ipAddress: "::ffff:10.0.0.1", port: 1)))
        #expect(!StubHTTPHandler.isLoopback(nil))
    }

    @Test func theAdminPrefixShadowsStubsAndSaysSo() async throws {
        let shadowed = stub("sneaky", "GET", "/__apicheck/health", body: "stub")
        try await withStubServer(StubSet([shadowed, stub("fine", "GET", "/__apicheckx", body: "not admin")]), configuration: testConfiguration()) { server in
            let port = server.port
            try await blockingIO {
                let (health, json) = try request(port, "GET", "/__apicheck/health")
                #expect(json?["status"] == "ok", "\(health.text)")
                let (_, list) = try request(port, "GET", "/__apicheck/stubs")
                #expect(list?.value(at: "/stubs/0/shadowed") == true)
                #expect(list?.value(at: "/stubs/1/shadowed") == nil)
                #expect(try rawGET(port, "/__apicheckx").text == "not admin")
            }
        }
        #expect(AdminAPI.isAdminTarget("/__apicheck/health"))
        #expect(AdminAPI.isAdminTarget("/__apicheck"))
        #expect(AdminAPI.isAdminTarget("/__apicheck?x"))
        #expect(!AdminAPI.isAdminTarget("/__apicheckx"))
        #expect(!AdminAPI.isAdminTarget("/api/__apicheck/health"))
    }

    @Test func constantTimeComparison() {
        #expect(AdminAPI.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AdminAPI.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AdminAPI.constantTimeEquals(Array("abc".utf8), Array("ab".utf8)))
        #expect(!AdminAPI.constantTimeEquals([], Array("a".utf8)))
        #expect(AdminAPI.constantTimeEquals([], []))
    }
}
