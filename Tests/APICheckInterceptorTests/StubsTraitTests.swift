import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The trait: the same scope as `withStubs`, per test, paths beside the test file.
@Suite struct StubsTraitTests {
    @Test(.stubs("Fixtures/stubs")) func theTraitAnswersFromFilesBesideTheTest() async throws {
        let stubs = Stubs.current
        let (data, _) = try await stubs.session.data(from: greeting)
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        try stubs.stub(.get("/greetings/grace")) { _ in .text("hi") }
        #expect(try await stubs.session.data(from: URL(string: "http://localhost/greetings/grace")!).0 == Data("hi".utf8))
        stubs.expectRequested("GET", "/greetings/{name}", .exactly(2))
    }

    @Test func aMissIsReportedOnceAtTheTestsLineNotTheTraitsOrTheSuites() async throws {
        let test = try #require(Test.current)
        let traitLine = #line + 1
        let trait: StubsTrait = .stubs("Fixtures/stubs")
        let issues = IssueLog()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                _ = try await Stubs.current.session.data(from: missing)
            }
        } matching: { issues.keep($0) }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.sourceLocation == test.sourceLocation)
        #expect(issues.lines != [traitLine])
        #expect(issues.texts.first?.contains("No stub matches GET http://localhost/nowhere") == true)
    }
}

/// On a suite, every test gets a scope of its own: fresh journal, sequences and code stubs.
@Suite(.stubs("Fixtures/stubs"), .serialized) struct StubsTraitOnASuiteTests {
    @Test func first() async throws {
        try Stubs.current.stub(.get("/only-here")) { _ in .text("first") }
        let (_, response) = try await Stubs.current.session.data(from: URL(string: "http://localhost/jobs/1")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 202, "the sequence starts afresh")
        #expect(Stubs.current.journal.count == 1)
    }

    @Test func second() async throws {
        let (_, response) = try await Stubs.current.session.data(from: URL(string: "http://localhost/jobs/1")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 202, "the sequence starts afresh")
        #expect(Stubs.current.journal.count == 1)
        let outer = Stubs.current
        try await withStubs("Fixtures/stubs") { inner in
            #expect(Stubs.current === inner, "a nested scope is current inside its body")
        }
        #expect(Stubs.current === outer)
    }
}
