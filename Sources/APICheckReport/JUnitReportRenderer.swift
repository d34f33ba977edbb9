/// JUnit XML (`--format junit`) in the de facto Ant schema that GitHub test reporters, GitLab
/// and Jenkins read.
///
/// - One `<testsuite>` per resource: the links found on it (its checked links, by referrer;
///   the root's own check belongs to the root's suite) and the findings about the resource
///   itself. A suite then reads like a page of the API with its links as cases, and a broken
///   resource shows up as one red suite. (Per rule would split one link's findings over
///   several suites, and a rule is not a test.)
/// - One `<testcase>` per checked link, named `METHOD url via root → … → rel`. Findings that
///   concern no checked link (e.g. `format-shape` of a representation) get a case of their own,
///   named `METHOD url`.
/// - Failing findings (errors; warnings too under `--strict`) become one `<failure>` per case:
///   `type` is the first failing rule id, `message` its message, the body lists them all (the
///   Ant schema allows one failure per case). Other warnings go to the case's `<system-out>`.
/// - Links not checked or skipped are `<skipped message="…"/>`.
/// - Infrastructure errors are `<error>`s in a suite named after the tool.
///
/// All text is escaped; characters XML 1.0 cannot carry at all are written as `\u{…}`.
public struct JUnitReportRenderer: ReportRenderer {
    /// The JUnit renderer.
    public init() {}

    private struct TestCase {
        var name: String
        var classname: String
        var time: Duration?
        var findings: [Finding]
        var skipped: String?
    }

    /// The JUnit XML document, UTF-8, with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        var suites: [String: [TestCase]] = [:]
        var attached = Set<LinkKey>()
        let findingsByLink = report.findingsByLink
        for check in report.checks {
            let suite = check.referrer ?? report.root
            let findings = findingsByLink[check.linkKey] ?? []
            attached.insert(check.linkKey)
            var skipped: String?
            switch check.outcome {
            case .notChecked(let reason): skipped = reason.isEmpty ? "not checked" : "not checked: " + reason
            case .skipped(let reason): skipped = reason.isEmpty ? "skipped" : "skipped: " + reason
            case .passed, .failed: break
            }
            let name = "\(check.method) \(check.url) via \(check.relPathDescription)"
            suites[suite, default: []].append(
                TestCase(name: name, classname: suite, time: check.duration, findings: findings, skipped: skipped))
        }
        // Findings without a checked link: one case per resource and method, in report order.
        var loose: [String: Int] = [:]
        for finding in report.findings where !attached.contains(finding.linkKey) {
            let suite = finding.referrer ?? finding.url
            let name = "\(finding.method) \(finding.url)"
            let key = suite + "\u{0}" + name
            if let index = loose[key] {
                suites[suite]?[index].findings.append(finding)
            } else {
                loose[key] = suites[suite, default: []].count
                suites[suite, default: []].append(TestCase(name: name, classname: suite, time: nil, findings: [finding], skipped: nil))
            }
        }

        let fails = report.configuration.fails
        var body: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)
        for suiteName in suites.keys.sorted() {
            let cases = suites[suiteName] ?? []
            let failures = cases.filter { $0.findings.contains { fails($0.severity) } }.count
            let skipped = cases.filter { $0.skipped != nil }.count
            let time = cases.reduce(Duration.zero) { $0 + ($1.time ?? .zero) }
            totals.tests += cases.count
            totals.failures += failures
            totals.skipped += skipped
            body.append(
                "  <testsuite name=\"\(x(suiteName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" "
                    + "skipped=\"\(skipped)\" time=\"\(ReportTime.secondsText(time))\" "
                    + "timestamp=\"\(ReportTime.iso8601(report.startTime))\">")
            for testCase in cases {
                body.append(contentsOf: render(testCase, fails: fails))
            }
            body.append("  </testsuite>")
        }
        if !report.errors.isEmpty {
            let name = report.tool.name
            totals.tests += report.errors.count
            totals.errors += report.errors.count
            body.append(
                "  <testsuite name=\"\(x(name))\" tests=\"\(report.errors.count)\" failures=\"0\" errors=\"\(report.errors.count)\" "
                    + "skipped=\"0\" time=\"0.000\" timestamp=\"\(ReportTime.iso8601(report.startTime))\">")
            for problem in report.errors {
                let target = problem.url.map { " " + $0 } ?? ""
                body.append("    <testcase name=\"crawl\(x(target))\" classname=\"\(x(name))\" time=\"0.000\">")
                body.append("      <error type=\"infrastructure\" message=\"\(x(problem.message))\"></error>")
                body.append("    </testcase>")
            }
            body.append("  </testsuite>")
        }

        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        lines.append(
            "<testsuites name=\"\(x("\(report.tool.name) crawl \(report.root)"))\" tests=\"\(totals.tests)\" "
                + "failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" "
                + "time=\"\(ReportTime.secondsText(report.duration))\">")
        lines.append(contentsOf: body)
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ testCase: TestCase, fails: (Severity) -> Bool) -> [String] {
        var lines: [String] = []
        let time = ReportTime.secondsText(testCase.time ?? .zero)
        let failing = testCase.findings.filter { fails($0.severity) }
        let other = testCase.findings.filter { !fails($0.severity) }
        let opening = "    <testcase name=\"\(x(testCase.name))\" classname=\"\(x(testCase.classname))\" time=\"\(time)\""
        if failing.isEmpty, other.isEmpty, testCase.skipped == nil {
            return [opening + "/>"]
        }
        lines.append(opening + ">")
        if let first = failing.first {
            let message = failing.count == 1 ? first.messageWithEvidence : "\(failing.count) findings; first: \(first.messageWithEvidence)"
            let text = failing.map { $0.plainLines.joined(separator: "\n") }.joined(separator: "\n\n")
            lines.append("      <failure type=\"\(x(first.rule.rawValue))\" message=\"\(x(message))\">\(x(text))</failure>")
        } else if let skipped = testCase.skipped {
            lines.append("      <skipped message=\"\(x(skipped))\"/>")
        }
        if !other.isEmpty {
            let text = other.map { $0.plainLines.joined(separator: "\n") }.joined(separator: "\n\n")
            lines.append("      <system-out>\(x(text))</system-out>")
        }
        lines.append("    </testcase>")
        return lines
    }

    private func x(_ text: String) -> String { Escaping.xml(text) }
}
