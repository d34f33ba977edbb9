import APICheckInterceptor
import APICheckModel
import Logging
import Testing

/// How the helpers tell a test what went wrong: Swift Testing issues at the caller when a test is
/// running (they never stop the test), a thrown error otherwise.
enum TestReporting {
    /// The near-miss report of every request no stub answered.
    static func unmatched(of interceptor: StubInterceptor, sourceLocation: Testing.SourceLocation) throws {
        let reports = interceptor.journal.unmatched.compactMap { entry -> NearMissReport? in
            if case .unmatched(let report) = entry.outcome { return report }
            return nil
        }
        guard !reports.isEmpty else { return }
        guard Test.current != nil else { throw UnmatchedRequestsError(reports: reports) }
        for report in reports {
            Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
        }
    }

    /// Stub-file warnings, as `policy` says.
    static func record(_ warnings: [Diagnostic], as policy: LoaderWarnings, logger: Logger, sourceLocation: Testing.SourceLocation) throws {
        guard !warnings.isEmpty else { return }
        switch policy {
        case .ignore:
            return
        case .record where Test.current != nil:
            for warning in warnings {
                #if compiler(>=6.2)
                Issue.record(Comment(rawValue: warning.description), severity: .warning, sourceLocation: sourceLocation)
                #else
                logger.warning("\(warning)")
                #endif
            }
        case .record:
            for warning in warnings { logger.warning("\(warning)") }
        case .fail where Test.current != nil:
            for warning in warnings { Issue.record(Comment(rawValue: warning.description), sourceLocation: sourceLocation) }
        case .fail:
            throw StubLoadingError(diagnostics: warnings)
        }
    }
}
