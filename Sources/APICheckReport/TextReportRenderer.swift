/// The human report (`--format text`): findings grouped by the resource they concern, then the
/// links that were not checked or skipped, infrastructure errors, baseline notes and a summary.
///
/// ```
/// https://api.example.com/movies/3/poster
///   error[link-resolves] GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404 Not Found)
///     path: root → library → movies[3] → poster
///     link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3
///
/// Summary: 4 resources fetched, 5 requests; 6 links: 4 checked, 1 not checked, 1 skipped; 1 error, 0 warnings. Failed (exit 1).
/// ```
///
/// Colour (ANSI) only when ``useColor`` is set; untrusted text never carries control characters
/// to the terminal.
public struct TextReportRenderer: ReportRenderer {
    /// Whether to use ANSI colours. The CLI sets it for a terminal without `NO_COLOR`.
    public var useColor: Bool
    /// Whether to list the links that were not checked or skipped, with their reasons.
    public var listsUncheckedLinks: Bool

    /// A renderer; no colour unless asked.
    public init(useColor: Bool = false, listsUncheckedLinks: Bool = true) {
        self.useColor = useColor
        self.listsUncheckedLinks = listsUncheckedLinks
    }

    /// The text report with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        var lines: [String] = []
        var heading = "\(report.tool.name) \(report.tool.version) crawl of \(clean(report.root))"
        if let shard = report.shard { heading += " (shard \(shard))" }
        lines.append(style(heading, .bold))

        var currentURL: String?
        for finding in report.findings {
            if finding.url != currentURL {
                currentURL = finding.url
                lines.append("")
                lines.append(style(clean(finding.url), .bold))
            }
            lines.append(contentsOf: describe(finding))
        }

        if listsUncheckedLinks {
            let notChecked = report.checks.filter { if case .notChecked = $0.outcome { true } else { false } }
            let skipped = report.checks.filter { if case .skipped = $0.outcome { true } else { false } }
            for (title, checks) in [("Not checked", notChecked), ("Skipped", skipped)] where !checks.isEmpty {
                lines.append("")
                lines.append(style(title + ":", .bold))
                for check in checks {
                    var line = "  \(clean(check.method)) \(clean(check.url)) (\(clean(check.relPathDescription)))"
                    if let reason = check.outcome.reason, !reason.isEmpty { line += " — " + clean(reason) }
                    lines.append(line)
                }
            }
        }

        if !report.errors.isEmpty {
            lines.append("")
            lines.append(style("Infrastructure errors:", .bold))
            for problem in report.errors {
                var line = "  " + style("error:", .red) + " " + clean(problem.message)
                if let url = problem.url { line += " (\(clean(url)))" }
                lines.append(line)
            }
        }

        if let baseline = report.baseline, !baseline.stale.isEmpty {
            lines.append("")
            let count = baseline.stale.count
            lines.append(
                style("Baseline: \(count) \(count == 1 ? "entry matches" : "entries match") no finding any more (remove or rewrite the baseline):", .bold))
            for entry in baseline.stale {
                lines.append("  \(entry.rule) \(clean(entry.method)) \(clean(entry.url)) [\(entry.fingerprint)]")
            }
        }

        lines.append("")
        lines.append(summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ finding: Finding) -> [String] {
        let label = style(finding.severity.rawValue, finding.severity == .error ? .red : .yellow) + "[\(finding.rule)]"
        var lines = ["  \(label) \(clean(finding.method)) \(clean(finding.url)) — \(clean(finding.messageWithEvidence))"]
        lines.append(style("    path: " + clean(finding.relPathDescription), .dim))
        if let link = finding.linkDescription { lines.append(style("    link: " + clean(link), .dim)) }
        if let types = finding.typeDescription { lines.append(style("    type: " + clean(types), .dim)) }
        return lines
    }

    private func summary(_ report: CrawlReport) -> String {
        let counts = report.counts
        var text = "Summary: \(counts.resourcesFetched) \(plural(counts.resourcesFetched, "resource")) fetched, "
            + "\(counts.requests) \(plural(counts.requests, "request")); "
            + "\(counts.linksFound) \(plural(counts.linksFound, "link")): \(counts.linksChecked) checked, "
            + "\(counts.linksNotChecked) not checked, \(counts.linksSkipped) skipped; "
            + "\(counts.errors) \(plural(counts.errors, "error")), \(counts.warnings) \(plural(counts.warnings, "warning"))"
        if report.baseline != nil { text += ", \(counts.suppressed) suppressed by the baseline" }
        if counts.infrastructureErrors > 0 {
            text += "; \(counts.infrastructureErrors) infrastructure \(plural(counts.infrastructureErrors, "error"))"
        }
        if report.configuration.strict { text += " (strict: warnings fail)" }
        text += ". "
        let exitCode = report.exitCode
        switch exitCode {
        case .success: text += style("Passed", .green) + " (exit 0)."
        case .contractViolations: text += style("Failed", .red) + " (exit 1)."
        case .infrastructureError: text += style("Crawl incomplete", .red) + " (exit 2)."
        }
        return text
    }

    private func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }

    private func clean(_ text: String) -> String { Escaping.visibleControlCharacters(text) }

    private enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "1;31"
        case yellow = "1;33"
        case green = "1;32"
    }

    private func style(_ text: String, _ style: Style) -> String {
        useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
