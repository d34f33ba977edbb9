import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation
import Synchronization

/// The state every consumer of a stub set shares (the stubs, the active scenarios, sequence
/// positions, the journal) and the one way to turn a request into the stub's answer.
///
/// The in-process interceptor, the stub server and the crawler's in-memory fetcher all answer
/// through a responder: it decides the whole ``StubReply`` (status, final headers, body, latency,
/// failure, problem documents) and journals it once, so they cannot disagree. Transports only
/// deliver the reply.
///
/// ```swift
/// let responder = StubResponder(stubs: stubSet)
/// let request = StubRequest(method: "GET", target: "/movies/42")
/// let reply = responder.reply(to: request, at: .target(origin: "http://localhost:3000", target: "/movies/42"))
/// switch reply.kind {
/// case .stubbed: send(reply.status, reply.headers, reply.body)
/// case .unmatched, .exhausted, .unservable: print(reply.explanation ?? "")  // also a problem document
/// case .failure(let failure): simulate(failure)
/// case .passthrough: forward(request)
/// }
/// ```
public final class StubResponder: Sendable {
    private struct State: Sendable {
        var stubs: StubSet
        var scenarios: ScenarioSelection
        var sequenceCalls: [String: Int] = [:]
        /// Newest first (see ``CodeStub``).
        var codeStubs: [CodeStub] = []
    }

    public let journal: StubJournal
    public let templates: TemplateRenderer
    private let state: Mutex<State>
    /// Changes with every change of the scenario selection (under the state's lock).
    private let scenarioGeneration = Atomic<Int>(0)
    /// How many code stubs there are: a lookup takes the lock for them only when there are any
    /// (the server, which never has any, must not contend on this lock per request).
    private let codeStubCount = Atomic<Int>(0)

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

    /// Adds a stub written in code; it wins over every stub added before it (``CodeStub``).
    public func add(_ codeStub: CodeStub) {
        state.withLock {
            $0.codeStubs.insert(codeStub, at: 0)
            codeStubCount.store($0.codeStubs.count, ordering: .releasing)
        }
    }

    /// Removes every stub written in code; the stub set stays.
    public func removeCodeStubs() {
        state.withLock {
            $0.codeStubs.removeAll()
            codeStubCount.store(0, ordering: .releasing)
        }
    }

    /// The stubs written in code, newest first.
    public var codeStubs: [CodeStub] { state.withLock { $0.codeStubs } }

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

    /// The whole answer to `request` (see ``StubReply``), journaled once: matching, the next
    /// response of a sequence, `HEAD` falling back to the `GET` stub, the template rendered with
    /// `baseURL` = the origin `location` names, body files checked (and read, if
    /// ``ReplyOptions/readsBodyFiles``), and the problem document for anything that is not a stub
    /// response. May block on files and templates: call it off event loops.
    public func reply(to request: StubRequest, at location: JournalEntry.Location, options: ReplyOptions = ReplyOptions()) -> StubReply {
        // Match outside the lock (the set is immutable); lock again only to advance a sequence.
        let (stubs, scenarios) = state.withLock { ($0.stubs, $0.scenarios) }
        switch decide(request, at: location, matchingIn: stubs, scenarios: scenarios, options: options) {
        case .ready(let reply): return reply
        case .pending(let pending): return complete(pending)
        }
    }

