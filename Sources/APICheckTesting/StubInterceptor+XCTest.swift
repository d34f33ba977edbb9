#if canImport(XCTest)
import APICheckInterceptor
import APICheckModel
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension XCTestCase {
    /// A session answered from stub files (e.g. in the test bundle: `Bundle.module`), with its
    /// interceptor; invalidated when the test ends. A broken stub file fails the test here.
    ///
    /// ```swift
    /// let (session, stubs) = try stubbedSession(loading: [Bundle.module.path(forResource: "stubs", ofType: nil)!])
    /// ```
    public func stubbedSession(
        loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options()
    ) throws -> (URLSession, StubInterceptor) {
        let interceptor = try StubInterceptor(loading: paths, root: root, options: options)
        return stubbedSession(interceptor)
    }

    /// A session answered by `interceptor`, invalidated (and the interceptor reset) when the test ends.
    public func stubbedSession(_ interceptor: StubInterceptor) -> (URLSession, StubInterceptor) {
        let session = interceptor.makeSession()
        addTeardownBlock {
            session.invalidateAndCancel()
            interceptor.reset()
        }
        return (session, interceptor)
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
