import APICheckInterceptor
import APICheckModel
import APICheckStubFiles
import APICheckTemplates
import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub files that could not be used: every problem, located like a compiler diagnostic.
public struct StubLoadingError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public var description: String {
        "the stub files have \(diagnostics.count) \(diagnostics.count == 1 ? "problem" : "problems"):\n"
            + diagnostics.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension StubInterceptor {
    /// Loads stub files and folders (XML and JSON) into an interceptor. Throws when any file has
    /// an error, names an element, attribute or key the format does not know (a typo), or a
    /// template does not compile, so a broken stub fails the test that uses it instead of
    /// surfacing as a confusing unmatched request or a missing header.
    ///
    /// ```swift
    /// let interceptor = try StubInterceptor(loading: [Bundle.module.path(forResource: "stubs", ofType: nil)!])
    /// ```
    public convenience init(
        loading paths: [String], root: String? = nil, options: Options = Options(),
        logger: Logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(StubLoadingError) {
        let result = StubLoader(options: StubLoadOptions(root: root), logger: logger).load(paths)
        let templates = TemplateRenderer(logger: logger)
        // A misspelt element, attribute or key is an error here: in a test it would otherwise be a
        // stub quietly missing its header, latency or method.
        let problems = (result.errors + result.warnings.filter { $0.code == .unknownName } + templates.diagnose(result.stubSet).filter { $0.severity == .error })
            .sorted(by: Diagnostic.precedes)
        guard problems.isEmpty else { throw StubLoadingError(diagnostics: problems) }
        self.init(stubs: result.stubSet, options: options, templates: templates, logger: logger)
    }
}

/// Runs `body` with a session answered from `stubs` and the interceptor behind it, then
/// invalidates the session whether `body` throws or not.
///
/// ```swift
/// try await withStubbedSession(loading: ["stubs/acmeflix"]) { session, stubs in
///     let root = try await AcmeFlixClient(session: session).root()
///     #expect(stubs.journal.verify(method: "GET", path: "/") == nil)
/// }
/// ```
public func withStubbedSession<Result>(
    _ stubs: StubSet, options: StubInterceptor.Options = StubInterceptor.Options(),
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async rethrows -> Result {
    let interceptor = StubInterceptor(stubs: stubs, options: options)
    let session = interceptor.makeSession()
    defer { session.invalidateAndCancel() }
    return try await body(session, interceptor)
}

/// ``withStubbedSession(_:options:_:)`` for stub files and folders; throws ``StubLoadingError``
/// when a stub file is invalid.
public func withStubbedSession<Result>(
    loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    let interceptor = try StubInterceptor(loading: paths, root: root, options: options)
    let session = interceptor.makeSession()
    defer { session.invalidateAndCancel() }
    return try await body(session, interceptor)
}
