import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckResponder
import Foundation
import Logging

/// What `apicheck verify` needs besides the stubs and a live fetcher.
public struct VerifyOptions: Sendable {
    /// The live API's origin (`https://api.example.com`): requests go there, and stub templates
    /// render with it as `baseURL`, so recorded hrefs compare equal to live ones.
    public var origin: String
    /// Sent with every live request (credentials), redacted from the report.
    public var headers: [HTTPHeader]
    /// Values for templated stub paths (`/orders/{id}` needs `id`).
    public var variables: [String: String]
    /// Unsafe methods (other than GET, HEAD, OPTIONS and TRACE) are sent only when set.
    public var unsafe: Bool
    public var drift: DriftOptions
    public var concurrency: Int
    public var timeout: Duration
    public var maximumBodyBytes: Int
    public var rules: RuleConfiguration
    public var redaction: Redaction
    /// Live bodies of these types are checked against their schemas too (`body-schema`).
    public var profiles = MediaTypeProfiles()

    public init(
        origin: String, headers: [HTTPHeader] = [], variables: [String: String] = [:], unsafe: Bool = false, drift: DriftOptions = DriftOptions(),
        concurrency: Int = 8, timeout: Duration = .seconds(30), maximumBodyBytes: Int = 8 << 20, rules: RuleConfiguration = RuleConfiguration(),
        redaction: Redaction = Redaction()
    ) {
        self.origin = origin
        self.headers = headers
        self.variables = variables
        self.unsafe = unsafe
        self.drift = drift
        self.concurrency = concurrency
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
        self.rules = rules
        self.redaction = redaction
    }
}

/// Provider verification of a stub set: each stub's request is sent to the live API and the
/// answer compared with the stub's (``DriftComparison``); differences are findings of the
/// `drift-*` rules in a ``CrawlReport``, so every report format, baseline and exit code of
/// `crawl` applies.
///
/// The stub's side is answered by the same ``StubResponder`` as every transport, with the live
/// origin as `baseURL`. Stubs whose request cannot be made concrete (a glob path, a template
/// without `--var` values, an unsafe method without `--unsafe` (OPTIONS is safe, and sent), a failure stub) are listed as
/// not checked or skipped, with the reason.
public struct StubVerifier: Sendable {
    /// One stub's outcome, for `--update`.
    public struct Verified: Sendable {
        public var stub: Stub
        public var request: FetchRequest
        public var live: FetchedResponse?
        public var drifts: [Drift]
    }

    let stubs: StubSet
    let live: any CrawlFetcher
    let options: VerifyOptions
    let logger: Logger

    public init(stubs: StubSet, live: any CrawlFetcher, options: VerifyOptions, logger: Logger = Logger(label: "apicheck.verify")) {
        self.stubs = stubs
        self.live = live
        self.options = options
        self.logger = logger
    }

