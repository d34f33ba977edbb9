import APICheckModel
import APICheckSpool

/// Redaction of the report's values (findings, checks, whole reports): the masking itself is
/// ``Redaction`` in APICheckModel, which the recorder uses without the report model.
extension Redaction {
    /// The finding with every URL and text field redacted.
    public func finding(_ finding: Finding) -> Finding {
        self.finding(finding, relPathRedacted: false)
    }

    /// The finding redacted; its rel path left as it is when `relPathRedacted` (the crawler
    /// redacts each label once, when it makes it: a path is otherwise redacted step by step for
    /// every link found beyond it).
    package func finding(_ finding: Finding, relPathRedacted: Bool) -> Finding {
        var result = finding
        result.url = url(finding.url)
        result.referrer = finding.referrer.map(url)
        result.message = text(finding.message)
        result.expected = finding.expected.map(text)
        result.actual = finding.actual.map(text)
        result.sourcePointer = finding.sourcePointer.map(text)
        result.declaredType = finding.declaredType.map(text)
        result.servedType = finding.servedType.map(text)
        result.rel = finding.rel.map(text)
        if let probe = finding.probe {
            result.probe?.label = text(probe.label)
            result.probe?.body = probe.body.map(text)
        }
        if !relPathRedacted { result.relPath = redactedLabels(finding.relPath) }
        return result
    }

    /// The check with every URL and text field redacted.
    public func check(_ check: CheckedLink) -> CheckedLink {
        self.check(check, relPathRedacted: false)
    }

    /// The check redacted; its rel path left as it is when `relPathRedacted` (see
    /// ``finding(_:relPathRedacted:)``).
    package func check(_ check: CheckedLink, relPathRedacted: Bool) -> CheckedLink {
        var result = check
        result.url = url(check.url)
        result.referrer = check.referrer.map(url)
        result.sourcePointer = check.sourcePointer.map(text)
        result.rel = check.rel.map(text)
        if !relPathRedacted { result.relPath = redactedLabels(check.relPath) }
        switch check.outcome {
        case .notChecked(let reason): result.outcome = .notChecked(reason: text(reason))
        case .skipped(let reason): result.outcome = .skipped(reason: text(reason))
        case .passed, .failed: break
        }
        return result
    }

    /// The whole report redacted: a last line of defence before rendering.
    public func report(_ report: CrawlReport) -> CrawlReport {
        var result = report
        result.root = url(report.root)
        result.setFindings(report.findings.map(finding))
        if let probing = report.probing {
            result.probing?.leftBehind = probing.leftBehind.map(url)
            result.probing?.changed = probing.changed.map(url)
            result.probing?.skipped = probing.skipped.map(text)
        }
        // Usually nothing is left to redact: then the checks keep their (shared) storage.
        if report.checks.redaction == self {
            // Redacted as they were collected.
        } else if report.checks.contains(where: { check($0) != $0 }) {
            // Checks are ordered by discovery index, which masking leaves alone; checks of reports
            // before version 4 (index 0) are ordered by URL, so those, in memory, are sorted again.
            let redacted = report.checks.mapped { [self] in self.check($0) }
            result.setSortedChecks(
                redacted.isSpooled ? redacted : CheckList(redacted.sortedRemovingDuplicates()), counts: report.checkCounts,
                listsEveryCheck: report.listsEveryCheck)
        }
        if report.checkCounts.contains(where: { $0.reasons.contains { text($0.reason) != $0.reason } }) {
            var tally = CheckTally()
            for var count in report.checkCounts {
                count.reasons = count.reasons.map { CheckCount.Reason(outcome: $0.outcome, reason: text($0.reason), count: $0.count) }
                tally.add(count)
            }
            result.setSortedChecks(result.checks, counts: tally.counts, listsEveryCheck: report.listsEveryCheck)
        }
        result.setErrors(report.errors.map { CrawlProblem(message: text($0.message), url: $0.url.map(url)) })
        if var baseline = report.baseline {
            baseline.stale = baseline.stale.map { entry in
                var entry = entry
                entry.url = url(entry.url)
                return entry
            }
            result.baseline = baseline
        }
        return result
    }

    /// The path itself (its storage still shared) unless a label needs redacting.
    private func redactedLabels(_ path: RelPath) -> RelPath {
        let labels = path.labels
        guard labels.contains(where: { text($0) != $0 }) else { return path }
        return RelPath(labels.map(text))
    }

}
