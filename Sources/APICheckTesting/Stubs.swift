import APICheckInterceptor
import APICheckModel
import APICheckRecording
import Foundation
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test's stubs: the stub files it loaded and the stubs it adds in code, the session that
/// answers from them, the journal of what was asked, and expectations about it. One value, from
/// one scoped entry, ``withStubs(_:root:options:unmatched:warnings:record:logger:filePath:sourceLocation:_:)``;
/// the `.stubs(…)` trait and ``StubsTestCase`` are thin wrappers over the same scope.
///
/// ```swift
/// try await withStubs("stubs") { stubs in                 // Tests/AppTests/stubs/
///     try stubs.stub(.get("/gists/starred")) { _ in throw URLError(.notConnectedToInternet) }
///     let client = GistsClient(session: stubs.session)
///     #expect(try await client.list().count == 2)
///     stubs.expectRequested("GET", "/gists", .exactly(1))
/// }
/// ```
///
/// When the scope ends, every request no stub answered fails the test once, at the line that
/// opened the scope, naming its method and URL, even when the code under test swallowed the error.
/// From then on the session refuses every request (it is never invalidated, so a client that
/// outlives the scope gets a clear error rather than a crash).
public final class Stubs: Sendable {
    /// The scope's session: hand it to the code under test.
    public let session: URLSession
    /// The interceptor behind ``session`` (its options, configurations of your own, recording state).
    public let interceptor: StubInterceptor
    /// Where the scope's failures go, and the line that opened it.
    let reporter: TestReporter
    private let state = Mutex(ScopeState())

    struct ScopeState {
        var ended = false
        /// Misses already reported before the scope ended (XCTest's thrown errors).
        var reported: Set<NearMissReport> = []
        #if canImport(Darwin)
        var interceptsSharedSession = false
        #endif
    }

    init(interceptor: StubInterceptor, reporter: TestReporter) {
        self.interceptor = interceptor
        self.session = interceptor.makeSession()
        self.reporter = reporter
    }

    /// Every request the scope's sessions sent, in order, and how each was answered.
    public var journal: StubJournal { interceptor.journal }

    /// What the recording has written so far; `nil` in replay (``RecordMode``).
    public var recordingSummary: RecordingSummary? { interceptor.recordingSummary }

    /// Another session answered by these stubs (a delegate, a configuration of your own).
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral, delegate: (any URLSessionDelegate)? = nil, delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        interceptor.makeSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    // MARK: The running scope

    /// The stubs of the running scope: a `withStubs` body, a test with the `.stubs(…)` trait.
    ///
    /// Outside any scope there are no stubs to answer from, and a real session would reach the
    /// network: this is then a value whose session refuses every request with an error that says
    /// so, and, in a Swift Testing test, an issue is recorded at the test.
    public static var current: Stubs {
        if let scoped { return scoped }
        if let test = Test.current {
            Issue.record(
                "Stubs.current: this test has no .stubs(…) trait and runs outside withStubs { }; its session refuses every request",
                sourceLocation: test.sourceLocation)
        }
        return outsideAnyScope
    }

    @TaskLocal static var scoped: Stubs?

