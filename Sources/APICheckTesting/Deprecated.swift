import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The ways into a stubbed session before `withStubs`, kept for one release as forwards to the
// one scope. Paths stay as given (relative to the working directory), as they were.

/// Paths as the old helpers took them: relative to the working directory.
private func asGiven(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

private func legacySetup(
    paths: [String], root: String?, options: StubInterceptor.Options, unmatched: UnmatchedRequests, warnings: LoaderWarnings,
    record: StubRecording, site: CallSite
) -> StubsSetup {
    var record = record
    record.directory = record.directory.map(asGiven)
    return StubsSetup(
        paths: paths.map(asGiven), root: root.map(asGiven), options: options, unmatched: unmatched, warnings: warnings, record: record,
        logger: nil, site: site)
}

@available(*, deprecated, message: "use withStubs { stubs in … } and build stubs with stubs.stub(…), or load files: withStubs(\"stubs\")")
public func withStubbedSession<Result>(
    _ stubs: StubSet, options: StubInterceptor.Options = StubInterceptor.Options(), unmatched: UnmatchedRequests = .fail,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    let site = CallSite(sourceLocation, file: #filePath)
    var setup = legacySetup(paths: [], root: nil, options: options, unmatched: unmatched, warnings: .record, record: .replay, site: site)
    setup.stubSet = stubs
    return try await withStubs(setup, reporter: .forScope(at: site, logger: nil)) { try await body($0.session, $0.interceptor) }
}

@available(*, deprecated, message: "use withStubs(\"stubs\") { stubs in … stubs.session … }: paths are then relative to the test file")
public func withStubbedSession<Result>(
    loading paths: [String], root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
    unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: (URLSession, StubInterceptor) async throws -> Result
) async throws -> Result {
    let site = CallSite(sourceLocation, file: #filePath)
    let setup = legacySetup(paths: paths, root: root, options: options, unmatched: unmatched, warnings: warnings, record: record, site: site)
    return try await withStubs(setup, reporter: .forScope(at: site, logger: nil)) { try await body($0.session, $0.interceptor) }
}

/// The session and interceptor of the running test (the `.stubs(…)` trait).
@available(*, deprecated, message: "use Stubs.current: its session, journal, stub(…) and expectRequested(…)")
public struct StubbedTest: Sendable {
    public let session: URLSession
    public let interceptor: StubInterceptor

    /// The stubs of the running scope; `nil` outside one.
    public static var current: StubbedTest? {
        Stubs.scoped.map { StubbedTest(session: $0.session, interceptor: $0.interceptor) }
    }

    /// The session of the running scope; outside one, a session that refuses every request (and
    /// an issue is recorded at the test).
    public static var session: URLSession { Stubs.current.session }
}

/// Requests no stub answered, thrown by a scope outside a test framework.
@available(*, deprecated, renamed: "StubsScopeError")
public typealias UnmatchedRequestsError = StubsScopeError

extension StubInterceptor {
    @available(*, deprecated, message: "use withStubs(\"stubs\") { stubs in … }: the scope also reports misses and ends the session")
    public convenience init(
        loading paths: [String], root: String? = nil, options: Options = Options(),
        logger: Logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(StubLoadingError) {
        let loaded = try LoadedStubs(paths, root: root, logger: logger)
        self.init(stubs: loaded.stubs, options: options, templates: loaded.templates, logger: logger)
    }

    @available(*, deprecated, message: "use withStubs(\"stubs\", record: …) { stubs in … }")
    public convenience init(
        loading paths: [String], root: String? = nil, options: Options = Options(), record: StubRecording,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        let recording = try PreparedRecording(paths: paths, recording: record, environment: environment, logger: record.logger)
        let loaded = try LoadedStubs(recording.paths, root: root, logger: logger)
        self.init(stubs: loaded.stubs, options: recording.options(options), templates: loaded.templates, logger: logger)
    }

    /// What the deprecated initialiser above does, without a deprecation: the record-mode tests
    /// drive it with an environment of their own.
    static func loading(_ paths: [String], options: Options = Options(), record: StubRecording, environment: [String: String]) throws -> StubInterceptor {
        let quiet = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() })
        let recording = try PreparedRecording(paths: paths, recording: record, environment: environment, logger: record.logger)
        let loaded = try LoadedStubs(recording.paths, root: nil, logger: quiet)
        return StubInterceptor(stubs: loaded.stubs, options: recording.options(options), templates: loaded.templates, logger: quiet)
    }
}

@available(*, deprecated, message: "use stubs.expectRequested(…) on the scope's Stubs")
public func expectRequested(
    _ interceptor: StubInterceptor, _ method: String? = nil, _ path: String, _ count: RequestCount = .atLeast(1),
    body: BodyConstraint? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    if let failure = interceptor.journal.verify(method: method, path: path, count: count, body: body) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

@available(*, deprecated, message: "use stubs.expectRequestedInOrder(…) on the scope's Stubs")
public func expectRequestedInOrder(
    _ interceptor: StubInterceptor, _ expected: [(method: String, path: String)], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    if let failure = interceptor.journal.verifyOrder(expected) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

@available(*, deprecated, message: "a stubs scope (withStubs, .stubs, StubsTestCase) reports every miss when it ends")
public func expectNoUnmatchedRequests(_ interceptor: StubInterceptor, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    for miss in Miss.all(in: interceptor.journal) {
        Issue.record(Comment(rawValue: miss.message), sourceLocation: sourceLocation)
    }
}
