import APICheckFindings
import APICheckJSON
import APICheckModel
import Foundation

/// What a probe will send, decided before anything is sent: `--dry-run` prints it.
public struct ProbePlan: Sendable {
    /// One affordance and the requests planned for it.
    public struct Entry: Sendable {
        public var affordance: Affordance
        public var requests: [PlannedRequest]

        public init(affordance: Affordance, requests: [PlannedRequest]) {
            self.affordance = affordance
            self.requests = requests
        }
    }

    /// An affordance left out, and why (`needs --unsafe`, `--skip`, another host).
    public struct Skipped: Sendable, Hashable {
        public var affordance: Affordance
        public var reason: String
    }

    public var entries: [Entry]
    public var skipped: [Skipped]

    /// Requests planned, before the ones the answers add (a replay after a create, shrinking,
    /// fetching and deleting what was created).
    public var requestCount: Int { entries.reduce(0) { $0 + $1.requests.count } }
}

/// One request the plan sends.
public struct PlannedRequest: Sendable, Hashable {
    public var method: String
    public var url: String
    /// What it tries (`valid: defaults`, `born: max + 1 (2101)`, `id: one past the largest id (7)`).
    public var label: String
    /// The body field or template variable it varies.
    public var field: String?
    /// Writes: the generated case (its flat body, before the format's shape is applied).
    public var probeCase: ProbeCase?

    /// A generated case, sent to the affordance.
    init(_ affordance: Affordance, _ probeCase: ProbeCase) {
        self.init(method: affordance.method, url: affordance.target, label: probeCase.label, field: probeCase.field, probeCase: probeCase)
    }

    public init(method: String, url: String, label: String, field: String? = nil, probeCase: ProbeCase? = nil) {
        self.method = method
        self.url = url
        self.label = label
        self.field = field
        self.probeCase = probeCase
    }
}

/// Turns what the crawl found into a plan: filters (`--only`, `--skip`, `--unsafe`, the root's
/// host), generated cases for writes, edge values for templated reads, templates inferred from
/// fetched URLs where none is advertised.
public struct ProbePlanner: Sendable {
    public let options: ProbeOptions

    public init(options: ProbeOptions) {
        self.options = options
    }

    public func plan(writes: [Affordance], reads: [Affordance], fetched: [(url: String, group: String)]) -> ProbePlan {
        var plan = ProbePlan(entries: [], skipped: [])
        var reads = reads.map { withObservedValues($0, fetched: fetched) }
        if options.infersTemplates { reads += inferredReads(fetched: fetched, advertised: reads) }
        for affordance in writes + reads {
            if let reason = exclusion(of: affordance) {
                plan.skipped.append(ProbePlan.Skipped(affordance: affordance, reason: reason))
                continue
            }
            let requests = affordance.kind == .templatedRead ? readRequests(affordance) : writeRequests(affordance)
            guard !requests.isEmpty else {
                plan.skipped.append(ProbePlan.Skipped(affordance: affordance, reason: emptyReason(affordance)))
                continue
            }
            plan.entries.append(ProbePlan.Entry(affordance: affordance, requests: requests))
        }
        return plan
    }

    /// Why an affordance is not probed, or `nil`.
    func exclusion(of affordance: Affordance) -> String? {
        let names = [affordance.place, affordance.rel, "\(affordance.method) \(affordance.rel)"]
        if !options.only.isEmpty, !options.only.contains(where: { only in names.contains { $0.contains(only) } }) {
            return "not named by --only"
        }
        if let skip = options.skip.first(where: { skip in names.contains { $0.contains(skip) } }) { return "--skip \(skip)" }
        if affordance.kind == .write, !options.unsafe { return "a write: needs --unsafe" }
        guard let origin = Self.origin(of: affordance.target), origin == Self.origin(of: options.root.absoluteString) else {
            return "on another host than the root's: probes go to the root's host only"
        }
        return nil
    }

    private func emptyReason(_ affordance: Affordance) -> String {
        affordance.kind == .write ? "no request could be generated from its fields" : "no value is known for its variables"
    }

