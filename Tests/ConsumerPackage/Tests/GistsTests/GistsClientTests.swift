import APICheckTesting
import Foundation
import Gists
import Testing

@Suite(.stubs("stubs")) struct GistsClientTests {
    @Test func listsGistsFromAStubFile() async throws {
        let gists = try await GistsClient(session: Stubs.current.session).list()
        #expect(gists.map(\.description) == ["hello.swift", "notes.md"])
        Stubs.current.expectRequested("GET", "/gists", .exactly(1))
    }

    @Test func aMissTheClientSwallowedIsStillReported() async throws {
        try await withKnownIssue {
            try await withStubs("stubs") { stubs in
                #expect(await GistsClient(session: stubs.session).starred() == nil)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("No stub matches GET https://api.github.com/gists/starred") }
        }
    }

    @Test func inlineStubsMatchWithClosuresAndTheLatestWins() async throws {
        let stubs = Stubs.current
        let client = GistsClient(session: stubs.session)
        #expect(try await client.list().count == 2, "from the file")

        // Override mid-test: a stub added in code wins over the file's.
        try stubs.stub(.get("/gists"), .matching("asks for JSON") { $0.headers["Accept"] == nil || $0.headers["Accept"]!.contains("json") }) { _ in
            try .json([["id": "9", "description": "inline"]])
        }
        #expect(try await client.list().map(\.description) == ["inline"])

        try stubs.stub(.get("/gists/starred")) { _ in throw URLError(.notConnectedToInternet) }
        #expect(await client.starred() == nil)
    }

    @Test func aTypoInAStubFileFailsLoudly() async throws {
        let error = await #expect(throws: StubLoadingError.self) { try await withStubs("typo") { _ in } }
        #expect(error?.description.contains("unknown attribute request-methd on <annotation> is ignored (did you mean request-method?)") == true)
    }
}
