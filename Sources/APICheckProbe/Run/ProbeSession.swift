import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
import Foundation

/// What one probe run has done so far; one task uses it, one request at a time.
final class ProbeSession {
    let plan: ProbePlan
    let collector: AffordanceCollector
    var sent = 0
    /// Planned requests left out for `--max-requests`.
    var notSent = 0
    var findings: [Finding] = []
    /// One finding per rule, affordance and field: the first, shrunk.
    private var failed: Set<String> = []
    /// Affordances whose first valid create was sent twice.
    var replayed: Set<String> = []
    /// Created resources, in order, with whether the API advertises DELETE on them.
    var created: [(url: String, deletable: Bool?)] = []
    var deleted = 0
    /// Existing resources a PUT or PATCH probe changed (2xx), restored after, and those it could
    /// not restore.
    var touched: Set<String> = []
    var restored = 0
    var changed: [String] = []
    var interrupted = false

    init(plan: ProbePlan, collector: AffordanceCollector) {
        self.plan = plan
        self.collector = collector
    }

    /// True the first time `rule` fails at `affordance` for `field`.
    func firstFailure(_ rule: RuleID, _ affordance: Affordance, _ field: String?) -> Bool {
        failed.insert("\(rule) \(affordance.method) \(affordance.target) \(affordance.rel) \(field ?? "")").inserted
    }

    /// True the first time `rule` fails at `affordance` with a shrunk body of this shape: its
    /// members and values, strings counted as alike (what shrinking leaves of them is arbitrary).
    func firstShrunk(_ rule: RuleID, _ affordance: Affordance, _ body: JSONValue?) -> Bool {
        func shape(_ value: JSONValue) -> String {
            switch value {
            case .string: return "string"
            case .object(let members): return "{" + members.map { "\($0.key):\(shape($0.value))" }.sorted().joined(separator: ",") + "}"
            case .array(let elements): return "[" + elements.map(shape).joined(separator: ",") + "]"
            default: return JSONWriter().string(value)
            }
        }
        return shrunk.insert("\(rule) \(affordance.method) \(affordance.target) \(affordance.rel) \(body.map(shape) ?? "-")").inserted
    }

    private var shrunk: Set<String> = []

    /// Remembers what a 201 names, to delete it at the end.
    func noteCreated(_ response: FetchedResponse, requestURL: String) {
        guard let location = response.headers.value(named: "Location"), let url = URLResolution.resolve(location, against: requestURL) else { return }
        if !created.contains(where: { $0.url == url }) { created.append((url, nil)) }
    }

    var summary: ProbeSummary {
        ProbeSummary(
            writes: plan.entries.filter { $0.affordance.kind == .write }.count,
            queryForms: plan.entries.filter { $0.affordance.kind == .queryForm }.count,
            templatedReads: plan.entries.filter { $0.affordance.kind == .templatedRead }.count,
            skipped: plan.skipped.map { "\($0.affordance.name) at \($0.affordance.place): \($0.reason)" },
            requests: sent, notSent: notSent, created: created.count, deleted: deleted,
            leftBehind: created.filter { $0.deletable != true }.map(\.url), restored: restored, changed: changed, interrupted: interrupted)
    }
}

/// How an answer to a probe reads.
enum Verdict {
    /// A 5xx, or no answer at all (reset, refused, timed out).
    case serverError(String)
    case success(FetchedResponse)
    case rejected(FetchedResponse)
    case notSent

    static func ofAnswer(_ exchange: ProbeRunner.Exchange) -> Verdict {
        switch exchange {
        case .notSent: .notSent
        // Refused by our own HTTP client (a URL it cannot send): nothing reached the server.
        case .failed(let error) where error.kind == .invalidURL || error.kind == .unsupportedScheme: .notSent
        case .failed(let error): .serverError(error.description)
        case .response(let response) where response.status >= 500: .serverError("\(response.status)")
        case .response(let response) where (200..<300).contains(response.status): .success(response)
        case .response(let response): .rejected(response)
        }
    }
}
