import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stubs scope loads and how it behaves: the stub files and folders, relative to the test
/// file that names them, and the policies. `withStubs`, the `.stubs(…)` trait and
/// ``StubsTestCase`` all make one, so they resolve paths and default the same way.
///
/// ```swift
/// override var stubsSetup: StubsSetup { StubsSetup("stubs") }   // Tests/AppTests/stubs/
/// ```
public struct StubsSetup: Sendable {
    /// Absolute paths: relative ones are resolved against the folder of the file that wrote them.
    var paths: [String]
    var root: String?
    var options: StubInterceptor.Options
    var unmatched: UnmatchedRequests
    var warnings: LoaderWarnings
    var record: StubRecording
    var logger: Logger?
    /// Where the setup was written: the line misses are reported at (unless a test's own).
    var site: CallSite
    /// Stubs given as a value (the deprecated `withStubbedSession(_ stubs: StubSet)`).
    var stubSet: StubSet?

    /// - Parameters:
    ///   - paths: stub files and folders (XML and JSON), relative to the folder of this test file
    ///     (`#filePath`) unless absolute: `"stubs"`, `"../../stubs/acmeflix"`.
    ///   - root: the stub root for `body-file` and template paths (default: each folder loaded).
    ///   - options: latency scale, redirects, limits (``StubInterceptor/Options``).
    ///   - unmatched: `.fail` (default): each request no stub answered fails the test when the
    ///     scope ends, even if the code under test swallowed the error.
    ///   - warnings: stub-file warnings other than typos (which always fail): `.record` (default)
    ///     is a Swift Testing warning, and a logged warning under XCTest, which has none.
    ///   - record: whether requests no stub answers go to the network and are written down
    ///     (``RecordMode``; `APICHECK_RECORD` wins). Its folder is relative to this file too.
    ///   - logger: where logged warnings and the recording summary go (default: `Logger.current`).
    public init(
        _ paths: String..., root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
        unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay, logger: Logger? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.init(
            paths: paths, root: root, options: options, unmatched: unmatched, warnings: warnings, record: record, logger: logger,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    init(
        paths: [String], root: String?, options: StubInterceptor.Options, unmatched: UnmatchedRequests, warnings: LoaderWarnings,
        record: StubRecording, logger: Logger?, site: CallSite, resolvingAgainst filePath: StaticString? = nil
    ) {
        let base = filePath ?? site.file
        self.paths = paths.map { stubFolder($0, relativeTo: base) }
        self.root = root.map { stubFolder($0, relativeTo: base) }
        self.options = options
        self.unmatched = unmatched
        self.warnings = warnings
        var record = record
        record.directory = record.directory.map { stubFolder($0, relativeTo: base) }
        self.record = record
        self.logger = logger
        self.site = site
    }
}

/// Runs `body` with the stubs loaded from `paths` and the session that answers from them, then
/// ends the scope whether `body` throws or not: in-flight requests are cancelled, the session
/// refuses every later request, and each request no stub answered fails the test once, here,
/// naming its method and URL (``UnmatchedRequests``).
///
/// ```swift
/// @Test func rentsAMovie() async throws {
///     try await withStubs("stubs") { stubs in                  // Tests/AppTests/stubs/
///         let client = AcmeFlixClient(rootURL: URL(string: "http://localhost:3000/")!, session: stubs.session)
///         let cart = try await client.rent(try await client.movie("1msRby"))
///         #expect(cart.item.count == 2)
///         stubs.expectRequested("PUT", "/cart/{id}", .exactly(1))
///     }
/// }
/// ```
///
/// Paths are relative to this test file (`#filePath`). A broken stub file, a misspelt name or a
/// template that does not compile throws ``StubLoadingError`` before `body` runs. Inside a Swift
/// Testing test, failures are issues; elsewhere (no test framework to record them) they are
/// thrown when the scope ends as one ``StubsScopeError``. Inside `body`, ``Stubs/current`` is
/// this scope's value. Parameters: see ``StubsSetup/init(_:root:options:unmatched:warnings:record:logger:fileID:filePath:line:column:)``.
@discardableResult
public func withStubs<Result>(
    _ paths: String..., root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
    unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay, logger: Logger? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (Stubs) async throws -> Result
) async throws -> Result {
    let setup = StubsSetup(
        paths: paths, root: root, options: options, unmatched: unmatched, warnings: warnings, record: record, logger: logger,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return try await withStubs(setup, reporter: .forScope(at: setup.site, logger: logger), body)
}

/// The one scope every entry runs: open, bind ``Stubs/current``, run, end and report.
func withStubs<Result>(_ setup: StubsSetup, reporter: TestReporter, _ body: (Stubs) async throws -> Result) async throws -> Result {
    let stubs = try Stubs.open(setup, reporter: reporter)
    let outcome: Swift.Result<Result, any Error>
    do {
        outcome = .success(try await Stubs.$scoped.withValue(stubs) { try await body(stubs) })
    } catch {
        outcome = .failure(error)
    }
    var thrown: (any Error)?
    if case .failure(let error) = outcome { thrown = error }
    if let failure = reporter.finish(misses: stubs.end(), unmatched: setup.unmatched, thrown: thrown) { throw failure }
    // The body threw nothing the reporter kept: it returned.
    return try outcome.get()
}

extension Stubs {
    /// Loads the setup's stub files and makes the scope's interceptor and session: the test
    /// session setup the trait, `withStubs` and ``StubsTestCase`` share.
    static func open(_ setup: StubsSetup, reporter: TestReporter) throws -> Stubs {
        let quiet = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
        let recordingLogger = setup.record.logger ?? setup.logger
        let recording = try PreparedRecording(paths: setup.paths, recording: setup.record, environment: ProcessInfo.processInfo.environment, logger: recordingLogger)
        let interceptor: StubInterceptor
        if let stubSet = setup.stubSet, recording.paths.isEmpty {
            interceptor = StubInterceptor(stubs: stubSet, options: recording.options(setup.options), logger: quiet)
        } else {
            // An OpenAPI document among the paths answers as `serve --openapi` does (the OpenAPI trait).
            let (stubPaths, documents) = DocumentSources.split(recording.paths)
            let loaded = try LoadedStubs(stubPaths, root: setup.root, logger: quiet)
            try reporter.report(loaded.warnings, as: setup.warnings)
            let mocked = try DocumentSources.load(documents, logger: quiet)
            let stubs = StubSet((setup.stubSet?.stubs ?? []) + loaded.stubs.stubs + mocked.stubs)
            interceptor = StubInterceptor(
                stubs: stubs, options: recording.options(setup.options), templates: loaded.templates, logger: quiet, gate: mocked.gate)
        }
        return Stubs(interceptor: interceptor, reporter: reporter)
    }
}
