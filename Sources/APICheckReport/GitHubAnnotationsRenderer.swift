/// GitHub Actions workflow commands (`--format github`): one `::error` or `::warning`
/// annotation per finding and per infrastructure error, a `::notice` for stale baseline
/// entries, then a plain summary line.
///
/// ```
/// ::error title=link-resolves%3A GET https%3A//api.example.com/movies/3/poster::GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404)%0Apath: root → library → movies[3] → poster
/// ```
///
/// Escaping follows the runner: `%`, CR and LF are percent-encoded in the message, and `:` and
/// `,` as well in property values; untrusted text cannot end a command or start a new one.
/// GitHub shows at most 10 annotations of each kind per step; errors come first, and the full
/// list belongs in another format (Markdown for `$GITHUB_STEP_SUMMARY`, SARIF, JUnit).
public struct GitHubAnnotationsRenderer: ReportRenderer {
    /// The annotations renderer.
    public init() {}

    /// One line per annotation and a summary line.
    public func render(_ report: CrawlReport) -> String {
        var lines: [String] = []
        for problem in report.errors {
            let message = problem.url.map { "\(problem.message) (\($0))" } ?? problem.message
            lines.append(command("error", title: "\(report.tool.name): crawl error", message: message))
        }
        let ordered = report.findings.filter { $0.severity == .error } + report.findings.filter { $0.severity == .warning }
        for finding in ordered {
            lines.append(
                command(
                    finding.severity == .error ? "error" : "warning", title: "\(finding.rule): \(finding.method) \(finding.url)",
                    message: finding.plainLines.dropFirst().reduce("\(finding.method) \(finding.url) — \(finding.messageWithEvidence)") {
                        $0 + "\n" + $1
                    }))
        }
        if let baseline = report.baseline, !baseline.stale.isEmpty {
            let entries = baseline.stale.map { "\($0.rule) \($0.method) \($0.url) [\($0.fingerprint)]" }
            lines.append(
                command(
                    "notice", title: "\(report.tool.name): stale baseline entries",
                    message: "\(baseline.stale.count) baseline \(baseline.stale.count == 1 ? "entry matches" : "entries match") no finding any more:\n"
                        + entries.joined(separator: "\n")))
        }
        let counts = report.counts
        var summary = "\(report.tool.name): \(counts.errors) error\(counts.errors == 1 ? "" : "s"), "
            + "\(counts.warnings) warning\(counts.warnings == 1 ? "" : "s") in \(counts.linksChecked) checked "
            + "link\(counts.linksChecked == 1 ? "" : "s") (\(counts.linksNotChecked) not checked, \(counts.linksSkipped) skipped)"
        if report.baseline != nil { summary += ", \(counts.suppressed) suppressed by the baseline" }
        summary += "; exit code \(report.exitCode.rawValue)."
        // An ordinary log line must not be mistaken for a command either.
        lines.append(Escaping.githubData(Escaping.visibleControlCharacters(summary)))
        return lines.joined(separator: "\n") + "\n"
    }

    private func command(_ name: String, title: String, message: String) -> String {
        let title = Escaping.visibleControlCharactersExceptNewlines(title)
        let message = Escaping.visibleControlCharactersExceptNewlines(message)
        return "::\(name) title=\(Escaping.githubProperty(title))::\(Escaping.githubData(message))"
    }
}
