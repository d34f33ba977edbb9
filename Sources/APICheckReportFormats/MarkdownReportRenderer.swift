import APICheckFindings
import APICheckModel
import APICheckSpool
import Foundation

/// GitHub-flavoured Markdown (`--format markdown`) for a pull-request comment or
/// `$GITHUB_STEP_SUMMARY`: a verdict heading, a table of counts, then one table row per defect
/// (worst first) with its rule, title, count, up to three example occurrences (every one with
/// ``listsEveryOccurrence``) and a reproduction. Untrusted text is escaped for table cells
/// (pipes, HTML, emphasis; line breaks as `<br>`).
///
/// GitHub caps a step summary at 1 MiB and a comment at 65,536 characters, so at most
/// ``maximumFindings`` defect rows are written, with a note of how many were left out.
public struct MarkdownReportRenderer: ReportRenderer {
    /// How many defect rows to write in all before summarising the rest.
    public var maximumFindings: Int
    /// Whether each defect's row lists every occurrence, not three examples.
    public var listsEveryOccurrence: Bool

    /// A renderer writing at most `maximumFindings` defect rows.
    public init(maximumFindings: Int = 500, listsEveryOccurrence: Bool = false) {
        self.maximumFindings = max(0, maximumFindings)
        self.listsEveryOccurrence = listsEveryOccurrence
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
            "## \(md(report.tool.name)) \(report.command.rawValue) \(verdict): \(counts.defects) \(plural(counts.defects, "defect")) "
                + "(\(counts.errors) \(plural(counts.errors, "error")), \(counts.warnings) \(plural(counts.warnings, "warning")))")
        lines.append("")
        var context = ["Root: \(md(report.root))"]
        if let shard = report.shard { context.append("shard \(shard)") }
        context.append("started \(ReportTime.iso8601(report.startTime))")
        context.append("\(ReportTime.secondsText(report.duration)) s")
        if report.configuration.strict { context.append("strict (warnings fail)") }
        if report.configuration.insecureTLS { context.append("**TLS certificates not checked (--insecure)**") }
        context.append("\(md(report.tool.name)) \(md(report.tool.version))")
        lines.append(context.joined(separator: " · "))
        lines.append("")

        lines.append("| | Count |")
        lines.append("|---|---:|")
        let things = report.command == .verify ? "Stubs" : "Links"
        var rows: [(String, Int)] = [
            ("Resources fetched", counts.resourcesFetched), ("Requests", counts.requests), ("\(things) found", counts.linksFound),
            ("\(things) checked", counts.linksChecked), ("\(things) not checked", counts.linksNotChecked),
            ("\(things) skipped", counts.linksSkipped), ("Defects", counts.defects), ("Errors", counts.errors), ("Warnings", counts.warnings),
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

        let sampled = report.sampling.filter { $0.skipped > 0 }
        if !sampled.isEmpty {
            lines.append("")
            lines.append("### Sampled (--sample)")
            lines.append("")
            lines.append("| Kind of resource | Seen | Checked | Skipped |")
            lines.append("|---|---:|---:|---:|")
            for kind in sampled { lines.append("| \(md(kind.kind)) | \(kind.seen) | \(kind.checked) | \(kind.skipped) |") }
        }

        if let coverage = report.operationCoverage {
            lines.append("")
            lines.append("### OpenAPI operations reached: \(coverage.reached) of \(coverage.total)")
            if !coverage.unreached.isEmpty {
                lines.append("")
                lines.append("Documented but never reached:")
                lines.append("")
                for operation in coverage.unreached.prefix(maximumFindings) { lines.append("- `\(md(operation))`") }
                if coverage.unreached.count > maximumFindings { lines.append("- … and \(coverage.unreached.count - maximumFindings) more") }
            }
        }

        if let probing = report.probing {
            lines.append("")
            lines.append("### Probed: \(md(ProbeSummaryText.line(probing)))")
            if !probing.leftBehind.isEmpty {
                lines.append("")
                lines.append("Left behind (no DELETE advertised, or it failed):")
                lines.append("")
                for url in probing.leftBehind.prefix(maximumFindings) { lines.append("- `\(md(url))`") }
            }
        }

        let defects = report.defects
        let display = OccurrenceDisplay(root: report.root, command: report.command)
        if !defects.isEmpty {
            lines.append("")
            lines.append("### Defects (\(defects.count))")
            lines.append("")
            lines.append("| | Rule | Defect | Links | Examples | Reproduce |")
            lines.append("|---|---|---|---:|---|---|")
            for defect in defects.prefix(maximumFindings) {
                let shown = listsEveryOccurrence ? defect.occurrences[...] : defect.occurrences.prefix(TextReportRenderer.exampleCount)
                var examples = display.lines(shown).map(md).joined(separator: "<br>")
                if shown.count < defect.count { examples += "<br>… and \(defect.count - shown.count) more" }
                lines.append(
                    "| \(defect.severity) | `\(defect.rule.rawValue)` | \(md(defect.title)) | \(defect.count) | \(examples) | `\(defect.reproduction.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|"))` |")
            }
            if defects.count > maximumFindings {
                lines.append("")
                lines.append("_\(defects.count - maximumFindings) more \(plural(defects.count - maximumFindings, "defect")) not shown; see the JSON or SARIF report for all of them._")
            }
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
