import APICheckModel

/// `apicheck probe --dry-run`: the affordances found and the requests a probe would send, for
/// people, before anything unsafe happens.
public enum ProbePlanText {
    /// Requests listed per affordance before the rest is counted.
    static let listedRequests = 8

    /// `listsEveryRequest` (`--verbose`): every planned request, not the first few of each.
    /// Targets, URLs and bodies pass through `redaction`, as a report's do.
    public static func render(
        _ plan: ProbePlan, root: String, seed: UInt64, unsafe: Bool, listsEveryRequest: Bool = false, redaction: Redaction = Redaction()
    ) -> String {
        var lines = ["Probe plan for \(root) (seed \(seed)\(unsafe ? ", --unsafe" : "")): \(plan.entries.count) \(plural(plan.entries.count, "affordance")), \(plan.requestCount) \(plural(plan.requestCount, "request")) planned"]
        for entry in plan.entries {
            let affordance = entry.affordance
            lines.append("")
            lines.append("\(affordance.name) at \(affordance.place)")
            lines.append("  \(affordance.kind == .templatedRead ? "template" : "target") \(redaction.url(affordance.target))")
            let listed = listsEveryRequest ? entry.requests[...] : entry.requests.prefix(listedRequests)
            for request in listed {
                lines.append("  \(redaction.text(line(request, affordance)))  # \(redaction.text(request.label))")
            }
            if listed.count < entry.requests.count {
                lines.append("  … and \(entry.requests.count - listed.count) more (--verbose lists them)")
            }
        }
        if !plan.skipped.isEmpty {
            lines.append("")
            lines.append("Not probed:")
            for skipped in plan.skipped { lines.append("  \(skipped.affordance.name) at \(skipped.affordance.place): \(skipped.reason)") }
        }
        lines.append("")
        lines.append("Nothing was sent but the crawl (--dry-run). At run time the answers add requests (a create sent twice, shrinking, fetching, deleting and restoring), and edge cases are drawn again from the first body the server accepts.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `POST url {"name":"x"}`, `GET url?size=0`: what is sent, the body cut at 120 characters.
    static func line(_ request: PlannedRequest, _ affordance: Affordance) -> String {
        guard let probeCase = request.probeCase else { return "\(request.method) \(request.url)" }
        if affordance.kind == .queryForm { return "GET \(QueryForm.url(request.url, with: probeCase.body))" }
        let body = ProbeBody(probeCase, for: affordance)
        var text = body.text ?? "(no body)"
        if text.count > 120 { text = String(text.prefix(117)) + "…" }
        let type = switch probeCase.contentType {
        case .declared: ""
        case .none: " (no Content-Type)"
        case .other(let other): " (Content-Type: \(other))"
        }
        return "\(request.method) \(request.url) \(text)\(type)"
    }

    /// Why a plan is empty, and what to do.
    public static func nothingToProbe(_ plan: ProbePlan, unsafe: Bool) -> String {
        if plan.skipped.isEmpty { return "the crawl found no write affordance and no templated read (forms, actions, templated links, ids in URLs)" }
        let writes = plan.skipped.filter { $0.reason.hasSuffix("needs --unsafe") }.count
        if !unsafe, writes > 0 { return "\(writes) write \(plural(writes, "affordance")) found; probing writes needs --unsafe (against a disposable environment)" }
        return "every affordance found was left out (--dry-run lists why)"
    }

    private static func plural(_ count: Int, _ noun: String) -> String { count == 1 ? noun : noun + "s" }
}
