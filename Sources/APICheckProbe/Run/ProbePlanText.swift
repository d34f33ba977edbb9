/// `apicheck probe --dry-run`: the affordances found and the requests a probe would send, for
/// people, before anything unsafe happens.
public enum ProbePlanText {
    /// Requests listed per affordance before the rest is counted.
    static let listedRequests = 8

    public static func render(_ plan: ProbePlan, root: String, seed: UInt64, unsafe: Bool) -> String {
        var lines = ["Probe plan for \(root) (seed \(seed)\(unsafe ? ", --unsafe" : "")): \(plan.entries.count) \(plural(plan.entries.count, "affordance")), \(plan.requestCount) \(plural(plan.requestCount, "request")) planned"]
        for entry in plan.entries {
            let affordance = entry.affordance
            lines.append("")
            lines.append("\(affordance.name) at \(affordance.place)")
            lines.append("  \(affordance.kind == .templatedRead ? "template" : "target") \(affordance.target)")
            for request in entry.requests.prefix(listedRequests) {
                lines.append("  \(request.method) \(request.url)  # \(request.label)")
            }
            if entry.requests.count > listedRequests {
                lines.append("  … and \(entry.requests.count - listedRequests) more")
            }
        }
        if !plan.skipped.isEmpty {
            lines.append("")
            lines.append("Not probed:")
            for skipped in plan.skipped { lines.append("  \(skipped.affordance.name) at \(skipped.affordance.place): \(skipped.reason)") }
        }
        lines.append("")
        lines.append("Nothing was sent but the crawl (--dry-run). The answers add requests: a create sent twice, shrinking, fetching and deleting what was created.")
        return lines.joined(separator: "\n") + "\n"
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
