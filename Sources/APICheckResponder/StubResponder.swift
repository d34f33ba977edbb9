import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation
import Synchronization

/// The state every consumer of a stub set shares (the stubs, the active scenarios, sequence
/// positions, the journal) and the one way to turn a request into the stub's answer.
///
/// The in-process interceptor and the stub server both answer through a responder, so they
/// cannot disagree about which stub answers, which response of a sequence comes next, or how a
/// template renders. Transports only differ in how they deliver the answer.
///
/// ```swift
/// let responder = StubResponder(stubs: stubSet)
/// switch responder.answer(StubRequest(method: "GET", target: "/movies/42")) {
/// case .stubbed(let matched, let response): …
/// case .exhausted(let matched): …        // a sequence set to fail after its last response
/// case .unmatched(let report): …         // report.description explains the near misses
/// }
/// ```
public final class StubResponder: Sendable {
    private struct State: Sendable {
        var stubs: StubSet
        var scenarios: ScenarioSelection
        var sequenceCalls: [String: Int] = [:]
    }

    public let journal: StubJournal
    public let templates: TemplateRenderer
    private let state: Mutex<State>
    /// Changes with every change of the scenario selection (under the state's lock).
    private let scenarioGeneration = Atomic<Int>(0)

    public init(
        stubs: StubSet, scenarios: ScenarioSelection = [:], templates: TemplateRenderer = TemplateRenderer(),
        journal: StubJournal = StubJournal()
    ) {
        self.templates = templates
        self.journal = journal
        self.state = Mutex(State(stubs: stubs, scenarios: scenarios))
    }

    // MARK: State

    /// The stubs being served.
    public var stubs: StubSet { state.withLock { $0.stubs } }

    /// Serves `stubs` from now on and restarts every sequence; requests already being answered
    /// finish with the set they started with.
    public func replaceStubs(_ stubs: StubSet) {
        state.withLock {
            $0.stubs = stubs
            $0.sequenceCalls = [:]
        }
    }

    /// The active scenario per use case.
    public var scenarios: ScenarioSelection { state.withLock { $0.scenarios } }

    /// Makes `scenario` the answer of `useCase` (the folder `screen/use-case`), until changed.
    public func select(_ scenario: String, for useCase: String) {
        state.withLock {
            $0.scenarios[useCase] = scenario
            scenarioGeneration.add(1, ordering: .releasing)
        }
    }

    /// Lets every scenario of `useCase` compete again (the first in load order answers).
    public func clearSelection(for useCase: String) {
        state.withLock {
            $0.scenarios.removeValue(forKey: useCase)
            scenarioGeneration.add(1, ordering: .releasing)
        }
    }

    /// Forgets the journal, sequence positions and scenario selections; the stubs stay.
    public func reset() {
        state.withLock {
            $0.scenarios = [:]
            $0.sequenceCalls = [:]
            scenarioGeneration.add(1, ordering: .releasing)
        }
        journal.clear()
    }

    // MARK: Answering

    /// The stub that answers `request` and the response it gives now (advancing its sequence).
    /// `HEAD` falls back to the `GET` stub of the same resource, as servers do.
    public func answer(_ request: StubRequest) -> StubAnswer {
        // Match outside the lock (the set is immutable); lock again only to advance a sequence.
        let (stubs, scenarios) = state.withLock { ($0.stubs, $0.scenarios) }
        return answer(request, matchingIn: stubs, scenarios: scenarios)
    }

    /// ``answer(_:)`` against `stubs`, a set with the same stubs as the one being served (a
    /// server's per-event-loop replica, so that threads do not share reference counts, or the set
    /// a request started with while a new one is being installed), with `scenarios` read earlier
    /// through ``scenarioSnapshot`` and still current (its generation is
    /// ``currentScenarioGeneration``): an event loop keeps its own copy instead of taking the
    /// shared lock per request. Sequences and the journal are this responder's.
    package func answer(_ request: StubRequest, matchingIn stubs: StubSet, scenarios: ScenarioSelection) -> StubAnswer {
        var match = stubs.match(request, scenarios: scenarios)
        // `if case`, not `match.matched == nil`: that comparison copies the whole matched stub.
        if case .unmatched = match, request.method == "HEAD" {
            var get = request
            get.method = "GET"
            if case .matched(let found) = stubs.match(get, scenarios: scenarios) { match = .matched(found) }
        }
        switch match {
        case .unmatched(let report):
            return .unmatched(report)
        case .matched(let matched):
            guard matched.stub.sequence != nil else { return .stubbed(matched, matched.stub.response) }
            let call = state.withLock { state in
                defer { state.sequenceCalls[matched.stub.id, default: 0] += 1 }
                return state.sequenceCalls[matched.stub.id, default: 0]
            }
            guard let response = matched.stub.response(forCall: call) else { return .exhausted(matched) }
            return .stubbed(matched, response)
        }
    }

    /// A number that changes whenever the scenario selection does.
    package var currentScenarioGeneration: Int { scenarioGeneration.load(ordering: .acquiring) }

    /// The scenario selection and its generation, read together.
    package var scenarioSnapshot: (generation: Int, selection: ScenarioSelection) {
        state.withLock { (scenarioGeneration.load(ordering: .relaxed), $0.scenarios) }
    }

    /// Renders the body template of `matched` for `request`; `baseURL` is the origin serving it
    /// (the intercepted request's origin, or the server's own address).
    public func render(_ template: StubTemplate, for matched: MatchedStub, request: StubRequest, baseURL: String) throws(TemplateError) -> Data {
        let context = TemplateContext(request: request, pathParameters: matched.pathParameters, baseURL: baseURL, variables: template.variables)
        return try templates.render(template, context: context)
    }
}

extension StubResponder {
    /// `scheme://host[:port]` of `url` (lower-cased, default ports left out): the `baseURL`
    /// templates see, and what two URLs must share to be of the same origin.
    public static func origin(of url: URL) -> String {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return "" }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(port)"
    }

    /// The RFC 9457 `application/problem+json` document transports answer an unmatched request
    /// with: the near-miss report as `detail`, and the nearest stubs by name.
    /// (No `type`: RFC 9457 reads that as `about:blank`, a plain 404.)
    public static func problemDocument(for report: NearMissReport) -> Data {
        var members: [JSONMember] = [
            JSONMember("title", "No stub matches the request"),
            JSONMember("status", .number("404")),
            JSONMember("detail", .string(report.description)),
            JSONMember("request", .string(report.request.summary)),
        ]
        members.append(JSONMember("nearMisses", .array(report.nearMisses.map { .string($0.stub.name) })))
        return Data(JSONWriter().string(.object(members)).utf8)
    }
}

/// How a ``StubResponder`` answers one request.
public enum StubAnswer: Sendable {
    /// This stub answers, with this response (the next of its sequence, if it has one).
    case stubbed(MatchedStub, StubResponse)
    /// The stub matched but its sequence is spent and set to fail after its last response.
    case exhausted(MatchedStub)
    /// No stub matched; the report says which came closest and why.
    case unmatched(NearMissReport)

    /// The sentence transports report for an exhausted sequence.
    public static func exhaustedMessage(_ matched: MatchedStub) -> String {
        "the sequence of stub \"\(matched.stub.name)\" (\(matched.stub.source)) is exhausted and set to fail after its last response"
    }
}
