import APICheckFindings
import APICheckModel
import APICheckSpool

/// The human report (`--format text`): one entry per defect, worst first, each with what is wrong
/// and how to fix it, how many links it concerns, up to three example occurrences and (for
/// errors) a command that reproduces it; then the links that were not checked or skipped,
/// infrastructure errors, baseline notes and a summary.
///
/// ```
/// error[link-resolves] GET poster links answer 500: /poster/{id} must answer 2xx (2 links)
///   e.g. GET /poster/10CFL via root → library → movies[9].poster; GET /poster/10CFL via root → library → movies[9].self → poster
///   reproduce: curl -i 'http://localhost:3000/poster/10CFL'
///
/// Summary: 27 resources fetched, 27 requests; 78 links: 78 checked, 0 not checked, 0 skipped; 13 defects (6 errors, 7 warnings) in 116 findings. Failed (exit 1).
/// ```
///
/// With ``listsEveryOccurrence`` every occurrence is listed with its link and types. Colour (ANSI)
/// only when ``useColor`` is set; untrusted text never carries control characters to the terminal.
public struct TextReportRenderer: ReportRenderer {
    /// Whether to use ANSI colours. The CLI sets it for a terminal without `NO_COLOR`.
    public var useColor: Bool
    /// Whether to list the links that were not checked or skipped, with their reasons.
    public var listsUncheckedLinks: Bool
    /// Whether to list every occurrence of each defect (`--verbose`), not three examples.
    public var listsEveryOccurrence: Bool

    /// Whether to list every documented operation the crawl never reached (`--coverage`), not
    /// the first ``coverageListed``.
    public var listsEveryUnreachedOperation = false

    /// Examples shown per defect without ``listsEveryOccurrence``.
    public static let exampleCount = 3
    /// Unreached operations listed without ``listsEveryUnreachedOperation``.
    public static let coverageListed = 10

    /// A renderer; no colour unless asked.
    public init(useColor: Bool = false, listsUncheckedLinks: Bool = true, listsEveryOccurrence: Bool = false) {
        self.useColor = useColor
        self.listsUncheckedLinks = listsUncheckedLinks
        self.listsEveryOccurrence = listsEveryOccurrence
    }

    /// Resources a probe left behind, listed before the rest is counted.
    static let leftBehindListed = 3

    private static let incomplete: [ReportCommand: String] = [.crawl: "Crawl incomplete", .verify: "Verify incomplete", .probe: "Probe incomplete"]

    /// The text report with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        var lines: [String] = []
        var heading = switch report.command {
        case .crawl: "\(report.tool.name) \(report.tool.version) crawl of \(clean(report.root))"
        case .verify: "\(report.tool.name) \(report.tool.version) verify of stubs against \(clean(report.root))"
        case .probe: "\(report.tool.name) \(report.tool.version) probe of \(clean(report.root))"
        }
        if let shard = report.shard { heading += " (shard \(shard))" }
        lines.append(style(heading, .bold))

        let defects = report.defects
        if !defects.isEmpty { lines.append("") }
        let display = OccurrenceDisplay(root: report.root, command: report.command)
        for defect in defects {
            lines.append(contentsOf: describe(defect, display: display))
        }

        if listsUncheckedLinks {
            for (title, outcome) in [("Not checked", "notChecked"), ("Skipped", "skipped")] {
                let groups = UncheckedGroup.groups(of: report.checks.filter { $0.outcome.name == outcome })
                guard !groups.isEmpty else { continue }
                lines.append("")
                lines.append(style(title + ":", .bold))
                for group in groups {
                    let count = group.checks.count
                    var line = "  \(clean(group.reason.isEmpty ? "no reason given" : group.reason)) (\(count) \(plural(count, "link")))"
                    let targets = group.targets
                    let shown = listsEveryOccurrence ? targets[...] : targets.prefix(Self.exampleCount)
                    line += ": " + shown.map { target in
                        let space = target.firstIndex(of: " ") ?? target.endIndex
                        return clean(String(target[..<space])) + " " + clean(display.url(String(target[space...].dropFirst())))
                    }.joined(separator: ", ")
                    if shown.count < targets.count { line += " … and \(targets.count - shown.count) more" }
                    lines.append(line)
                }
            }
        }

        let sampled = report.sampling.filter { $0.skipped > 0 }
        if !sampled.isEmpty {
            lines.append("")
            let complete = report.sampling.count - sampled.count
            lines.append(style("Sampled (--sample): \(sampled.count) \(plural(sampled.count, "kind")) of resource left out some"
                + (complete > 0 ? "; \(complete) more \(plural(complete, "kind")) checked in full" : "") + ":", .bold))
            for kind in sampled {
                lines.append("  \(clean(kind.kind)): \(kind.checked) of \(kind.seen) checked, \(kind.skipped) skipped")
            }
        }

        if let coverage = report.operationCoverage {
            lines.append("")
            lines.append(style("Operations reached: \(coverage.reached) of \(coverage.total)" + (coverage.unreached.isEmpty ? "" : "; documented but never reached:"), .bold))
            let shown = listsEveryUnreachedOperation || coverage.isListedInFull || listsEveryOccurrence ? coverage.unreached[...] : coverage.unreached.prefix(Self.coverageListed)
            for operation in shown { lines.append("  \(clean(operation))") }
            if shown.count < coverage.unreached.count { lines.append("  … and \(coverage.unreached.count - shown.count) more (--coverage lists them)") }
        }