    /// Verifies every stub; with `coverage` (a crawl of the live API, for `--coverage`), also
    /// reports the kinds of resource it reached that no stub answers (``StubCoverage``).
    public func run(tool: ToolInfo, coverage: CrawlReport? = nil) async -> (report: CrawlReport, verified: [Verified]) {
        let start = Date()
        let clock = ContinuousClock.now
        var checks: [CheckedLink] = []
        var findings: [Finding] = []
        var errors: [CrawlProblem] = []
        var verified: [Verified] = []
        var pending: [(Stub, FetchRequest)] = []
        var failures: [String: Int] = [:]
        for stub in stubs.stubs {
            switch request(for: stub) {
            case .request(let request):
                // The stub side of the comparison is what the set answers: when another stub answers
                // this request first, comparing would report drift against the wrong file.
                let probe = StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
                if case .matched(let answering) = stubs.match(probe), answering.stub.id != stub.id {
                    checks.append(CheckedLink(
                        method: request.method, url: options.redaction.url(request.url.absoluteString), rel: stub.name, referrer: stub.source.description,
                        outcome: .notChecked(reason: "another stub answers this request first: \(answering.stub.name) (\(answering.stub.source))")))
                    continue
                }
                pending.append((stub, request))
            case .unverifiable(let reason):
                checks.append(CheckedLink(
                    method: stub.request.method ?? "GET", url: options.redaction.url(options.origin + stub.request.path.text), rel: stub.name,
                    referrer: stub.source.description, outcome: reason))
            }
        }
        let expectedFetcher = StubSetFetcher(stubs: stubs, keepsJournal: false)
        var requests = 0
        await withTaskGroup(of: (Stub, FetchRequest, Result<FetchedResponse, FetchError>, FetchedResponse?).self) { group in
            var iterator = pending.makeIterator()
            func startNext() -> Bool {
                guard let (stub, request) = iterator.next() else { return false }
                let live = self.live
                let options = self.options
                group.addTask {
                    let expected = try? await expectedFetcher.fetch(request, maximumBodyBytes: options.maximumBodyBytes, timeout: options.timeout)
                    var liveRequest = request
                    liveRequest.headers = options.headers + request.headers
                    let answer: Result<FetchedResponse, FetchError>
                    do throws(FetchError) {
                        answer = .success(try await live.fetch(liveRequest, maximumBodyBytes: options.maximumBodyBytes, timeout: options.timeout))
                    } catch {
                        answer = .failure(error)
                    }
                    return (stub, request, answer, expected)
                }
                return true
            }
            for _ in 0..<max(1, options.concurrency) where startNext() {}
            while let (stub, request, answer, expected) = await group.next() {
                requests += 1
                _ = startNext()
                let url = options.redaction.url(request.url.absoluteString)
                switch answer {
                case .failure(let error):
                    let message = "the live API gave no answer: \(options.redaction.text(error.description))"
                    // An API that is down fails every request the same way: one error, counted.
                    failures[message, default: 0] += 1
                    // One error per failure, naming the first URL in order (not the first to fail),
                    // so the report is the same at any --concurrency.
                    if let index = errors.firstIndex(where: { $0.message == message }) {
                        if url < (errors[index].url ?? url) { errors[index].url = url }
                    } else {
                        errors.append(CrawlProblem(message: message, url: url))
                    }
                    checks.append(CheckedLink(method: request.method, url: url, rel: stub.name, referrer: stub.source.description, outcome: .notChecked(reason: message)))
                    verified.append(Verified(stub: stub, request: request, live: nil, drifts: []))
                case .success(let response):
                    // A challenge where the stub answers is missing credentials, not drift: one
                    // infrastructure error says how to pass them (as crawl's root check does).
                    if [401, 403].contains(response.status), options.headers.isEmpty, let expected, ![401, 403].contains(expected.status),
                        let challenge = response.headers.value(named: "WWW-Authenticate")
                    {
                        let reason = "needs credentials: \(response.status) with WWW-Authenticate: \(challenge) (pass --header or --header-from-env)"
                        if let index = errors.firstIndex(where: { $0.message.hasPrefix("the live API needs credentials") }) {
                            if url < (errors[index].url ?? url) { errors[index].url = url }
                        } else {
                            errors.append(CrawlProblem(
                                message: "the live API needs credentials (\(response.status), WWW-Authenticate: \(challenge)): pass them with --header 'Authorization: …' or --header-from-env",
                                url: url))
                        }
                        checks.append(CheckedLink(method: request.method, url: url, rel: stub.name, referrer: stub.source.description, outcome: .notChecked(reason: reason), statusCode: response.status))
                        verified.append(Verified(stub: stub, request: request, live: response, drifts: []))
                        continue
                    }
                    guard let expected else {
                        checks.append(CheckedLink(method: request.method, url: url, rel: stub.name, referrer: stub.source.description, outcome: .notChecked(reason: "the stub cannot be answered")))
                        continue
                    }
                    let drifts = DriftComparison.compare(expected: expected, live: response, url: request.url.absoluteString, method: request.method, options: options.drift)
                    let stubFindings = drifts.map { drift in
                        Finding(
                            rule: drift.rule, severity: drift.severity, method: request.method, url: url, rel: stub.name, sourcePointer: drift.pointer,
                            referrer: stub.source.description, expected: drift.expected.map(options.redaction.text),
                            actual: drift.actual.map(options.redaction.text), message: options.redaction.text(drift.message))
                    }
                    let failing = options.rules.apply(to: stubFindings + bodySchemaFindings(response, request: request, url: url, stub: stub))
                    findings += failing
                    checks.append(CheckedLink(
                        method: request.method, url: url, rel: stub.name, referrer: stub.source.description,
                        outcome: failing.isEmpty ? .passed : .failed, statusCode: response.status))
                    verified.append(Verified(stub: stub, request: request, live: response, drifts: drifts))
                }
            }
        }
        for index in errors.indices {
            if let count = failures[errors[index].message], count > 1 {
                errors[index].message += " (and \(count - 1) more \(count == 2 ? "request" : "requests") the same way; each is listed as not checked)"
            }
        }
        if let coverage {
            findings += options.rules.apply(to: StubCoverage.findings(for: StubCoverage.gaps(of: stubs, in: coverage, origin: options.origin)))
            errors += coverage.errors.map { problem in
                var problem = problem
                problem.message = "the coverage crawl: " + problem.message
                return problem
            }
            requests += coverage.statistics.requests
        }
        var statistics = CrawlStatistics()
        statistics.requests = requests
        statistics.resourcesFetched = verified.filter { $0.live != nil }.count + (coverage?.statistics.resourcesFetched ?? 0)
        var report = CrawlReport(
            tool: tool, root: options.redaction.url(options.origin), startTime: start, duration: ContinuousClock.now - clock,
            configuration: options.rules, statistics: statistics, checks: checks, findings: findings, errors: errors)
        report.command = .verify
        return (report, verified.sorted { $0.stub.source.description < $1.stub.source.description })
    }

