import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation
import Logging

/// Sends a ``ProbePlan``, one request at a time (a bug behind a form often needs the state an
/// earlier request left: a duplicate, a second create), judges each answer with the `probe-*`
/// oracles, shrinks what fails, and deletes what it created where the API advertises `DELETE`,
/// also when interrupted.
public struct ProbeRunner: Sendable {
    public let fetcher: any CrawlFetcher
    public let options: ProbeOptions
    let logger: Logger

    public init(fetcher: any CrawlFetcher, options: ProbeOptions, logger: Logger = Logger(label: "apicheck.probe", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.fetcher = fetcher
        self.options = options
        self.logger = logger
    }

    public struct Progress: Sendable {
        public var sent: Int
        public var planned: Int
        public var findings: Int
    }

    /// What a probe found and did.
    public struct Outcome: Sendable {
        public var findings: [Finding]
        public var summary: ProbeSummary
    }

    public func run(_ plan: ProbePlan, collector: AffordanceCollector, progress: (@Sendable (Progress) -> Void)? = nil) async -> Outcome {
        let session = ProbeSession(plan: plan, collector: collector)
        // Changes probes made to resources that existed before, to undo at the end.
        var restored: [(affordance: Affordance, original: JSONValue?)] = []
        entries: for planned in plan.entries {
            let entry = onOwnResource(planned, session)
            if entry.affordance.target == planned.affordance.target, ["PUT", "PATCH"].contains(entry.affordance.method), entry.affordance.kind == .write {
                // The API's own resource: what it holds now is what is put back after.
                restored.append((entry.affordance, await snapshot(entry.affordance, session)))
            }
            for request in await requests(of: entry, session) {
                guard !isInterrupted else { break entries }
                guard session.sent < options.maximumRequests else {
                    session.notSent += 1
                    continue
                }
                if entry.affordance.kind == .templatedRead {
                    await probeRead(request, of: entry.affordance, session)
                } else {
                    await probeWithBody(request, of: entry.affordance, session)
                }
                progress?(Progress(sent: session.sent, planned: plan.requestCount, findings: session.findings.count))
            }
        }
        session.interrupted = isInterrupted
        for (affordance, original) in restored { await restore(affordance, to: original, session) }
        await cleanUp(session)
        return Outcome(findings: options.rules.apply(to: session.findings + limitFindings(session)), summary: session.summary)
    }

    var isInterrupted: Bool { options.interruption?.signalNumber != nil }

    /// A `PUT` or `PATCH` form probed on a resource the probe created of the same kind, when there
    /// is one, instead of on the API's own data; the entry unchanged otherwise.
    private func onOwnResource(_ entry: ProbePlan.Entry, _ session: ProbeSession) -> ProbePlan.Entry {
        guard ["PUT", "PATCH"].contains(entry.affordance.method), entry.affordance.kind == .write,
            let own = session.created.first(where: { TargetShape.of($0.url) == TargetShape.of(entry.affordance.target) && $0.url != entry.affordance.target })
        else { return entry }
        var moved = entry
        moved.affordance.target = own.url
        moved.requests = entry.requests.map { request in
            var request = request
            request.url = own.url
            return request
        }
        return moved
    }

    /// The resource a `PUT` or `PATCH` form changes, as it is before any probe: its JSON members
    /// that the form's body has (all of them when the form names none); `nil` when it cannot be
    /// read. One GET.
    private func snapshot(_ affordance: Affordance, _ session: ProbeSession) async -> JSONValue? {
        guard case .response(let answer) = await send("GET", affordance.target, body: nil, session, label: "snapshot before probing"),
            (200..<300).contains(answer.status), !answer.isTruncated,
            case .object(let members)? = try? JSONParser(maximumDepth: 64).parseValue([UInt8](answer.body))
        else { return nil }
        guard case .object(let properties)? = affordance.bodySchema?["properties"] else { return .object(members) }
        let names = Set(properties.map(\.key))
        let kept = members.filter { names.contains($0.key) }
        return kept.isEmpty ? nil : .object(kept)
    }

    /// Puts back what the resource held before a `PUT` or `PATCH` probe changed it (its own
    /// members, read before probing); when it could not be read, or the API refuses it back, the
    /// resource is listed as changed. Never a document's example or a form's partial values.
    private func restore(_ affordance: Affordance, to original: JSONValue?, _ session: ProbeSession) async {
        guard session.touched.contains(affordance.target) else { return }
        if let original {
            let body = ProbeBody(ProbeCase(label: "restore", body: original), for: affordance)
            if case .response(let answer) = await send(affordance.method, affordance.target, body: body, session), (200..<300).contains(answer.status) {
                session.restored += 1
                return
            }
        }
        session.changed.append(affordance.target)
    }

    /// The entry's requests, as sent: for a form, its valid cases first, then edge cases drawn
    /// again from the first valid body the server accepted (a base it refuses would make every
    /// edge case a 4xx for the wrong reason); the plan's own when none was accepted.
    private func requests(of entry: ProbePlan.Entry, _ session: ProbeSession) async -> [PlannedRequest] {
        let affordance = entry.affordance
        guard affordance.kind != .templatedRead else { return entry.requests }
        let valid = entry.requests.filter { $0.probeCase?.label.hasPrefix("valid") == true }
        var accepted: JSONValue?
        for request in valid {
            guard !isInterrupted else { return [] }
            guard session.sent < options.maximumRequests else {
                session.notSent += 1
                continue
            }
            if let body = await probeWithBody(request, of: affordance, session), accepted == nil { accepted = body }
        }
        let edges = entry.requests.filter { !valid.contains($0) }
        guard let accepted, let generator = ProbePlanner.generator(for: affordance, seed: options.seed) else { return edges }
        return ProbePlanner.edgeCases(for: affordance, generator, limit: edges.count, from: accepted).map { PlannedRequest(affordance, $0) }
    }

    // MARK: Reads

    private func probeRead(_ request: PlannedRequest, of affordance: Affordance, _ session: ProbeSession) async {
        let exchange = await send("GET", request.url, body: nil, session, label: request.label)
        guard case .serverError(let actual) = Verdict.ofAnswer(exchange), session.firstFailure(.probeServerError, affordance, request.field) else { return }
        session.findings.append(finding(
            .probeServerError, affordance, url: request.url, expected: "a 4xx (or 2xx), never a 5xx", actual: actual,
            message: "\(affordance.name) answered \(actual) to \(request.label)",
            probe: ProbeRequest(label: request.label, field: request.field)))
    }

    // MARK: Writes and query forms

    /// Sends one case and judges the answer; returns the body when the server accepted it (2xx).
    @discardableResult
    private func probeWithBody(_ request: PlannedRequest, of affordance: Affordance, _ session: ProbeSession) async -> JSONValue? {
        guard let probeCase = request.probeCase else { return nil }
        let sent = await sendCase(probeCase, request, affordance, session)
        let verdict = Verdict.ofAnswer(sent.exchange)
        switch verdict {
        case .serverError(let actual):
            guard session.firstFailure(.probeServerError, affordance, probeCase.field) else { return nil }
            await report(.probeServerError, probeCase, request, affordance, actual: actual, session) { exchange in
                if case .serverError = Verdict.ofAnswer(exchange) { true } else { false }
            }
        case .success(let response):
            await judgeSuccess(response, sent: sent, probeCase, request, affordance, session)
            return probeCase.body
        case .rejected, .notSent:
            break
        }
        return nil
    }

    private func judgeSuccess(
        _ response: FetchedResponse, sent: SentCase, _ probeCase: ProbeCase, _ request: PlannedRequest, _ affordance: Affordance,
        _ session: ProbeSession
    ) async {
        if let broken = probeCase.breaks, broken != "Content-Type", !Self.isOptionalNull(probeCase, affordance),
            session.firstFailure(.probeAcceptsInvalid, affordance, probeCase.field)
        {
            let validator = affordance.bodySchema.flatMap { try? JSONSchema($0) }
            await report(.probeAcceptsInvalid, probeCase, request, affordance, actual: "\(response.status)", session) { exchange in
                guard case .success = Verdict.ofAnswer(exchange) else { return false }
                return true
            } keeps: { candidate in
                validator.map { !$0.isValid(candidate) } ?? true
            }
        }
        if let problem = typeProblem(response, declared: affordance.responseType), session.firstFailure(.probeResponseType, affordance, nil) {
            session.findings.append(finding(
                .probeResponseType, affordance, url: request.url, expected: problem.expected, actual: problem.actual,
                message: "\(affordance.name) answered \(response.status) \(problem.message)",
                probe: ProbeRequest(label: probeCase.label, field: probeCase.field, contentType: sent.body.contentType, body: sent.body.text)))
        }
        if let violation = documentedTypeViolation(response, sent: sent, affordance), session.firstFailure(.probeResponseType, affordance, nil) {
            session.findings.append(finding(
                .probeResponseType, affordance, url: request.url, expected: violation.expected ?? "the documented response", actual: violation.actual ?? "",
                message: "\(affordance.name) answered \(response.status), which breaks the document: \(violation.message)",
                probe: ProbeRequest(label: probeCase.label, field: probeCase.field, contentType: sent.body.contentType, body: sent.body.text)))
        }
        if response.status == 201, affordance.kind == .write { await checkCreated(response, requestURL: request.url, affordance, probeCase, sent.body, session) }
        if affordance.method == "POST", probeCase.isValid, session.replayed.insert(affordance.target + affordance.rel).inserted {
            await replay(sent, probeCase, request, affordance, session)
        }
    }

    /// The first way an accepted answer breaks the document's type or body for it (`--openapi`).
    private func documentedTypeViolation(_ response: FetchedResponse, sent: SentCase, _ affordance: Affordance) -> ContractViolation? {
        guard let contract = options.contract, let url = URL(string: sent.url) else { return nil }
        let answer = ContractAnswer(
            method: affordance.kind == .queryForm ? "GET" : affordance.method, url: url, status: response.status, headers: response.headers,
            body: response.isTruncated ? nil : [UInt8](response.body), requestHeaders: options.headers)
        return contract.violations(of: answer).first { $0.rule == .openAPIContentType || $0.rule == .openAPIBody }
    }

    /// `null` for a field that is not required: forms have no null, and most servers read it as
    /// "not given", which an optional field may be. Not worth a warning.
    static func isOptionalNull(_ probeCase: ProbeCase, _ affordance: Affordance) -> Bool {
        guard let field = probeCase.field, probeCase.body?[field] == .null else { return false }
        guard case .array(let required)? = affordance.bodySchema?["required"] else { return true }
        return !required.contains(.string(field))
    }

    /// A client that retries sends the same create twice: the second must be answered (2xx, 409,
    /// any 4xx), not crash on a uniqueness constraint.
    private func replay(_ sent: SentCase, _ probeCase: ProbeCase, _ request: PlannedRequest, _ affordance: Affordance, _ session: ProbeSession) async {
        guard session.sent < options.maximumRequests else { return }
        var again = probeCase
        again.label = "\(probeCase.label), sent twice (a client's retry)"
        let second = await sendCase(again, request, affordance, session)
        switch Verdict.ofAnswer(second.exchange) {
        case .serverError(let actual) where session.firstFailure(.probeServerError, affordance, nil):
            // The failure needs the first request: the reproduction is the body, sent twice. A
            // valid case that fails the same way later is this defect again.
            let replayCase = again
            session.findings.append(finding(
                .probeServerError, affordance, url: request.url, expected: "2xx, 409 or another 4xx, never a 5xx", actual: actual,
                message: "\(affordance.name) answered \(actual) to the same valid body sent twice (a duplicate: an unhandled uniqueness constraint?)",
                probe: ProbeRequest(label: replayCase.label, field: replayCase.field, contentType: second.body.contentType, body: second.body.text, sends: 2)))
        case .success(let response) where response.status == 201:
            await checkCreated(response, requestURL: request.url, affordance, again, second.body, session)
        default:
            break
        }
    }

    // MARK: Sending

    struct SentCase {
        var body: ProbeBody
        var url: String
        var exchange: Exchange
    }

    /// The case as the affordance sends it: a body for writes, a query for `GET` forms.
    func sendCase(_ probeCase: ProbeCase, _ request: PlannedRequest, _ affordance: Affordance, _ session: ProbeSession) async -> SentCase {
        let body = ProbeBody(probeCase, for: affordance)
        if affordance.method == "GET" {
            let url = QueryForm.url(request.url, with: probeCase.body)
            return SentCase(body: body, url: url, exchange: await send("GET", url, body: nil, session, label: probeCase.label))
        }
        let exchange = await send(affordance.method, request.url, body: body, session, label: probeCase.label)
        // Only writes create (and get deleted again): a search that answers 201 is never cleaned up.
        if case .response(let response) = exchange, response.status == 201, affordance.kind == .write {
            session.noteCreated(response, requestURL: request.url)
        }
        if case .response(let response) = exchange, (200..<300).contains(response.status), ["PUT", "PATCH"].contains(affordance.method) {
            session.touched.insert(request.url)
        }
        return SentCase(body: body, url: request.url, exchange: exchange)
    }

    enum Exchange {
        case response(FetchedResponse)
        case failed(FetchError)
        case notSent
    }

    func send(_ method: String, _ url: String, body: ProbeBody?, _ session: ProbeSession, label: String = "") async -> Exchange {
        guard let target = URL(string: url), ProbePlanner.origin(of: url) == ProbePlanner.origin(of: options.root.absoluteString) else { return .notSent }
        var headers = options.headers
        if let contentType = body?.contentType { headers.append(HTTPHeader(name: "Content-Type", value: contentType)) }
        session.sent += 1
        do {
            let response = try await fetcher.fetch(
                FetchRequest(method: method, url: target, headers: headers, body: body?.data ?? Data()), maximumBodyBytes: options.maximumBodyBytes,
                timeout: options.timeout)
            logger.debug("probe", metadata: [
                "method": "\(method)", "url": "\(options.redaction.url(url))", "status": "\(response.status)", "case": "\(label)",
                "body": "\(body?.text.map(options.redaction.text).map { String($0.prefix(200)) } ?? "")",
            ])
            return .response(response)
        } catch {
            logger.debug("probe failed", metadata: ["method": "\(method)", "url": "\(options.redaction.url(url))", "error": "\(error)"])
            return .failed(error)
        }
    }
}