        if let probing = report.probing {
            lines.append("")
            lines.append(style("Probed: " + ProbeSummaryText.line(probing), .bold))
            for skipped in probing.skipped.prefix(listsEveryOccurrence ? .max : Self.coverageListed) { lines.append("  not probed: \(clean(skipped))") }
            if !listsEveryOccurrence, probing.skipped.count > Self.coverageListed {
                lines.append("  … and \(probing.skipped.count - Self.coverageListed) more not probed (--dry-run lists them)")
            }
            if !probing.changed.isEmpty {
                lines.append("  changed and not put back (it could not be read before, or the API refused it back): " + probing.changed.map(clean).joined(separator: ", "))
            }
            if !probing.leftBehind.isEmpty {
                let shown = listsEveryOccurrence ? probing.leftBehind[...] : probing.leftBehind.prefix(Self.leftBehindListed)
                let more = probing.leftBehind.count - shown.count
                lines.append("  left behind (no DELETE advertised, or it failed): " + shown.map(clean).joined(separator: ", ")
                    + (more > 0 ? " … and \(more) more (the JSON report lists them)" : ""))
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

        if report.configuration.insecureTLS {
            lines.append("")
            lines.append(style("warning:", .yellow) + " --insecure: TLS certificates were not checked (issuer, dates, host name); pass --cacert FILE to check them against a private CA")
        }

        if let warning = report.nothingCheckedWarning {
            lines.append("")
            lines.append(style("warning:", .yellow) + " " + clean(warning))
        }

        lines.append("")
        lines.append(summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ defect: Defect, display: OccurrenceDisplay) -> [String] {
        let label = style(defect.severity.rawValue, defect.severity == .error ? .red : .yellow) + "[\(defect.rule)]"
        let noun = defect.rule == .driftCoverage || defect.rule.command == .probe || !defect.occurrences.contains { $0.rel != nil }
            ? "finding" : display.command.checkedThing
        var lines = ["\(label) \(clean(defect.title)) (\(defect.count) \(plural(defect.count, noun)))"]
        if listsEveryOccurrence {
            for (finding, line) in zip(defect.occurrences, display.lines(defect.occurrences)) {
                lines.append("  - " + clean(line))
                if let link = finding.linkDescription { lines.append(style("    link: " + clean(link), .dim)) }
                if let types = finding.typeDescription { lines.append(style("    type: " + clean(types), .dim)) }
            }
            if defect.count > defect.occurrences.count {
                lines.append("  - … and \(defect.count - defect.occurrences.count) more, not listed: \(Defect.omittedNote)")
            }
        } else {
            let shown = defect.occurrences.prefix(Self.exampleCount)
            var line = "  e.g. " + display.lines(shown).map(clean).joined(separator: "; ")
            if shown.count < defect.count { line += " … and \(defect.count - shown.count) more" }
            lines.append(style(line, .dim))
        }
        if defect.severity == .error || listsEveryOccurrence {
            lines.append(style("  reproduce: " + clean(defect.reproduction), .dim))
        }
        return lines
    }

    private func summary(_ report: CrawlReport) -> String {
        let counts = report.counts
        var text = "Summary: \(counts.resourcesFetched) \(plural(counts.resourcesFetched, "resource")) fetched, "
            + "\(counts.requests) \(plural(counts.requests, "request")); "
            + "\(counts.linksFound) \(plural(counts.linksFound, report.command.checkedThing)): \(counts.linksChecked) checked, "
            + "\(counts.linksNotChecked) not checked, \(counts.linksSkipped) skipped; "
            + "\(counts.defects) \(plural(counts.defects, "defect")) in \(counts.errors + counts.warnings) \(plural(counts.errors + counts.warnings, "finding")) "
            + "(\(counts.errors) \(plural(counts.errors, "error")), \(counts.warnings) \(plural(counts.warnings, "warning")))"
        if report.baseline != nil { text += ", \(counts.suppressed) suppressed by the baseline" }
        if counts.infrastructureErrors > 0 {
            text += "; \(counts.infrastructureErrors) infrastructure \(plural(counts.infrastructureErrors, "error"))"
        }
        if report.configuration.strict { text += " (strict: warnings fail)" }
        text += ". "
        let exitCode = report.exitCode
        switch exitCode {
        case .success:
            // A pass that limits cut short says so where the eye lands.
            let limited = report.findings.contains { $0.rule == .crawlLimit }
            // So does a pass that checked nothing beyond the root.
            let nothingChecked = report.nothingCheckedWarning == nil ? "" : ", with no link checked (see the warning)"
            text += style("Passed", .green) + (limited ? " within the crawl's limits, which left work out (see crawl-limit above; --strict fails on it)" : "") + nothingChecked + " (exit 0)."
        case .contractViolations: text += style("Failed", .red) + " (exit 1)."
        case .infrastructureError: text += style(Self.incomplete[report.command, default: "Incomplete"], .red) + " (exit 2)."
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
