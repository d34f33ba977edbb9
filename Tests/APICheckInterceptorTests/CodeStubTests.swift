import APICheckModel
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs written in code, through a real URLSession.
@Suite struct CodeStubTests {
    struct Gist: Codable, Equatable {
        var id: String
        var description: String
    }

    private func get(_ session: URLSession, _ path: String, headers: [String: String] = [:]) async throws -> (Int, String) {
        var request = URLRequest(url: url(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func anInlineStubAnswersFromThePathParameters() async throws {
        try await withStubs { stubs in
            try stubs.stub(.get("/gists/{id}")) { request in
                try .json(Gist(id: request.pathParams["id"] ?? "", description: "hello"), headers: ["X-Trace": "t"])
            }
            let (data, response) = try await stubs.session.data(from: url("/gists/42"))
            #expect(try JSONDecoder().decode(Gist.self, from: data) == Gist(id: "42", description: "hello"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(http.value(forHTTPHeaderField: "X-Trace") == "t")
            #expect(stubs.journal.count == 1)
        }
    }

    @Test func aNamedConditionMatchesAndIsNamedWhenItIsNotMet() async throws {
        try await withStubs(unmatched: .allow) { stubs in
            try stubs.stub(.post("/gists"), .matching("has a token") { $0.headers["authorization"] != nil }) { _ in .status(201) }
            let session = stubs.session
            var request = URLRequest(url: url("/gists"))
            request.httpMethod = "POST"
            request.setValue("Bearer x", forHTTPHeaderField: "Authorization")
            let (_, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)

            request.setValue(nil, forHTTPHeaderField: "Authorization")
            do {
                _ = try await session.data(for: request)
                Issue.record("a request without a token is not answered")
            } catch let error as URLError {
                let report = try #require(error.nearMissReport)
                #expect(report.description.contains(#"condition: "has a token" is not met"#), "\(report)")
                #expect(report.description.contains("CodeStubTests.swift:"), "the line that added the stub")
            }
        }
    }

    @Test func aStubAddedLaterWinsOverFilesAndEarlierStubs() async throws {
        let folder = try TemporaryFolder()
        try folder.write("version.json", #"{"request": {"path": "/version"}, "response": {"status": 200, "bodyText": "from the file"}}"#)
        try await withStubs(folder.path) { stubs in
            let session = stubs.session
            #expect(try await get(session, "/version").1 == "from the file")
            try stubs.stub(.get("/version")) { _ in .text("from code") }
            #expect(try await get(session, "/version").1 == "from code")
            try stubs.stub(.any("/**")) { _ in .text("catch-all, added last") }
            #expect(try await get(session, "/version").1 == "catch-all, added last")
            stubs.removeCodeStubs()
            #expect(try await get(session, "/version").1 == "from the file")
        }
    }

    @Test func aThrownErrorReachesTheClientAsIs() async throws {
        try await withStubs { stubs in
            try stubs.stub(.get("/offline")) { _ in throw URLError(.notConnectedToInternet) }
            await #expect {
                _ = try await stubs.session.data(from: url("/offline"))
            } throws: { error in
                (error as? URLError)?.code == .notConnectedToInternet
            }
        }
    }

    @Test func aQueryInTheRouteIsAConstraint() async throws {
        try await withStubs { stubs in
            try stubs.stub(.get("/movies?page=2")) { _ in .text("page 2") }
            try stubs.stub(.get("/movies")) { _ in .text("any page") }
            #expect(try await get(stubs.session, "/movies?page=1").1 == "any page")
            stubs.removeCodeStubs()
            try stubs.stub(.get("/movies")) { _ in .text("any page") }
            try stubs.stub(.get("/movies?page=2")) { _ in .text("page 2") }
            #expect(try await get(stubs.session, "/movies?page=2").1 == "page 2")
            #expect(try await get(stubs.session, "/movies?page=3").1 == "any page")
        }
    }

    @Test func dataFilesAndQueriesAreAnswered() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("avatar.png", Data([0x89, 0x50, 0x4E, 0x47]))
        try await withStubs { stubs in
            try stubs.stub(.get("/avatar")) { _ in .file(URL(fileURLWithPath: file), contentType: "image/png") }
            try stubs.stub(.get("/search")) { request in .text("q=\(request.query["q"] ?? "-")") }
            let (bytes, response) = try await stubs.session.data(from: url("/avatar"))
            #expect(bytes == Data([0x89, 0x50, 0x4E, 0x47]))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/png")
            #expect(try await get(stubs.session, "/search?q=swift").1 == "q=swift")
        }
    }
}
