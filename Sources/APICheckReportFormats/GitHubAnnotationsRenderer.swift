import APICheckFindings
import APICheckModel
import APICheckSpool

/// GitHub Actions workflow commands (`--format github`): one `::error` or `::warning`
/// annotation per defect (its title, its occurrences and a reproduction) and per infrastructure
/// error, a `::notice` for stale baseline entries, then a plain summary line.
///
/// ```
/// ::error title=link-resolves%3A GET poster links answer 500%3A /poster/{id} must answer 2xx (2)::GET poster links answer 500: /poster/{id} must answer 2xx%0A2 occurrences:%0AGET /poster/10CFL via root → library → movies[9].poster%0A…
/// ```
///
/// Escaping follows the runner: `%`, CR and LF are percent-encoded in the message, and `:` and
/// `,` as well in property values; untrusted text cannot end a command or start a new one.
/// GitHub shows at most 10 annotations of each kind per step: one per defect keeps a crawl's
/// defects visible (errors first, then by count); every occurrence is in the JSON report.
public struct GitHubAnnotationsRenderer: ReportRenderer {
    /// The annotations renderer.
    /// Occurrences listed in one annotation before the rest are counted.
    public static let occurrencesPerAnnotation = 20

    public init() {}

    /// One line per annotation and a summary line.
    public func render(_ report: CrawlReport) -> String {
        var lines: [String] = []
        for problem in report.errors {
            let message = problem.url.map { "\(problem.message) (\($0))" } ?? problem.message
            lines.append(command("error", title: "\(report.tool.name): \(report.command.rawValue) error", message: message))
        }
        // One annotation per defect, worst first: GitHub shows at most 10 error and 10 warning
        // annotations per step, so per-occurrence annotations would hide most defects.
        let display = OccurrenceDisplay(root: report.root, command: report.command)
        for defect in report.defects {
            let shown = defect.occurrences.prefix(Self.occurrencesPerAnnotation)
            var message = "\(defect.title)\n\(defect.count) \(defect.count == 1 ? "occurrence" : "occurrences"):"
            for line in display.lines(shown) { message += "\n" + line }
            if shown.count < defect.count { message += "\n… and \(defect.count - shown.count) more (see the JSON report)" }
            message += "\nreproduce: \(defect.reproduction)"
            lines.append(
                command(
                    defect.severity == .error ? "error" : "warning", title: "\(defect.rule): \(defect.title) (\(defect.count))", message: message,
                    file: report.command == .verify ? shown.first.flatMap { Self.stubLocation($0) } : nil))
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
        var summary = "\(report.tool.name): \(counts.defects) defect\(counts.defects == 1 ? "" : "s") "
            + "(\(counts.errors) error\(counts.errors == 1 ? "" : "s"), "
            + "\(counts.warnings) warning\(counts.warnings == 1 ? "" : "s")) in \(counts.linksChecked) checked "
            + "\(report.command.checkedThing)\(counts.linksChecked == 1 ? "" : "s") (\(counts.linksNotChecked) not checked, \(counts.linksSkipped) skipped)"
        if report.baseline != nil { summary += ", \(counts.suppressed) suppressed by the baseline" }
        summary += "; exit code \(report.exitCode.rawValue)."
        // An ordinary log line must not be mistaken for a command either.
        lines.append(Escaping.githubData(Escaping.visibleControlCharacters(summary)))
        return lines.joined(separator: "\n") + "\n"
    }

    private func command(_ name: String, title: String, message: String, file: (path: String, line: Int)? = nil) -> String {
        let title = Escaping.visibleControlCharactersExceptNewlines(title)
        let message = Escaping.visibleControlCharactersExceptNewlines(message)
        // A verify drift annotates the stub file it concerns, so the pull request shows it there.
        let location = file.map { "file=\(Escaping.githubProperty($0.path)),line=\($0.line)," } ?? ""
        return "::\(name) \(location)title=\(Escaping.githubProperty(title))::\(Escaping.githubData(message))"
    }

    /// `stubs/orders.json:3:5` (a verify finding's referrer) → (`stubs/orders.json`, 3).
    static func stubLocation(_ finding: Finding) -> (path: String, line: Int)? {
        guard finding.relPath.isEmpty, let referrer = finding.referrer, !referrer.contains("://") else { return nil }
        let parts = referrer.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil else { return nil }
        return (parts.dropLast(2).joined(separator: ":"), line)
    }
}