    /// Valid cases first (an eighth of the budget, at least one), then edge cases from the
    /// generated base (the runner draws them again from the first body the server accepts).
    func writeRequests(_ affordance: Affordance) -> [PlannedRequest] {
        guard let generator = Self.generator(for: affordance, seed: options.seed) else { return [] }
        // Each valid create is a resource to delete again: a few, then edge cases.
        let valid = generator.validCases(limit: Self.validCount(budget: options.budgetPerAffordance))
        let edges = Self.edgeCases(for: affordance, generator, limit: max(0, options.budgetPerAffordance - valid.count), from: nil)
        return (valid + edges).map { PlannedRequest(affordance, $0) }
    }

    static func generator(for affordance: Affordance, seed: UInt64) -> ProbeCaseGenerator? {
        try? ProbeCaseGenerator(schema: affordance.bodySchema ?? .object([]), examples: affordance.examples, seed: seed)
    }

    static func validCount(budget: Int) -> Int { max(1, max(budget, 1) / 8) }

    /// Edge cases for `affordance`, at most `limit`. A query or a form-encoded body sends every
    /// value as text: a JSON type cannot be wrong there, and a query has no Content-Type to vary.
    static func edgeCases(for affordance: Affordance, _ generator: ProbeCaseGenerator, limit: Int, from base: JSONValue?) -> [ProbeCase] {
        let textOnly = affordance.kind == .queryForm
            || ContentTypeHeader.essence(of: affordance.requestContentType ?? "") == "application/x-www-form-urlencoded"
        // Drawn past the limit, then cut to it, so what the filter drops does not shrink the budget.
        let edges = generator.edgeCases(limit: limit * (textOnly ? 2 : 1), from: base).filter { probeCase in
            !(textOnly && probeCase.breaks == "type") && (affordance.kind == .write || probeCase.contentType == .declared)
        }
        return Array(edges.prefix(limit))
    }

    func readRequests(_ affordance: Affordance) -> [PlannedRequest] {
        guard let plan = try? ReadProbePlan(template: affordance.target, observedValues: affordance.observedValues, budget: max(options.budgetPerAffordance, 1)) else {
            return []
        }
        return plan.requests
            .filter { Self.origin(of: $0.url) == Self.origin(of: affordance.target) }
            .map { PlannedRequest(method: "GET", url: $0.url, label: $0.label, field: $0.variable) }
    }

    /// Real values of an advertised template's variables, read from the URLs the crawl fetched
    /// that the template matches (`/items/{id}` and `/items/3` give `id` = 3).
    func withObservedValues(_ read: Affordance, fetched: [(url: String, group: String)]) -> Affordance {
        var read = read
        guard let matcher = TemplateMatcher(read.target) else { return read }
        for (url, _) in fetched {
            guard let values = matcher.match(url) else { continue }
            for (name, value) in values where !(read.observedValues[name]?.contains(value) ?? false) {
                read.observedValues[name, default: []].append(value)
            }
        }
        return read
    }

    /// Templates inferred from fetched URLs that no advertised template matches.
    func inferredReads(fetched: [(url: String, group: String)], advertised: [Affordance]) -> [Affordance] {
        let matchers = advertised.compactMap { TemplateMatcher($0.target) }
        let uncovered = fetched.filter { entry in !matchers.contains { $0.match(entry.url) != nil } }
        return TemplateInference.templates(from: uncovered).map { inferred in
            Affordance(
                kind: .templatedRead, method: "GET", target: inferred.template, rel: "self", format: "inferred",
                relPath: RelPath(inferred.group.split(separator: " → ").dropFirst().map(String.init)), sourcePointer: nil,
                referrer: inferred.exampleURL, observedValues: inferred.observedValues, isInferred: true)
        }
    }

    /// `scheme://host:port`, lower-cased; read from the text, as templates are not URLs yet.
    static func origin(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        var authority = rest.prefix { !"/?#{".contains($0) }.lowercased()
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        guard !authority.isEmpty else { return nil }
        let hasPort = authority.last != "]" && authority.contains(":")
        return "\(scheme)://\(authority)\(hasPort ? "" : (scheme == "https" ? ":443" : ":80"))"
    }
}
