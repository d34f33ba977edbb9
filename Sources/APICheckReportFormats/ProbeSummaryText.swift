import APICheckFindings

/// One line on what a probe did, shared by the text and Markdown reports.
enum ProbeSummaryText {
    static func line(_ probing: ProbeSummary) -> String {
        var parts = [
            count(probing.writes, "write affordance"), count(probing.queryForms, "search form"), count(probing.templatedReads, "templated read"),
        ]
        parts.append("\(count(probing.requests, "probe request")) sent")
        if probing.notSent > 0 { parts.append("\(probing.notSent) not sent (--max-requests)") }
        if probing.created > 0 { parts.append("\(probing.created) created, \(probing.deleted) deleted again") }
        if probing.restored > 0 { parts.append("\(probing.restored) changed and put back") }
        if !probing.skipped.isEmpty { parts.append("\(probing.skipped.count) not probed") }
        if probing.interrupted { parts.append("interrupted") }
        return parts.joined(separator: ", ")
    }

    private static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}