    /// `body-schema` for a live answer whose type has a profile, as crawl checks it.
    private func bodySchemaFindings(_ response: FetchedResponse, request: FetchRequest, url: String, stub: Stub) -> [Finding] {
        let contentType = response.headers.value(named: "Content-Type")
        guard (200..<300).contains(response.status), !response.isTruncated, !response.body.isEmpty,
            let profile = options.profiles.profile(served: contentType, declared: nil)
        else { return [] }
        return BodySchemaRule.violations(of: [UInt8](response.body), profile: profile).map { violation in
            let field = violation.instanceLocation.isEmpty ? "the live body" : "the live body at \(violation.instanceLocation)"
            return Finding(
                rule: .bodySchema, method: request.method, url: url, rel: stub.name, servedType: contentType,
                sourcePointer: violation.instanceLocation.isEmpty ? nil : violation.instanceLocation,
                referrer: stub.source.description, expected: violation.keyword, actual: options.redaction.text(violation.error),
                message: options.redaction.text("\(field) does not match the profile of \(profile.key) (\(violation.keyword)): \(violation.error)"))
        }
    }

    /// The concrete request a stub describes, or why there is none.
    enum Plan {
        case request(FetchRequest)
        /// Not sent, and the check's outcome saying why.
        case unverifiable(CheckedLink.Outcome)
    }

    func request(for stub: Stub) -> Plan {
        let method = stub.request.method ?? "GET"
        if stub.response.failure != nil || stub.sequence?.responses.first?.failure != nil {
            return .unverifiable(.skipped(reason: "a failure stub simulates the network, not the API"))
        }
        // Safe methods (RFC 9110 §9.2.1) are sent: a recording's OPTIONS answers are checked too.
        guard HTTPMethodToken.safe.contains(method) || options.unsafe else {
            return .unverifiable(.skipped(reason: "\(method) is not sent to a live API without --unsafe"))
        }
        let headers = stub.request.headers.compactMap { constraint in constraint.value.map { HTTPHeader(name: constraint.name, value: $0) } }
        if let example = stub.request.example {
            guard let url = URL(string: options.origin + example) else {
                return .unverifiable(.notChecked(reason: "the example '\(example)' does not make a URL"))
            }
            return .request(FetchRequest(method: method, url: url, headers: headers))
        }
        let path: String
        switch stub.request.path.kind {
        case .literal:
            path = stub.request.path.text
        case .glob:
            return .unverifiable(.notChecked(reason: "a glob path (\(stub.request.path.text)) names no one request; give the stub an example request"))
        case .template:
            switch Self.expand(stub.request.path.text, with: options.variables) {
            case .success(let expanded): path = expanded
            case .failure(let missing):
                return .unverifiable(.notChecked(reason: "needs values: \(missing.map { "--var \($0)=…" }.joined(separator: " ")), or an example request in the stub"))
            }
        }
        var target = path
        let query = stub.request.query.compactMap { constraint in
            constraint.value.map { "\(Self.encode(constraint.name))=\(Self.encode($0))" } ?? options.variables[constraint.name].map { "\(Self.encode(constraint.name))=\(Self.encode($0))" }
        }
        if !query.isEmpty { target += "?" + query.joined(separator: "&") }
        guard let url = URL(string: options.origin + target) else {
            return .unverifiable(.notChecked(reason: "'\(target)' does not make a URL"))
        }
        return .request(FetchRequest(method: method, url: url, headers: headers))
    }

    /// `/orders/{id}` with `id=42` → `/orders/42`; the names without a value otherwise.
    static func expand(_ template: String, with variables: [String: String]) -> Result<String, VariablesMissing> {
        var result = ""
        var missing: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = variables[name] { result += encode(value) } else { missing.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return missing.isEmpty ? .success(result) : .failure(VariablesMissing(names: missing))
    }

    struct VariablesMissing: Error, Sequence {
        var names: [String]
        func makeIterator() -> IndexingIterator<[String]> { names.makeIterator() }
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? text
    }
}
