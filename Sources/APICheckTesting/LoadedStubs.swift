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

/// What a scoped helper does, when it ends, with requests that no stub answered.
public enum UnmatchedRequests: Sendable {
    /// Fail the test with each request's near-miss report (the default): a client that swallows
    /// the `URLError` cannot hide a missing stub.
    case fail
    /// Leave them to the test (e.g. one that asserts an offline error on purpose).
    case allow
}

/// What the test helpers do with stub-file warnings that are not typos (those always fail).
public enum LoaderWarnings: Sendable {
    /// Swift Testing: an issue of severity warning; XCTest, which has none: logged.
    case record
    /// Each warning fails the test.
    case fail
    case ignore
}

/// Requests no stub answered, each with its near-miss report: thrown by a scoped helper outside
/// Swift Testing, where it cannot record issues.
public struct UnmatchedRequestsError: Error, Sendable, CustomStringConvertible {
    public var reports: [NearMissReport]

    public var description: String {
        "\(reports.count) \(reports.count == 1 ? "request" : "requests") matched no stub:\n"
            + reports.map(\.description).joined(separator: "\n")
    }
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

extension StubInterceptor {
    /// Loads stub files and folders (XML and JSON) into an interceptor. Throws when any file has
    /// an error, names an element, attribute or key the format does not know (a typo), or a
    /// template does not compile, so a broken stub fails the test that uses it instead of
    /// surfacing as a confusing unmatched request or a missing header.
    ///
    /// ```swift
    /// let interceptor = try StubInterceptor(loading: [stubFolder("stubs")])
    /// ```
    public convenience init(
        loading paths: [String], root: String? = nil, options: Options = Options(),
        logger: Logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(StubLoadingError) {
        let loaded = try LoadedStubs(paths, root: root, logger: logger)
        self.init(stubs: loaded.stubs, options: options, templates: loaded.templates, logger: logger)
    }
}

/// A stub file or folder beside the test file that names it: `stubFolder("stubs")` in
/// `Tests/AppTests/ClientTests.swift` is `Tests/AppTests/stubs`. Loading from the sources rather
/// than a copy in the test bundle needs no resources, and every report names the file you edit.
/// `stubFolder("../../stubs")` reaches a stub set at the package root.
public func stubFolder(_ relativePath: String, relativeTo filePath: StaticString = #filePath) -> String {
    if relativePath.hasPrefix("/") { return relativePath }
    return URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        .appendingPathComponent(relativePath).standardizedFileURL.path
}

/// Runs `body` with a session answered from `stubs` and the interceptor behind it, then
/// invalidates the session whether `body` throws or not. Requests no stub answered fail the test
/// when it ends, even when `body` threw (``UnmatchedRequests``).
///
/// ```swift
/// try await withStubbedSession(loading: [stubFolder("stubs")]) { session, stubs in
///     let root = try await AcmeFlixClient(session: session).root()
///     #expect(stubs.journal.verify(method: "GET", path: "/") == nil)
/// }
/// ```
public func withStubbedSession<Result>(
    _ stubs: StubSet, options: StubInterceptor.Options = StubInterceptor.Options(), unmatched: UnmatchedRequests = .fail,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    try await withSession(StubInterceptor(stubs: stubs, options: options), unmatched: unmatched, sourceLocation: sourceLocation, body)
}

/// ``withStubbedSession(_:options:unmatched:sourceLocation:_:)`` for stub files and folders;
/// throws ``StubLoadingError`` when a stub file is invalid. Other loader warnings are recorded
/// (``LoaderWarnings``).
///
/// `record` (or `APICHECK_RECORD`, which wins when set) lets requests reach the network and writes
/// their answers into the stub folder (``RecordMode``); the summary is logged when `body` ends.
/// Paths, and a ``StubRecording/directory``, are taken as given: use ``stubFolder(_:relativeTo:)``.
public func withStubbedSession<Result>(
    loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
    unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    let logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
    let recording = try PreparedRecording(paths: paths, recording: record, environment: ProcessInfo.processInfo.environment, logger: record.logger)
    let loaded = try LoadedStubs(recording.paths, root: root, logger: logger)
    try TestReporting.record(loaded.warnings, as: warnings, logger: logger, sourceLocation: sourceLocation)
    let interceptor = StubInterceptor(stubs: loaded.stubs, options: recording.options(options), templates: loaded.templates, logger: logger)
    return try await withSession(interceptor, unmatched: unmatched, sourceLocation: sourceLocation, body)
}

private func withSession<Result>(
    _ interceptor: StubInterceptor, unmatched: UnmatchedRequests, sourceLocation: Testing.SourceLocation,
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    let session = interceptor.makeSession()
    defer {
        session.invalidateAndCancel()
        interceptor.finishRecording()
    }
    let result: Result
    do {
        result = try await body(session, interceptor)
    } catch {
        // The body's error is the test's failure; the misses that may have caused it are recorded too.
        if unmatched == .fail { try? TestReporting.unmatched(of: interceptor, sourceLocation: sourceLocation) }
        throw error
    }
    if unmatched == .fail { try TestReporting.unmatched(of: interceptor, sourceLocation: sourceLocation) }
    return result
}
