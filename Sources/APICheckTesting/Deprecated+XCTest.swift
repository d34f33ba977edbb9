#if canImport(XCTest)
import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// XCTest's ways into a stubbed session before `StubsTestCase`, kept for one release as forwards
// to the one scope. Paths stay as given (relative to the working directory), as they were.

extension XCTestCase {
    @available(*, deprecated, message: "subclass StubsTestCase and override stubsSetup, or use withStubs(\"stubs\") { stubs in … }")
    public func stubbedSession(
        loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
        unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .fail, record: StubRecording = .replay,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (URLSession, StubInterceptor) {
        var record = record
        record.directory = record.directory.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let site = CallSite(fileID: "", filePath: file, line: line, column: 1)
        let setup = StubsSetup(
            paths: paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, root: root.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
            options: options, unmatched: unmatched, warnings: warnings, record: record, logger: nil, site: site)
        return endAtTeardown(try Stubs.open(setup, reporter: TestReporter(.xcTest, at: site, logger: Logger.current)), unmatched: unmatched)
    }

    @available(*, deprecated, message: "subclass StubsTestCase, or use withStubs { stubs in … }")
    public func stubbedSession(
        _ interceptor: StubInterceptor, unmatched: UnmatchedRequests = .fail, file: StaticString = #filePath, line: UInt = #line
    ) -> (URLSession, StubInterceptor) {
        // The caller's interceptor outlives the test: reset for reuse, as before, not ended.
        let reporter = TestReporter(.xcTest, at: CallSite(fileID: "", filePath: file, line: line, column: 1))
        let session = interceptor.makeSession()
        addTeardownBlock {
            _ = reporter.finish(misses: Miss.all(in: interceptor.journal), unmatched: unmatched, thrown: nil)
            interceptor.cutShortHeldAnswers("the test ended before this request was answered")
            interceptor.finishRecording()
            interceptor.reset()
        }
        return (session, interceptor)
    }

    private func endAtTeardown(_ stubs: Stubs, unmatched: UnmatchedRequests) -> (URLSession, StubInterceptor) {
        addTeardownBlock {
            _ = stubs.reporter.finish(misses: stubs.end(), unmatched: unmatched, thrown: nil)
        }
        return (stubs.session, stubs.interceptor)
    }
}

@available(*, deprecated, renamed: "StubsTestCase", message: "override stubsSetup (paths relative to the test file) and use stubs.session")
open class StubbedTestCase: XCTestCase {
    open var stubPaths: [String] { [] }
    open var stubOptions: StubInterceptor.Options { StubInterceptor.Options() }
    open var unmatchedRequests: UnmatchedRequests { .fail }
    open var loaderWarnings: LoaderWarnings { .fail }
    open var stubRecording: StubRecording { .replay }

    public private(set) var session: URLSession!
    public private(set) var interceptor: StubInterceptor!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        (session, interceptor) = try stubbedSession(
            loading: stubPaths, options: stubOptions, unmatched: unmatchedRequests, warnings: loaderWarnings, record: stubRecording)
    }
}

@available(*, deprecated, message: "use stubs.expectRequested(…) (StubsTestCase's stubs)")
public func XCTAssertRequested(
    _ interceptor: StubInterceptor, _ method: String? = nil, _ path: String, _ count: RequestCount = .atLeast(1),
    body: BodyConstraint? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = interceptor.journal.verify(method: method, path: path, count: count, body: body) {
        XCTFail(failure, file: file, line: line)
    }
}

@available(*, deprecated, message: "use stubs.expectRequestedInOrder(…) (StubsTestCase's stubs)")
public func XCTAssertRequestedInOrder(
    _ interceptor: StubInterceptor, _ expected: [(method: String, path: String)], file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = interceptor.journal.verifyOrder(expected) {
        XCTFail(failure, file: file, line: line)
    }
}

@available(*, deprecated, message: "StubsTestCase reports every miss when the test ends")
public func XCTAssertNoUnmatchedRequests(_ interceptor: StubInterceptor, file: StaticString = #filePath, line: UInt = #line) {
    for miss in Miss.all(in: interceptor.journal) { XCTFail(miss.message, file: file, line: line) }
}
#endif