    /// The first half of ``reply(to:at:options:)``, cheap enough for an event loop: matches
    /// against `stubs` (a set with the same stubs as the one being served: a server's per-loop
    /// replica, or the set a request started with while a new one is installed) with `scenarios`
    /// read earlier through ``scenarioSnapshot`` and still current, and advances the sequence.
    /// A reply that needs no file or template is ready (and journaled); otherwise ``complete(_:)``
    /// finishes it, off the loop.
    package func decide(
        _ request: consuming StubRequest, at location: JournalEntry.Location, matchingIn stubs: StubSet, scenarios: ScenarioSelection,
        options: ReplyOptions
    ) -> StubDecision {
        let method = request.method
        switch lookup(request, in: stubs, scenarios: scenarios) {
        case .unmatched(let report):
            let reply =
                options.unmatched == .passThrough
                ? StubReply(kind: .passthrough, matched: nil, status: 0, headers: [], body: Data(), method: method)
                : StubReply(
                    kind: .unmatched(report), matched: nil, status: 404, headers: StubReply.problemHeaders,
                    body: StubReply.unmatchedDocument(report), method: method
                )
            record(reply, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .exhausted(let matched):
            let message = StubReply.exhaustedMessage(matched)
            let document = StubReply.problemDocument(
                status: 404, title: "Stub sequence exhausted", detail: message,
                extra: [JSONMember("stub", .string(matched.stub.name)), JSONMember("source", .string(matched.stub.source.description))]
            )
            let reply = StubReply(kind: .exhausted, matched: matched, status: 404, headers: StubReply.problemHeaders, body: document, method: method)
            record(reply, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .threw(let matched, let error):
            let problem = Unservable(reason: .threw, message: "stub \"\(matched.stub.name)\" (\(matched.stub.source)) threw: \(error)", thrown: error)
            let document = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: problem.message)
            let reply = StubReply(kind: .unservable(problem), matched: matched, status: 500, headers: StubReply.problemHeaders, body: document, method: method)
            record(reply, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .stubbed(let matched, let response):
            if let failure = response.failure {
                let reply = StubReply(kind: .failure(failure), matched: matched, response: response, body: .bytes(Data()), method: method, location: location)
                record(reply, request: request, at: location, shard: options.journalShard)
                return .ready(reply)
            }
            guard case .bytes(let data) = response.body else {
                return .pending(PendingReply(request: request, location: location, matched: matched, response: response, options: options))
            }
            let reply = StubReply(kind: .stubbed, matched: matched, response: response, body: .bytes(data), method: method, location: location)
            record(reply, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        }
    }

    /// The second half of ``reply(to:at:options:)``: renders the template or checks (or reads)
    /// the body file, and journals the reply. Blocks on files: call it off event loops.
    public func complete(_ pending: PendingReply) -> StubReply {
        let matched = pending.matched
        let method = pending.request.method
        let limit = pending.options.maximumBodyBytes
        let body: StubReply.Body
        do throws(Unservable) {
            switch pending.response.body {
            case .bytes(let data):
                body = .bytes(data)
            case .template(let template):
                let rendered: Data
                do {
                    rendered = try render(template, for: matched, request: pending.request, baseURL: pending.location.origin)
                } catch {
                    throw Unservable(reason: .templateFailed, message: "the template of stub \"\(matched.stub.name)\" (\(matched.stub.source)) cannot be rendered: \(error)")
                }
                guard rendered.count <= limit else {
                    throw Unservable(reason: .templateFailed, message: "the template of stub \"\(matched.stub.name)\" (\(matched.stub.source)) rendered \(rendered.count) bytes, over the limit of \(limit)")
                }
                body = .bytes(rendered)
            case .file(let file):
                // Checked (or read) when answering: the file may have changed or gone since loading.
                do {
                    body = pending.options.readsBodyFiles ? .bytes(try file.contents(maximumBytes: limit)) : .file(try file.current(maximumBytes: limit))
                } catch {
                    throw Unservable(
                        reason: error.isMissing ? .bodyFileMissing : .bodyFileInvalid,
                        message: "the body file of stub \"\(matched.stub.name)\" (\(matched.stub.source)) \(error.isMissing ? "is gone: " : "")\(error.message)"
                    )
                }
            }
        } catch {
            let document = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: error.message)
            let reply = StubReply(kind: .unservable(error), matched: matched, status: 500, headers: StubReply.problemHeaders, body: document, method: method)
            record(reply, request: pending.request, at: pending.location, shard: pending.options.journalShard)
            return reply
        }
        let reply = StubReply(kind: .stubbed, matched: matched, response: pending.response, body: body, method: method, location: pending.location)
        record(reply, request: pending.request, at: pending.location, shard: pending.options.journalShard)
        return reply
    }

    /// The one place a reply is journaled.
    private func record(_ reply: StubReply, request: consuming StubRequest, at location: JournalEntry.Location, shard: Int) {
        journal.record(JournalEntry(request: request, location: location, outcome: reply.outcome), shard: shard)
    }

    /// What matching and the sequence give, before any body is produced.
    private enum Lookup {
        case stubbed(MatchedStub, StubResponse)
        case exhausted(MatchedStub)
        case unmatched(NearMissReport)
        /// A code stub threw instead of answering.
        case threw(MatchedStub, any Error)
    }

    private func lookup(_ request: borrowing StubRequest, in stubs: StubSet, scenarios: ScenarioSelection) -> Lookup {
        let codeStubs = codeStubCount.load(ordering: .acquiring) == 0 ? [] : state.withLock { $0.codeStubs }
        var codeMisses: [NearMiss] = []
        for codeStub in codeStubs {
            switch codeStub.answer(copy request, scenarios: scenarios) {
            case .answers(let matched, .success(let response)):
                return .stubbed(matched, response)
            case .answers(let matched, .failure(let error)):
                return .threw(matched, error)
            case .misses(let miss):
                codeMisses.append(miss)
            }
        }
        var match = stubs.match(request, scenarios: scenarios)
        // `if case`, not `match.matched == nil`: that comparison copies the whole matched stub.
        if case .unmatched = match, request.method == "HEAD" {
            var get = copy request
            get.method = "GET"
            if case .matched(let found) = stubs.match(get, scenarios: scenarios) { match = .matched(found) }
        }
        switch match {
        case .unmatched(var report):
            if !codeMisses.isEmpty {
                // The nearest of both kinds, ranked as the set ranks its own; code stubs first among equals.
                report.nearMisses = StubSet.nearestFirst(codeMisses + report.nearMisses, for: request)
            }
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

    /// Whether a stub answers `request`, without advancing a sequence or journaling (a crawl asks
    /// this about unsafe methods it will not send).
    public func peek(_ request: StubRequest) -> StubMatch {
        let (stubs, scenarios) = state.withLock { ($0.stubs, $0.scenarios) }
        return stubs.match(request, scenarios: scenarios)
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

/// How unmatched requests are answered.
public enum UnmatchedPolicy: Sendable, Hashable {
    /// With the near-miss report (404 over HTTP, a `URLError` in-process).
    case answer
    /// By somebody else: the reply is ``StubReply/Kind/passthrough`` and journaled as such.
    case passThrough
}

/// How a ``StubResponder`` produces a reply, per transport.
public struct ReplyOptions: Sendable {
    /// What an unmatched request gets.
    public var unmatched: UnmatchedPolicy
    /// Read body files into the reply's bytes (in-process), instead of checking them for a
    /// transport that streams them (a server's `sendfile`, a crawl reading a bounded prefix).
    public var readsBodyFiles: Bool
    /// The largest body a stub may answer with (a body file, a rendered template); larger ones
    /// are unservable. 256 MiB by default.
    public var maximumBodyBytes: Int
    /// The journal shard to record in (a server's event loop index).
    public var journalShard: Int

    public init(unmatched: UnmatchedPolicy = .answer, readsBodyFiles: Bool = true, maximumBodyBytes: Int = 256 << 20, journalShard: Int = 0) {
        self.unmatched = unmatched
        self.readsBodyFiles = readsBodyFiles
        self.maximumBodyBytes = maximumBodyBytes
        self.journalShard = journalShard
    }
}

/// What ``StubResponder/decide(_:at:matchingIn:scenarios:options:)`` gives.
package enum StubDecision: Sendable {
    /// Complete and journaled.
    case ready(StubReply)
    /// A file or a template must be produced first, off the event loop: ``StubResponder/complete(_:)``.
    case pending(PendingReply)
}

/// A matched stub whose body still has to be produced.
public struct PendingReply: Sendable {
    let request: StubRequest
    let location: JournalEntry.Location
    public let matched: MatchedStub
    public let response: StubResponse
    let options: ReplyOptions
}
