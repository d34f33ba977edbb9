#if canImport(XCTest)
import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension XCTestCase {
    /// A session answered from stub files, with its interceptor; invalidated when the test ends.
    /// A broken stub file fails the test here, and so (unless `warnings: .record` or `.ignore`)
    /// does any other stub-file warning. When the test ends, even by a thrown error, every request
    /// no stub answered fails it with its near-miss report (unless `unmatched: .allow`).
    ///
    /// ```swift
    /// let (session, stubs) = try stubbedSession(loading: [stubFolder("stubs")])
    /// ```
    ///
    /// `record` (or `APICHECK_RECORD`, which wins when set) lets requests reach the network and
    /// writes their answers into the stub folder (``RecordMode``); the summary is logged when the
    /// test ends.
    public func stubbedSession(
        loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
        unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .fail, record: StubRecording = .replay,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (URLSession, StubInterceptor) {
        let logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
        let recording = try PreparedRecording(paths: paths, recording: record, environment: ProcessInfo.processInfo.environment, logger: record.logger)
        let loaded = try LoadedStubs(recording.paths, root: root, logger: logger)
        if warnings == .fail, !loaded.warnings.isEmpty { throw StubLoadingError(diagnostics: loaded.warnings) }
        let interceptor = StubInterceptor(stubs: loaded.stubs, options: recording.options(options), templates: loaded.templates, logger: logger)
        return stubbedSession(interceptor, unmatched: unmatched, file: file, line: line)
    }

    /// A session answered by `interceptor`, invalidated (and the interceptor reset) when the test
    /// ends; requests no stub answered fail the test then (unless `unmatched: .allow`).
    public func stubbedSession(
        _ interceptor: StubInterceptor, unmatched: UnmatchedRequests = .fail, file: StaticString = #filePath, line: UInt = #line
    ) -> (URLSession, StubInterceptor) {
        let session = interceptor.makeSession()
        addTeardownBlock {
            if unmatched == .fail { XCTAssertNoUnmatchedRequests(interceptor, file: file, line: line) }
            session.invalidateAndCancel()
            interceptor.finishRecording()
            interceptor.reset()
        }
        return (session, interceptor)
    }
}

/// A test case whose every test is answered from the same stub files: override ``stubPaths``
/// (and, if needed, the other properties), then use ``session`` and ``interceptor``.
///
/// ```swift
/// final class GistsClientTests: StubbedTestCase {
///     override var stubPaths: [String] { [stubFolder("stubs")] }
///
///     func testListsGists() async throws {
///         let gists = try await GistsClient(session: session).list()
///         XCTAssertEqual(gists.count, 2)
///     }
/// }
/// ```
///
/// Subclasses that override `setUpWithError()` call `super.setUpWithError()` first.
open class StubbedTestCase: XCTestCase {
    /// The stub files and folders the tests are answered from.
    open var stubPaths: [String] { [] }
    open var stubOptions: StubInterceptor.Options { StubInterceptor.Options() }
    open var unmatchedRequests: UnmatchedRequests { .fail }
    open var loaderWarnings: LoaderWarnings { .fail }
    /// Whether requests no stub answers are recorded (``RecordMode``; `APICHECK_RECORD` wins).
    open var stubRecording: StubRecording { .replay }

    /// The session of the running test (a new one per test).
    public private(set) var session: URLSession!
    /// The interceptor behind ``session``: its journal, scenarios and sequences.
    public private(set) var interceptor: StubInterceptor!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        (session, interceptor) = try stubbedSession(
            loading: stubPaths, options: stubOptions, unmatched: unmatchedRequests, warnings: loaderWarnings, record: stubRecording)
    }
}

/// Fails at the caller unless requests matching `method` and `path` (literal, template or glob)
/// were sent `count` times, and match `body` if given. The message lists every request sent.
public func XCTAssertRequested(
    _ interceptor: StubInterceptor, _ method: String? = nil, _ path: String, _ count: RequestCount = .atLeast(1),
    body: BodyConstraint? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = interceptor.journal.verify(method: method, path: path, count: count, body: body) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Fails at the caller unless the requests were sent in this order (others may come between).
public func XCTAssertRequestedInOrder(
    _ interceptor: StubInterceptor, _ expected: [(method: String, path: String)], file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = interceptor.journal.verifyOrder(expected) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Fails at the caller for every request no stub answered, with its near-miss report.
public func XCTAssertNoUnmatchedRequests(_ interceptor: StubInterceptor, file: StaticString = #filePath, line: UInt = #line) {
    for entry in interceptor.journal.unmatched {
        if case .unmatched(let report) = entry.outcome { XCTFail(report.description, file: file, line: line) }
    }
}
#endif
