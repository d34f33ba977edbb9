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
        var served: ServedStubs
        var scenarios: ScenarioSelection
        var sequenceCalls: [String: Int] = [:]
        /// Newest first (see ``CodeStub``).
        var codeStubs: [CodeStub] = []
        /// Stubs added over the served set at run time, checked before it (``addOverlay(_:)``).
        var overlay: ServedStubs?
    }

    public let journal: StubJournal
    public let templates: TemplateRenderer
    /// Asked before matching; when it answers, its stub's response is the reply (``RequestGate``).
    public let gate: (any RequestGate)?
    private let state: Mutex<State>
    /// Changes with every change of the scenario selection (under the state's lock).
    private let scenarioGeneration = Atomic<Int>(0)
    /// Changes with every set installed (under the state's lock).
    private let servedGeneration = Atomic<Int>(0)
    /// How many code stubs there are: a lookup takes the lock for them only when there are any
    /// (the server, which never has any, must not contend on this lock per request).
    private let codeStubCount = Atomic<Int>(0)
    /// How many stubs the overlay holds: likewise, its lock is taken only when there are any.
    private let overlayCount = Atomic<Int>(0)

    /// `serving` says what the heads computed once per stub depend on (a server's origin,
    /// rewritten origins, its name); in-process the defaults fit.
    public init(
        stubs: StubSet, scenarios: ScenarioSelection = [:], templates: TemplateRenderer = TemplateRenderer(),
        journal: StubJournal = StubJournal(), serving: ServingOptions = ServingOptions(), gate: (any RequestGate)? = nil
    ) {
        self.templates = templates
        self.journal = journal
        self.gate = gate
        self.state = Mutex(State(served: ServedStubs(stubs, options: serving), scenarios: scenarios))
    }

    // MARK: State

    /// The stubs being served.
    public var stubs: StubSet { served.stubs }

    /// The stubs being served with their heads.
    public var served: ServedStubs { state.withLock { $0.served } }

    /// Serves `stubs` from now on and restarts every sequence; requests already being answered
    /// finish with the set they started with.
    public func replaceStubs(_ stubs: StubSet) {
        install(ServedStubs(stubs, options: served.options))
    }

    /// Serves `served` from now on (made off any lock: heads of a large set take a moment) and
    /// restarts every sequence.
    public func install(_ served: ServedStubs) {
        state.withLock {
            $0.served = served
            $0.sequenceCalls = [:]
            servedGeneration.add(1, ordering: .releasing)
        }
    }

    /// A number that changes whenever another set is installed.
    package var currentServedGeneration: Int { servedGeneration.load(ordering: .acquiring) }

    /// The served set and its generation, read together.
    package var servedSnapshot: (generation: Int, served: ServedStubs) {
        state.withLock { (servedGeneration.load(ordering: .relaxed), $0.served) }
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

    /// Adds `stubs` over the served set (what an admin API adds at run time): a small set of its
    /// own, checked before the served one and among itself in the usual order, so the large set is
    /// neither copied nor rebuilt. Installing another set keeps the overlay.
    package func addOverlay(_ stubs: [Stub]) {
        state.withLock { state in
            let all = (state.overlay?.stubs.stubs ?? []) + stubs
            state.overlay = ServedStubs(StubSet(all), options: state.served.options)
            overlayCount.store(all.count, ordering: .releasing)
        }
    }

    /// Makes `stubs` the whole overlay (none: no overlay); the admin API's edits, kept in order
    /// by its caller.
    package func replaceOverlay(_ stubs: [Stub]) {
        state.withLock { state in
            state.overlay = stubs.isEmpty ? nil : ServedStubs(StubSet(stubs), options: state.served.options)
            overlayCount.store(stubs.count, ordering: .releasing)
        }
    }

    /// Removes every stub added over the served set.
    package func removeOverlay() {
        state.withLock {
            $0.overlay = nil
            overlayCount.store(0, ordering: .releasing)
        }
    }

    /// The stubs added over the served set, in the order added.
    package var overlayStubs: [Stub] { state.withLock { $0.overlay?.stubs.stubs ?? [] } }

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
        let (served, selection) = state.withLock { ($0.served, $0.scenarios) }
        let view = served.stubs.scenarioView(of: selection)
        switch decide(request, at: location, in: served, scenarios: view, selection: selection, options: options) {
        case .ready(let reply): return reply
        case .pending(let pending): return complete(pending)
        case .served(let slot): return reply(slot, in: served, method: request.method, location: location)
        }
    }

    /// The first half of ``reply(to:at:options:)``, cheap enough for an event loop: matches
    /// against `served` (the set being served, or the one a request started with while a new one
    /// is installed) with `selection` read earlier through ``scenarioSnapshot`` and still current
    /// (`scenarios` is it resolved against `served`), and advances the sequence.
    ///
    /// With `names` (a transport that delivers from `served` itself, on one thread: a server's
    /// event loop), a stub's response whose body is static comes back as its slot, journaled with
    /// `names`' copies of the stub's id and name, and nothing shared by every thread is retained.
    /// Otherwise a reply that needs no file or template is ready (and journaled); ``complete(_:)``
    /// finishes the others, off the loop.
    package func decide(
        _ request: consuming StubRequest, at location: JournalEntry.Location, in served: ServedStubs, scenarios: ScenarioView,
        selection: ScenarioSelection, options: ReplyOptions, names: StubNameCache? = nil
    ) -> StubDecision {
        let method = request.method
        if let gate, let stub = gate.answer(for: request) {
            // The gate's own answer (a refused request): made now, as a code stub's is.
            let response = stub.response
            let head = ReplyHead.make(for: response, origin: location.origin, rewriters: [], serverName: served.options.serverName)!.head
            return finish(
                matched: MatchedStub(stub: stub), response: response, head: head, body: response.body, request: request, location: location,
                served: served, options: options)
        }
        switch lookup(request, in: served, scenarios: scenarios, selection: selection) {
        case .unmatched(let report):
            let reply =
                options.unmatched == .passThrough
                ? StubReply(kind: .passthrough, matched: nil, head: Self.passthroughHead, body: Data(), method: method)
                : StubReply(
                    kind: .unmatched(report), matched: nil, head: served.problemHead(404), body: StubReply.unmatchedDocument(report), method: method)
            record(reply.outcome, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .exhausted(let matched):
            let message = StubReply.exhaustedMessage(matched)
            let document = StubReply.problemDocument(
                status: 404, title: "Stub sequence exhausted", detail: message,
                extra: [JSONMember("stub", .string(matched.stub.name)), JSONMember("source", .string(matched.stub.source.description))]
            )
            let reply = StubReply(kind: .exhausted, matched: matched, head: served.problemHead(404), body: document, method: method)
            record(reply.outcome, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .threw(let matched, let error):
            let reply = unservable(
                Unservable(reason: .threw, message: "stub \"\(matched.stub.name)\" (\(matched.stub.source)) threw: \(error)", thrown: error),
                matched: matched, served: served, method: method)
            record(reply.outcome, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        case .code(let matched, let response):
            // A stub written in code: its head is made now (code stubs are not part of a served set).
            let head = ReplyHead.make(for: response, origin: location.origin, rewriters: [], serverName: served.options.serverName)!.head
            return finish(matched: matched, response: response, head: head, body: response.body, request: request, location: location, served: served, options: options)
        case .slot(let chosen, let slot, let set):
            let traits = set.traits(ofSlot: slot)
            // Only the caller's own set's slots can be delivered from it (not the overlay's).
            if let names, set === served, !traits.contains(.producedBody), let head = set.unownedHead(ofSlot: slot) {
                let (id, name) = names.names(of: chosen.index, in: set)
                let status = head._withUnsafeGuaranteedRef { $0.status }
                let failure = traits.contains(.failure) ? set.response(ofSlot: slot, stub: chosen.index).failure : nil
                record(.stubbed(stubID: id, stubName: name, status: status, failure: failure), request: request, at: location, shard: options.journalShard)
                return .served(ServedSlot(index: chosen.index, slot: slot))
            }
            let response = set.response(ofSlot: slot, stub: chosen.index)
            let body: StubBody = traits.contains(.producedBody) ? response.body : .bytes(set.body(ofSlot: slot))
            return finish(
                matched: set.stubs.matched(chosen, for: request), response: response,
                head: set.head(ofSlot: slot, stub: chosen.index, origin: location.origin), body: body, request: request, location: location,
                served: set, options: options)
        }
    }

    /// A stub's own response: a failure, a static body (journaled, ready) or a body to produce.
    private func finish(
        matched: MatchedStub, response: StubResponse, head: ReplyHead, body: StubBody, request: consuming StubRequest,
        location: JournalEntry.Location, served: ServedStubs, options: ReplyOptions
    ) -> StubDecision {
        let method = request.method
        if let failure = response.failure {
            let reply = StubReply(kind: .failure(failure), matched: matched, response: response, head: head, body: .bytes(Data()), method: method)
            record(reply.outcome, request: request, at: location, shard: options.journalShard)
            return .ready(reply)
        }
        guard case .bytes(let data) = body else {
            return .pending(
                PendingReply(
                    request: request, location: location, matched: matched, response: response, head: head, options: options,
                    rewriters: served.options.rewriters, maximumRewrittenFileBytes: served.options.maximumRewrittenFileBytes, problemHead: served.problemHead(500)))
        }
        let reply = StubReply(kind: .stubbed, matched: matched, response: response, head: head, body: .bytes(data), method: method)
        record(reply.outcome, request: request, at: location, shard: options.journalShard)
        return .ready(reply)
    }

    /// The reply a transport that asked for slots did not want: the same head and body as a value.
    private func reply(_ served: ServedSlot, in set: ServedStubs, method: String, location: JournalEntry.Location) -> StubReply {
        let response = set.response(ofSlot: served.slot, stub: served.index)
        let head = set.head(ofSlot: served.slot, stub: served.index, origin: location.origin)
        let matched = MatchedStub(stub: set.stubs.stubs[served.index])
        if let failure = response.failure {
            return StubReply(kind: .failure(failure), matched: matched, response: response, head: head, body: .bytes(Data()), method: method)
        }
        return StubReply(kind: .stubbed, matched: matched, response: response, head: head, body: .bytes(set.body(ofSlot: served.slot)), method: method)
    }

    private func unservable(_ problem: Unservable, matched: MatchedStub, served: ServedStubs, method: String) -> StubReply {
        let document = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: problem.message)
        return StubReply(kind: .unservable(problem), matched: matched, head: served.problemHead(500), body: document, method: method)
    }

    /// The head of a request passed elsewhere: nothing of it is delivered.
    private static let passthroughHead = ReplyHead(status: 0, headers: [])

    /// The second half of ``reply(to:at:options:)``: renders the template or checks (or reads)
    /// the body file, rewrites origins in a text body when the set rewrites them, and journals the
    /// reply. Blocks on files: call it off event loops.
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
                body = .bytes(pending.head.rewritesBody(pending.rewriters, isUTF8: true) ? Self.rewrite(rendered, pending.rewriters) : rendered)
            case .file(let file):
                // Checked (or read) when answering: the file may have changed or gone since loading.
                do {
                    if pending.head.rewritesBody(pending.rewriters, isUTF8: false) {
                        body = .bytes(Self.rewrite(try file.contents(maximumBytes: min(limit, pending.maximumRewrittenFileBytes)), pending.rewriters))
                    } else {
                        body = pending.options.readsBodyFiles ? .bytes(try file.contents(maximumBytes: limit)) : .file(try file.current(maximumBytes: limit))
                    }
                } catch {
                    throw Unservable(
                        reason: error.isMissing ? .bodyFileMissing : .bodyFileInvalid,
                        message: "the body file of stub \"\(matched.stub.name)\" (\(matched.stub.source)) \(error.isMissing ? "is gone: " : "")\(error.message)"
                    )
                }
            }
        } catch {
            let document = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: error.message)
            let reply = StubReply(kind: .unservable(error), matched: matched, head: pending.problemHead, body: document, method: method)
            record(reply.outcome, request: pending.request, at: pending.location, shard: pending.options.journalShard)
            return reply
        }
        let reply = StubReply(kind: .stubbed, matched: matched, response: pending.response, head: pending.head, body: body, method: method)
        record(reply.outcome, request: pending.request, at: pending.location, shard: pending.options.journalShard)
        return reply
    }

    private static func rewrite(_ data: Data, _ rewriters: [OriginRewriter]) -> Data {
        var bytes = [UInt8](data)
        for rewriter in rewriters { bytes = rewriter.rewrite(bytes) ?? bytes }
        return Data(bytes)
    }

    /// The one place a reply is journaled.
    private func record(_ outcome: JournalEntry.Outcome, request: consuming StubRequest, at location: JournalEntry.Location, shard: Int) {
        journal.record(JournalEntry(request: request, location: location, outcome: outcome), shard: shard)
    }

    /// What matching and the sequence give, before any body is produced.
    private enum Lookup {
        /// A stub of `set` (the served set, or the overlay) answers with this slot.
        case slot(ChosenStub, Int, set: ServedStubs)
        /// A stub written in code answers.
        case code(MatchedStub, StubResponse)
        case exhausted(MatchedStub)
        case unmatched(NearMissReport)
        /// A code stub threw instead of answering.
        case threw(MatchedStub, any Error)
    }

    private func lookup(_ request: borrowing StubRequest, in served: ServedStubs, scenarios: ScenarioView, selection: ScenarioSelection) -> Lookup {
        let codeStubs = codeStubCount.load(ordering: .acquiring) == 0 ? [] : state.withLock { $0.codeStubs }
        var codeMisses: [NearMiss] = []
        for codeStub in codeStubs {
            switch codeStub.answer(copy request, scenarios: selection) {
            case .answers(let matched, .success(let response)):
                return .code(matched, response)
            case .answers(let matched, .failure(let error)):
                return .threw(matched, error)
            case .misses(let miss):
                codeMisses.append(miss)
            }
        }
        if overlayCount.load(ordering: .acquiring) > 0, let overlay = state.withLock({ $0.overlay }),
            let chosen = choose(request, in: overlay, scenarios: overlay.stubs.scenarioView(of: selection))
        {
            return answer(chosen, in: overlay, request: request)
        }
        guard let chosen = choose(request, in: served, scenarios: scenarios) else {
            // The slow path: the near-miss report, matching once more to explain.
            guard case .unmatched(var report) = served.stubs.match(copy request, scenarios: selection) else { return .unmatched(NearMissReport(request: copy request, nearMisses: [])) }
            if !codeMisses.isEmpty {
                // The nearest of both kinds, ranked as the set ranks its own; code stubs first among equals.
                report.nearMisses = StubSet.nearestFirst(codeMisses + report.nearMisses, for: request)
            }
            return .unmatched(report)
        }
        return answer(chosen, in: served, request: request)
    }

    /// The stub of `set` that answers `request`; `HEAD` falls back to the `GET` stub.
    private func choose(_ request: borrowing StubRequest, in set: ServedStubs, scenarios: ScenarioView) -> ChosenStub? {
        if let chosen = set.stubs.choose(request, scenarios: scenarios) { return chosen }
        guard request.method == "HEAD" else { return nil }
        var get = copy request
        get.method = "GET"
        return set.stubs.choose(get, scenarios: scenarios)
    }

    /// The slot `chosen` answers with: its response, or the next of its sequence.
    private func answer(_ chosen: ChosenStub, in set: ServedStubs, request: borrowing StubRequest) -> Lookup {
        guard set.hasSequence(chosen.index) else { return .slot(chosen, set.slot(of: chosen.index, call: 0)!, set: set) }
        let id = set.stubs.stubs[chosen.index].id
        let call = state.withLock { state in
            defer { state.sequenceCalls[id, default: 0] += 1 }
            return state.sequenceCalls[id, default: 0]
        }
        guard let slot = set.slot(of: chosen.index, call: call) else { return .exhausted(set.stubs.matched(chosen, for: request)) }
        return .slot(chosen, slot, set: set)
    }

    /// Whether a stub answers `request`, without advancing a sequence or journaling (a crawl asks
    /// this about unsafe methods it will not send).
    public func peek(_ request: StubRequest) -> StubMatch {
        let (served, scenarios) = state.withLock { ($0.served, $0.scenarios) }
        return served.stubs.match(request, scenarios: scenarios)
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
