#if compiler(>=6.1)
import APICheckInterceptor
import Foundation
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session and interceptor of the running test, provided by the ``Testing/Trait/stubs(_:root:options:unmatched:warnings:record:filePath:sourceLocation:)`` trait.
public struct StubbedTest: Sendable {
    public let session: URLSession
    public let interceptor: StubInterceptor

    /// The stubs of the running test; `nil` outside a test (or suite) with the `.stubs(…)` trait.
    @TaskLocal public static var current: StubbedTest?

    /// The session of the running test. Records an issue (and returns a session that answers
    /// nothing from stubs) when the test has no `.stubs(…)` trait.
    public static var session: URLSession {
        guard let current else {
            Issue.record("StubbedTest.session: this test has no .stubs(…) trait; add @Test(.stubs(\"stubs\"))")
            return URLSession(configuration: .ephemeral)
        }
        return current.session
    }
}

/// Answers every request of a test from stub files, in process: `@Test(.stubs("stubs"))`. The
/// test reads `StubbedTest.session` and `StubbedTest.current?.interceptor`. On a suite, every test
/// of the suite gets its own interceptor. When the test ends, every request no stub answered is
/// an issue with its near-miss report, and stub-file warnings are warnings.
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    let paths: [String]
    let root: String?
    let options: StubInterceptor.Options
    let unmatched: UnmatchedRequests
    let warnings: LoaderWarnings
    let record: StubRecording
    let sourceLocation: SourceLocation

    /// Applies to each test of a suite, not once around it: every test gets fresh stub state.
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        // Each test case gets its own interceptor; the suite itself and a parameterised test's
        // function as a whole need none.
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
        let recording = try PreparedRecording(paths: paths, recording: record, environment: ProcessInfo.processInfo.environment, logger: record.logger)
        let loaded = try LoadedStubs(recording.paths, root: root, logger: logger)
        try TestReporting.record(loaded.warnings, as: warnings, logger: logger, sourceLocation: sourceLocation)
        let interceptor = StubInterceptor(stubs: loaded.stubs, options: recording.options(options), templates: loaded.templates, logger: logger)
        let session = interceptor.makeSession()
        defer {
            session.invalidateAndCancel()
            interceptor.finishRecording()
        }
        do {
            try await StubbedTest.$current.withValue(StubbedTest(session: session, interceptor: interceptor)) {
                try await function()
            }
        } catch {
            if unmatched == .fail { try? TestReporting.unmatched(of: interceptor, sourceLocation: sourceLocation) }
            throw error
        }
        if unmatched == .fail { try TestReporting.unmatched(of: interceptor, sourceLocation: sourceLocation) }
    }
}

extension Trait where Self == StubsTrait {
    /// Answers the test's requests from these stub files or folders, relative to the test file
    /// (see ``stubFolder(_:relativeTo:)``) unless absolute.
    ///
    /// ```swift
    /// @Test(.stubs("stubs")) func listsGists() async throws {
    ///     let gists = try await GistsClient(session: StubbedTest.session).list()
    ///     #expect(gists.count == 2)
    /// }
    /// ```
    ///
    /// `record: .recordMissing` (or `APICHECK_RECORD=missing`, which wins when set) sends requests
    /// no stub answers to the network and writes their answers into the first folder
    /// (``RecordMode``); a ``StubRecording/directory`` is relative to the test file too.
    public static func stubs(
        _ paths: String..., root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
        unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay,
        filePath: StaticString = #filePath, sourceLocation: SourceLocation = #_sourceLocation
    ) -> StubsTrait {
        var record = record
        record.directory = record.directory.map { stubFolder($0, relativeTo: filePath) }
        return StubsTrait(
            paths: paths.map { stubFolder($0, relativeTo: filePath) }, root: root.map { stubFolder($0, relativeTo: filePath) },
            options: options, unmatched: unmatched, warnings: warnings, record: record, sourceLocation: sourceLocation)
    }
}
#endif
