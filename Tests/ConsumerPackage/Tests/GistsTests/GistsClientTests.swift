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

    @Test func aTypoInAStubFileFailsLoudly() throws {
        let error = #expect(throws: StubLoadingError.self) { try StubInterceptor(loading: [stubFolder("typo")]) }
        #expect(error?.description.contains("unknown attribute request-methd on <annotation> is ignored (did you mean request-method?)") == true)
    }
}
