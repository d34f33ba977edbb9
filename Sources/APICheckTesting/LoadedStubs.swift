import APICheckInterceptor
import APICheckModel
import APICheckStubFiles
import APICheckTemplates
import Foundation
import Logging
import Testing

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

/// What a stubs scope does, when it ends, with requests that no stub answered.
public enum UnmatchedRequests: Sendable {
    /// Fail the test once per request, with its method, URL and near-miss report (the default, in
    /// Swift Testing and XCTest alike): a client that swallows the `URLError` cannot hide a miss.
    case fail
    /// Leave them to the test (e.g. one that asserts an offline error on purpose).
    case allow
}

/// What a stubs scope does with stub-file warnings that are not typos (those always fail).
public enum LoaderWarnings: Sendable {
    /// Swift Testing: an issue of severity warning; XCTest, which has none: logged.
    case record
    /// Each warning fails the test.
    case fail
    case ignore
}

/// Stub files loaded for a test: the set, and the warnings a test may want to see.
struct LoadedStubs {
    var stubs: StubSet
    var warnings: [Diagnostic]
    var templates: TemplateRenderer

    /// Throws when any file has an error, names an element, attribute or key the format does not
    /// know (a typo: in a test it would be a stub quietly missing its header, latency or method), or
    /// a template does not compile.
    init(_ paths: [String], root: String?, logger: Logger) throws(StubLoadingError) {
        let result = StubLoader(options: StubLoadOptions(root: root), logger: logger).load(paths)
        templates = TemplateRenderer(logger: logger)
        // The loader has compiled and checked the templates: their errors are among its errors.
        let problems = result.errors + result.warnings.filter { $0.code == .unknownName }
        guard problems.isEmpty else { throw StubLoadingError(diagnostics: problems) }
        stubs = result.stubSet
        warnings = result.warnings.filter { $0.code != .unknownName }
    }
}

/// A file or folder beside the test file that names it: `stubFolder("stubs")` in
/// `Tests/AppTests/ClientTests.swift` is `Tests/AppTests/stubs`; absolute paths stay as they are.
/// `withStubs`, `.stubs(…)` and `StubsSetup` resolve their paths this way already.
public func stubFolder(_ relativePath: String, relativeTo filePath: StaticString = #filePath) -> String {
    if relativePath.hasPrefix("/") { return relativePath }
    return URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        .appendingPathComponent(relativePath).standardizedFileURL.path
}
