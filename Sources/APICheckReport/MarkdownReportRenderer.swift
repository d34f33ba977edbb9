/// GitHub-flavoured Markdown (`--format markdown`) for a pull-request comment or
/// `$GITHUB_STEP_SUMMARY`: a verdict heading, a table of counts, then one table of findings per
/// rule. Untrusted text is escaped for table cells (pipes, HTML, emphasis; line breaks as `<br>`).
///
/// GitHub caps a step summary at 1 MiB and a comment at 65,536 characters, so at most
/// ``maximumFindings`` rows are written, with a note of how many were left out.
public struct MarkdownReportRenderer: ReportRenderer {
    /// How many finding rows to write in all before summarising the rest.
    public var maximumFindings: Int

    /// A renderer writing at most `maximumFindings` finding rows.
    public init(maximumFindings: Int = 500) {
        self.maximumFindings = max(0, maximumFindings)
    }

    /// The Markdown document with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        let counts = report.counts
        var lines: [String] = []
        let verdict: String
        switch report.exitCode {
        case .success: verdict = "passed"
        case .contractViolations: verdict = "failed"
        case .infrastructureError: verdict = "incomplete"
        }
        lines.append(
            "## \(md(report.tool.name)) crawl \(verdict): \(counts.errors) \(plural(counts.errors, "error")), "
                + "\(counts.warnings) \(plural(counts.warnings, "warning"))")
        lines.append("")
        var context = ["Root: \(md(report.root))"]
        if let shard = report.shard { context.append("shard \(shard)") }
        context.append("started \(ReportTime.iso8601(report.startTime))")
        context.append("\(ReportTime.secondsText(report.duration)) s")
        if report.configuration.strict { context.append("strict (warnings fail)") }
        context.append("\(md(report.tool.name)) \(md(report.tool.version))")
        lines.append(context.joined(separator: " · "))
        lines.append("")

        lines.append("| | Count |")
        lines.append("|---|---:|")
        var rows: [(String, Int)] = [
            ("Resources fetched", counts.resourcesFetched), ("Requests", counts.requests), ("Links found", counts.linksFound),
            ("Links checked", counts.linksChecked), ("Links not checked", counts.linksNotChecked),
            ("Links skipped", counts.linksSkipped), ("Errors", counts.errors), ("Warnings", counts.warnings),
        ]
        if report.baseline != nil { rows.append(("Suppressed by the baseline", counts.suppressed)) }
        if counts.infrastructureErrors > 0 { rows.append(("Infrastructure errors", counts.infrastructureErrors)) }
        for (label, value) in rows { lines.append("| \(label) | \(value) |") }

        if !report.errors.isEmpty {
            lines.append("")
            lines.append("### Infrastructure errors")
            lines.append("")
            for problem in report.errors {
                lines.append("- " + md(problem.message) + (problem.url.map { " (\(md($0)))" } ?? ""))
            }
        }

        var remaining = maximumFindings
        var omitted = 0
        for rule in RuleID.allCases.sorted() {
            let findings = report.findings.filter { $0.rule == rule }
            guard !findings.isEmpty else { continue }
            lines.append("")
            lines.append("### `\(rule.rawValue)` (\(findings.count)): \(md(rule.summary))")
            lines.append("")
            guard remaining > 0 else {
                omitted += findings.count
                lines.append("_Not listed: the row limit was reached._")
                continue
            }
            lines.append("| Severity | Method | URL | Path | Message |")
            lines.append("|---|---|---|---|---|")
            for finding in findings.prefix(remaining) {
                var message = finding.messageWithEvidence
                if let link = finding.linkDescription { message += "\nlink: " + link }
                if let types = finding.typeDescription { message += "\ntype: " + types }
                lines.append(
                    "| \(finding.severity) | \(md(finding.method)) | \(md(finding.url)) | \(md(finding.relPathDescription)) | \(md(message)) |")
            }
            if findings.count > remaining { omitted += findings.count - remaining }
            remaining = max(0, remaining - findings.count)
        }
        if omitted > 0 {
            lines.append("")
            lines.append("_\(omitted) more \(plural(omitted, "finding")) not shown; see the JSON or SARIF report for all of them._")
        }
        if report.findings.isEmpty && report.errors.isEmpty {
            lines.append("")
            lines.append("No findings.")
        }

        if let baseline = report.baseline, !baseline.stale.isEmpty {
            lines.append("")
            lines.append("### Stale baseline entries (\(baseline.stale.count))")
            lines.append("")
            lines.append("These entries match no finding any more; remove them from the baseline.")
            lines.append("")
            lines.append("| Rule | Method | URL | Fingerprint |")
            lines.append("|---|---|---|---|")
            for entry in baseline.stale.prefix(maximumFindings) {
                lines.append("| `\(entry.rule.rawValue)` | \(md(entry.method)) | \(md(entry.url)) | \(md(entry.fingerprint)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func md(_ text: String) -> String { Escaping.markdown(text) }

    private func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }
}
