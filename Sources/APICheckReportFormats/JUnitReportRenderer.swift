import APICheckFindings
import APICheckModel
import APICheckXML
import APICheckSpool

/// JUnit XML (`--format junit`) in the de facto Ant schema that GitHub test reporters, GitLab
/// and Jenkins read.
///
/// - One `<testsuite>` per rule. Each **defect** of the rule is a `<testcase>` named after its
///   title, with a `<failure>` when it fails the crawl (an error; a warning too under
///   `--strict`) or its text in `<system-out>` otherwise; the body lists every occurrence
///   (`METHOD url via root → …`) and the reproduction. A rule without defects has one passing
///   case, so a clean crawl reads as passed tests rather than no tests.
/// - Every place in the API's shape whose checks all passed: one passing case (`GET root → library`)
///   in the suite `apicheck.checked`, so CI shows what the crawl covered.
/// - Links not checked or skipped: one `<skipped>` case per reason, in a suite of their own.
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
        var defect: Defect?
        var skipped: String?
    }

    /// The JUnit XML document, UTF-8, with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        var suites: [String: [TestCase]] = [:]
        let defects = report.defects
        let display = OccurrenceDisplay(root: report.root, command: report.command)
        let checkedLinks = report.checkCounts.reduce(0) { $0 + $1.passed + $1.failed }
        for rule in RuleID.rules(of: report.command) where report.configuration.level(for: rule) != .off {
            let suite = "\(report.tool.name).\(rule.rawValue)"
            let cases = defects.filter { $0.rule == rule }.map { defect in
                TestCase(name: "\(defect.title) [\(defect.id)]", classname: suite, time: nil, defect: defect, skipped: nil)
            }
            suites[suite] = cases.isEmpty
                ? [TestCase(name: "no \(rule.rawValue) defects in \(checkedLinks) checked \(report.command.checkedThing)s", classname: suite, time: nil, defect: nil, skipped: nil)]
                : cases
        }
        let unchecked = UncheckedGroup.groups(of: report.checks.filter { !$0.outcome.wasChecked })
        if !unchecked.isEmpty {
            let suite = "\(report.tool.name).unchecked"
            suites[suite] = unchecked.map { group in
                let examples = group.checks.prefix(3).map { "\($0.method) \(display.url($0.url))" }.joined(separator: ", ")
                let more = group.checks.count > 3 ? " … and \(group.checks.count - 3) more" : ""
                return TestCase(
                    name: "\(group.checks.first?.outcome.name ?? "skipped"): \(group.reason.isEmpty ? "no reason given" : group.reason) (\(group.checks.count))",
                    classname: suite, time: nil, defect: nil, skipped: examples + more)
            }
        }

        // What was checked and passed, one case per place in the API's shape: CI shows what the
        // crawl covered (named without counts, so a case keeps its history from run to run).
        let passedPlaces = report.checkCounts.filter { $0.failed == 0 && $0.passed > 0 }
        if !passedPlaces.isEmpty {
            let suite = "\(report.tool.name).checked"
            suites[suite] = passedPlaces.map { place in
                TestCase(name: "\(place.method) \(RelPath.abbreviatedShape(place.place))", classname: suite, time: nil, defect: nil, skipped: nil)
            }
        }

        // Documented operations the crawl never reached: skipped cases, which CI shows as such.
        if let coverage = report.operationCoverage, !coverage.unreached.isEmpty {
            let suite = "\(report.tool.name).openapi-coverage"
            suites[suite] = coverage.unreached.map { operation in
                TestCase(
                    name: operation, classname: suite, time: nil, defect: nil,
                    skipped: "documented but never reached (\(coverage.reached) of \(coverage.total) operations reached)")
            }
        }

        let fails = report.configuration.fails
        var body: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)
        for suiteName in suites.keys.sorted() {
            let cases = suites[suiteName] ?? []
            let failures = cases.filter { $0.defect.map { fails($0.severity) } ?? false }.count
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
                body.append(contentsOf: render(testCase, fails: fails, display: display))
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
                body.append("    <testcase name=\"\(report.command.rawValue)\(x(target))\" classname=\"\(x(name))\" time=\"0.000\">")
                body.append("      <error type=\"infrastructure\" message=\"\(x(problem.message))\"></error>")
                body.append("    </testcase>")
            }
            body.append("  </testsuite>")
        }

        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        lines.append(
            "<testsuites name=\"\(x("\(report.tool.name) \(report.command.rawValue) \(report.root)"))\" tests=\"\(totals.tests)\" "
                + "failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" "
                + "time=\"\(ReportTime.secondsText(report.duration))\">")
        lines.append(contentsOf: body)
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ testCase: TestCase, fails: (Severity) -> Bool, display: OccurrenceDisplay) -> [String] {
        let time = ReportTime.secondsText(testCase.time ?? .zero)
        let opening = "    <testcase name=\"\(x(testCase.name))\" classname=\"\(x(testCase.classname))\" time=\"\(time)\""
        if let defect = testCase.defect {
            var text = "\(defect.severity)[\(defect.rule)] \(defect.title)\n\(defect.count) \(defect.count == 1 ? "occurrence" : "occurrences"):"
            for finding in defect.occurrences {
                text += "\n\(finding.method) \(display.url(finding.url)) \(display.reached(finding))"
                if let link = finding.linkDescription { text += "\n  link: \(link)" }
            }
            if defect.count > defect.occurrences.count {
                text += "\n… and \(defect.count - defect.occurrences.count) more, not listed: \(Defect.omittedNote)"
            }
            text += "\nreproduce: \(defect.reproduction)"
            if fails(defect.severity) {
                return [opening + ">", "      <failure type=\"\(x(defect.rule.rawValue))\" message=\"\(x(defect.title))\">\(x(text))</failure>", "    </testcase>"]
            }
            return [opening + ">", "      <system-out>\(x(text))</system-out>", "    </testcase>"]
        }
        if let skipped = testCase.skipped {
            return [opening + ">", "      <skipped message=\"\(x(skipped))\"/>", "    </testcase>"]
        }
        return [opening + "/>"]
    }

    private func x(_ text: String) -> String { XMLText.escaped(text) }
}
