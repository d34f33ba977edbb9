import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

/// A report says which command wrote it: verify's reports list the drift rules, crawl's the
/// contract rules, and the two never merge.
@Suite struct ReportCommandTests {
    private func verifyReport() -> CrawlReport {
        var report = CrawlReport(
            tool: ToolInfo(version: "1.2.3"), root: "https://api.example.com", startTime: Date(timeIntervalSince1970: 0), duration: .seconds(1),
            findings: [Finding(rule: .driftStatus, url: "https://api.example.com/orders/42", rel: "orders/42.json", referrer: "stubs/orders/42.json:1:1", message: "expected 200, saw 404")])
        report.command = .verify
        return report
    }

    @Test func everyRuleBelongsToItsCommandsAndOnlyBodySchemaToBoth() {
        let crawl = RuleID.rules(of: .crawl)
        let verify = RuleID.rules(of: .verify)
        let probe = RuleID.rules(of: .probe)
        // Both check live bodies against their profiles; every other rule is one command's.
        #expect(Set(crawl).intersection(verify) == [.bodySchema])
        // A probe crawls first: its reports list the crawl's rules and its own.
        #expect(Set(probe) == Set(crawl).union([.probeServerError, .probeResponseType, .probeAcceptsInvalid, .probeCreatedResolves]))
        #expect(Set(crawl).union(verify).union(probe) == Set(RuleID.allCases))
        #expect(verify.allSatisfy { $0.rawValue.hasPrefix("drift-") || $0 == .bodySchema })
        #expect(RuleID.allCases.allSatisfy { $0.commands.contains($0.command) })
    }

    @Test func verifyReportsListOnlyDriftRules() throws {
        let report = verifyReport()
        let junit = JUnitReportRenderer().render(report)
        #expect(junit.contains(#"<testsuite name="apicheck.drift-status""#))
        #expect(!junit.contains("apicheck.link-resolves"), "a verify run checks no links")
        let text = TextReportRenderer().render(report)
        #expect(text.hasPrefix("apicheck 1.2.3 verify of stubs against https://api.example.com"))
        let sarif = SARIFReportRenderer().render(report)
        #expect(sarif.contains(#""id" : "drift-status""#) || sarif.contains(#""id": "drift-status""#))
        #expect(!sarif.contains("\"link-resolves\""))
        let github = GitHubAnnotationsRenderer().render(report)
        #expect(github.hasPrefix("::error file=stubs/orders/42.json,line=1,title=drift-status"), "annotated on the stub file: \(github)")
        #expect(text.contains("GET /orders/42 (stub stubs/orders/42.json:1:1)"), "\(text)")
    }

    @Test func theCommandSurvivesJSONAndRefusesMixedMerges() throws {
        let report = verifyReport()
        let decoded = try CrawlReport(decoding: Array(JSONReportRenderer().render(report).utf8))
        #expect(decoded.command == .verify)
        var crawl = report
        crawl.command = .crawl
        #expect(throws: ReportMergeError.self) { try CrawlReport.merging([report, crawl]) }
        let unknown = JSONReportRenderer().render(report).replacingOccurrences(of: #""command": "verify""#, with: #""command": "fuzz""#)
        let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(unknown.utf8), path: "r.json") }
        #expect(error?.description.contains("r.json:") == true && error?.description.contains("expected crawl or verify") == true, "\(String(describing: error))")
    }
}
