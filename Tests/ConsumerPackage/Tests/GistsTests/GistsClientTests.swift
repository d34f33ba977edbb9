import APICheckTesting
import Foundation
import Gists
import Testing

@Suite(.stubs("stubs")) struct GistsClientTests {
    @Test func listsGistsFromAStubFile() async throws {
        let gists = try await GistsClient(session: StubbedTest.session).list()
        #expect(gists.map(\.description) == ["hello.swift", "notes.md"])
    }

    @Test func aMissTheClientSwallowedIsStillReported() async throws {
        try await withKnownIssue {
            try await withStubbedSession(loading: [stubFolder("stubs")]) { session, _ in
                #expect(await GistsClient(session: session).starred() == nil)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("No stub matches GET /gists/starred") }
        }
    }

    @Test func inlineStubsMatchWithClosuresAndTheLatestWins() async throws {
        let stubs = try StubInterceptor(loading: [stubFolder("stubs")])
        let client = GistsClient(session: stubs.makeSession())
        #expect(try await client.list().count == 2, "from the file")

        // Override mid-test: a stub added in code wins over the file's.
        stubs.stub(.get("/gists"), .matching("asks for JSON") { $0.headers["Accept"] == nil || $0.headers["Accept"]!.contains("json") }) { _ in
            try .json([["id": "9", "description": "inline"]])
        }
        #expect(try await client.list().map(\.description) == ["inline"])

        stubs.stub(.get("/gists/starred")) { _ in throw URLError(.notConnectedToInternet) }
        #expect(await client.starred() == nil)
    }

    @Test func aTypoInAStubFileFailsLoudly() throws {
        let error = #expect(throws: StubLoadingError.self) { try StubInterceptor(loading: [stubFolder("typo")]) }
        #expect(error?.description.contains("unknown attribute request-methd on <annotation> is ignored (did you mean request-method?)") == true)
    }
}
