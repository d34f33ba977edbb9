import APICheckTesting
import Foundation
import Testing
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The ways in before `withStubs`, kept for one release: each still answers, still reports misses,
// and no longer stops the process on a bad route. (Deprecation warnings here are expected.)

@Suite struct DeprecatedForwardsTests {
    private var folder: String { stubFolder("Fixtures/stubs") }

    @Test func withStubbedSessionLoadingStillAnswersAndReportsMisses() async throws {
        try await withStubbedSession(loading: [folder]) { session, interceptor in
            let (data, _) = try await session.data(from: greeting)
            #expect(data == Data("hello".utf8))
            expectRequested(interceptor, "GET", "/greetings/{name}", .exactly(1))
            expectRequestedInOrder(interceptor, [(method: "GET", path: "/greetings/ada")])
            expectNoUnmatchedRequests(interceptor)
        }
        let issues = IssueLog()
        try await withKnownIssue {
            try await withStubbedSession(loading: [folder]) { session, _ in _ = try? await session.data(from: missing) }
        } matching: { issues.keep($0) }
        #expect(issues.all.count == 1)
    }

    @Test func withStubbedSessionOfAStubSetStillAnswers() async throws {
        let set = try await withStubs("Fixtures/stubs") { $0.interceptor.stubs }
        try await withStubbedSession(set) { session, interceptor in
            let (data, _) = try await session.data(from: greeting)
            #expect(data == Data("hello".utf8))
            #expect(interceptor.journal.count == 1)
        }
    }

    @Test func theInterceptorInitialisersAndCodeStubsStillWork() async throws {
        let loaded = try StubInterceptor(loading: [folder])
        #expect(try await loaded.makeSession().data(from: greeting).0 == Data("hello".utf8))
        let coded = StubInterceptor()
        coded.stub(.get("/hi")) { _ in .text("hi") }
        #expect(try await coded.makeSession().data(from: URL(string: "http://localhost/hi")!).0 == Data("hi".utf8))
    }

    @Test func aBadRouteInTheOldStubRefusesWithItsLocationInsteadOfCrashing() async throws {
        let interceptor = StubInterceptor()
        let line = #line + 1
        interceptor.stub(.get("hi")) { _ in .text("hi") }
        let error = await #expect(throws: URLError.self) { try await interceptor.makeSession().data(from: URL(string: "http://localhost/hi")!) }
        #expect(error?.code == .unsupportedURL)
        #expect(error?.localizedDescription.contains("DeprecatedForwardsTests.swift:\(line):1: error: stub(GET hi): 'hi' is not a stub path pattern") == true)
    }

    @Test(.stubs("Fixtures/stubs")) func stubbedTestStillGivesTheTraitsSessionAndInterceptor() async throws {
        #expect(try await StubbedTest.session.data(from: greeting).0 == Data("hello".utf8))
        #expect(StubbedTest.current?.interceptor.journal.count == 1)
    }

    @Test func stubbedTestSessionOutsideTheTraitRefusesInsteadOfReachingTheNetwork() async throws {
        let server = try LoopbackServer(body: "from the network")
        try await withKnownIssue {
            _ = try await StubbedTest.session.data(from: URL(string: "\(server.origin)/leak")!)
        } matching: { _ in true }
        #expect(server.requests.isEmpty)
        #expect(StubbedTest.current == nil)
    }
}

final class DeprecatedXCTestForwardsTests: XCTestCase {
    func testStubbedSessionStillServesAndAsserts() async throws {
        let (session, stubs) = try stubbedSession(loading: [stubFolder("Fixtures/stubs")])
        let (data, _) = try await session.data(from: URL(string: "http://localhost/greetings/ada")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello")
        XCTAssertRequested(stubs, "GET", "/greetings/{name}", .exactly(1))
        XCTAssertRequestedInOrder(stubs, [(method: "GET", path: "/greetings/ada")])
        XCTAssertNoUnmatchedRequests(stubs)
    }
}

final class DeprecatedStubbedTestCaseTests: StubbedTestCase {
    override var stubPaths: [String] { [stubFolder("Fixtures/stubs")] }

    func testEveryTestGetsAnsweredFromTheStubs() async throws {
        let (data, _) = try await session.data(from: URL(string: "http://localhost/greetings/grace")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello")
        XCTAssertRequested(interceptor, "GET", "/greetings/{name}", .exactly(1))
    }
}