    /// Refuses every request: what ``current`` gives outside a scope.
    static let outsideAnyScope: Stubs = {
        let interceptor = StubInterceptor(stubs: .empty)
        interceptor.refuse(
            "no stubs here: this session was handed out outside withStubs { } and outside a test with the .stubs(…) trait, so it refuses every request rather than send it to the network")
        return Stubs(interceptor: interceptor, reporter: TestReporter(.thrown, at: CallSite(fileID: "", filePath: #filePath, line: #line, column: #column)))
    }()

    // MARK: Stubs in code

    /// Answers requests matching `route` and every condition with what `respond` returns (or
    /// throws: the client gets that error, as is). A stub added in code wins over every stub added
    /// before it (files and earlier code stubs), so a test can change one answer mid-test.
    ///
    /// ```swift
    /// try stubs.stub(.get("/gists/{id}")) { request in try .json(["id": request.pathParams["id"]]) }
    /// try stubs.stub(.post("/gists"), .matching("has a token") { $0.headers["Authorization"] != nil }) { _ in .status(201) }
    /// ```
    ///
    /// - Parameter name: how near-miss reports and the journal name the stub (default: the route).
    /// - Throws: ``StubRouteError``, located at this call, when the route is not a stub path pattern.
    @discardableResult
    public func stub(
        _ route: StubRoute, _ conditions: StubCondition..., name: String? = nil, filePath: StaticString = #filePath, line: UInt = #line,
        respond: @escaping @Sendable (StubbedRequest) throws -> StubResponse
    ) throws(StubRouteError) -> Stub {
        try interceptor.addCodeStub(route, conditions, name: name, filePath: filePath, line: line, respond: respond)
    }

    /// Removes every stub written in code; the stub files stay.
    public func removeCodeStubs() { interceptor.removeCodeStubs() }

    // MARK: Scenarios and state

    /// Makes `scenario` the answer of `useCase` from the next request on. Every stub file is
    /// scenario `<file name>` of use case `<folder>` (relative to the folder loaded; `.` for its top
    /// level), and selecting one takes every other file of that folder out, whatever it answers.
    ///
    /// Fails the test here when the folder has no such scenario, and warns when the selection also
    /// takes out files that answer requests `scenario` does not (a flat folder, where every file is
    /// a scenario of `.`): put the alternatives in a folder of their own.
    public func select(
        _ scenario: String, for useCase: String, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let problem = ScenarioCheck(interceptor.stubs.stubs, scenario: scenario, useCase: useCase)
        if let failure = problem.failure { reporter.fail(failure, at: site) }
        if let warning = problem.warning { reporter.warn(warning, at: site, logger: reporter.logger) }
        interceptor.select(scenario, for: useCase)
    }

    /// Lets every scenario of `useCase` compete again (the first in load order answers).
    public func clearSelection(for useCase: String) { interceptor.clearSelection(for: useCase) }

    /// Forgets the journal, sequence positions and scenario selections; the stubs stay.
    public func reset() { interceptor.reset() }

    // MARK: Expectations

    /// Fails the test here unless requests matching `method` and `path` (literal, template or
    /// glob) were sent `count` times, and match `body` if given. The message lists every request.
    ///
    /// ```swift
    /// stubs.expectRequested("PUT", "/cart/{id}", .exactly(1), body: .jsonPointer(path: "/movieId", equals: "1msRby"))
    /// ```
    public func expectRequested(
        _ method: String? = nil, _ path: String, _ count: RequestCount = .atLeast(1), body: BodyConstraint? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        if let failure = journal.verify(method: method, path: path, count: count, body: body) {
            reporter.fail(failure, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }

    /// Fails the test here unless the requests were sent in this order (others may come between).
    public func expectRequestedInOrder(
        _ expected: [(method: String, path: String)],
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        if let failure = journal.verifyOrder(expected) {
            reporter.fail(failure, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }

    // MARK: Ending

    /// Ends the scope: cancels what is in flight, refuses every later request, writes the
    /// recording's summary, and returns the misses not reported yet, each with its journal entry.
    func end() -> [Miss] {
        let alreadyEnded = state.withLock { state in
            defer { state.ended = true }
            return state.ended
        }
        guard !alreadyEnded else { return [] }
        // Not invalidated: a task made on an invalidated session traps ("Session invalidated"),
        // and a client that outlives the scope must get an error, not stop the test process.
        // Not the tasks' cancel() either: it races a task's completion in swift-corelibs-foundation.
        interceptor.refuse("the stubs scope opened at \(reporter.site) has ended: its sessions refuse every request")
        interceptor.cutShortHeldAnswers("the stubs scope opened at \(reporter.site) ended before this request was answered")
        interceptor.finishRecording()
        #if canImport(Darwin)
        stopInterceptingSharedSession()
        #endif
        let reported = state.withLock { $0.reported }
        return Miss.all(in: journal).filter { !reported.contains($0.report) }
    }

    /// Marks `report` as reported, if it is one of this scope's misses and was not reported yet.
    func claim(_ report: NearMissReport) -> Miss? {
        guard let miss = Miss.all(in: journal).first(where: { $0.report == report }) else { return nil }
        let claimed = state.withLock { $0.reported.insert(report).inserted }
        return claimed ? miss : nil
    }

    #if canImport(Darwin)
    /// Sets whether the scope intercepts `URLSession.shared`; returns whether it did before.
    func setInterceptsSharedSession(_ on: Bool) -> Bool {
        state.withLock { state in
            defer { state.interceptsSharedSession = on }
            return state.interceptsSharedSession
        }
    }
    #endif
}

/// A request no stub answered, as a scope reports it: its method and full URL, then the report.
struct Miss: Sendable {
    var report: NearMissReport
    var method: String
    var url: URL

    static func all(in journal: StubJournal) -> [Miss] {
        journal.unmatched.compactMap { entry in
            guard case .unmatched(let report) = entry.outcome else { return nil }
            return Miss(report: report, method: entry.request.method, url: entry.url)
        }
    }

    /// `No stub matches GET http://localhost:3000/itemz. Nearest stubs:` and the report's reasons.
    var message: String {
        let reasons = report.description.drop { $0 != "\n" }
        let tail = report.nearMisses.isEmpty ? ": the stub set is empty." : ". Nearest stubs:"
        return "No stub matches \(method) \(url.absoluteString)\(tail)\(reasons)"
    }
}
