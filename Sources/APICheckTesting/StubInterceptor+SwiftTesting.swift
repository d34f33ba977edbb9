import APICheckInterceptor
import APICheckModel
import Testing

/// Swift Testing: records an issue at the caller unless requests matching `method` and `path`
/// were sent `count` times (and match `body`, if given).
///
/// ```swift
/// expectRequested(stubs, "PUT", "/cart/{id}", .exactly(1), body: .jsonPointer(path: "/movieId", equals: "iBZQ9"))
/// ```
public func expectRequested(
    _ interceptor: StubInterceptor, _ method: String? = nil, _ path: String, _ count: RequestCount = .atLeast(1),
    body: BodyConstraint? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    if let failure = interceptor.journal.verify(method: method, path: path, count: count, body: body) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// Swift Testing: records an issue unless the requests were sent in this order.
public func expectRequestedInOrder(
    _ interceptor: StubInterceptor, _ expected: [(method: String, path: String)], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    if let failure = interceptor.journal.verifyOrder(expected) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// Swift Testing: records an issue for every request no stub answered, with its near-miss report.
public func expectNoUnmatchedRequests(_ interceptor: StubInterceptor, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    for entry in interceptor.journal.unmatched {
        if case .unmatched(let report) = entry.outcome {
            Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
        }
    }
}
