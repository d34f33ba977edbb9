import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import Testing

/// A probe's report in every format: its rules, the shrunk request and its reproduction, and the
/// `Probed:` summary.
@Suite struct ProbeReportTests {
    static let duplicate: Finding = {
        var finding = Finding(
            rule: .probeServerError, method: "POST", url: "http://localhost:8000/authors", rel: "default", sourcePointer: "/_templates/default",
            format: "HAL-FORMS", relPath: ["authors", "default"], referrer: "http://localhost:8000/authors", expected: "2xx, 409 or another 4xx, never a 5xx",
            actual: "500", message: "POST default (HAL-FORMS) answered 500 to the same valid body sent twice")
        finding.probe = ProbeRequest(label: "valid: example 1, sent twice", contentType: "application/json", body: #"{"name":"Ada"}"#, sends: 2)
        return finding
    }()

    static let size: Finding = {
        var finding = Finding(
            rule: .probeAcceptsInvalid, url: "http://localhost:8000/books?size=0", rel: "searchBooks", format: "HAL-FORMS", relPath: ["searchBooks"],
            expected: "a 4xx: the body breaks minimum", actual: "200", message: "GET searchBooks (HAL-FORMS) accepted (200) a body that breaks minimum: size: min - 1 (0)")
        finding.probe = ProbeRequest(label: "size: min - 1 (0)", field: "size")
        return finding
    }()

    static func report() -> CrawlReport {
        var report = SampleReports.report(findings: [duplicate, size])
        report.command = .probe
        report.probing = ProbeSummary(writes: 4, queryForms: 1, templatedReads: 3, skipped: ["PUT edit (HAL-FORMS) at root → authors → edit: --skip edit"], requests: 120, created: 3, deleted: 2, leftBehind: ["http://localhost:8000/reviews/9"])
        return report
    }

    @Test func theJSONReportReadsBackWhole() throws {
        let report = Self.report()
        let decoded = try CrawlReport(decoding: Array(JSONReportRenderer(occurrencesListed: nil).render(report).utf8))
        #expect(decoded == report)
        #expect(decoded.findings.first { $0.rule == .probeServerError }?.probe == Self.duplicate.probe)
    }

    @Test func theReproductionSendsTheShrunkBodyAndAReadItsURL() {
        #expect(Reproduction.of(Self.duplicate, headers: ["Authorization"])
            == #"for i in $(seq 2); do curl -i -X 'POST' -H "Authorization: $AUTHORIZATION" -H 'Content-Type: application/json' --data-binary '{"name":"Ada"}' 'http://localhost:8000/authors'; done"#)
        #expect(Reproduction.of(Self.size) == "curl -i 'http://localhost:8000/books?size=0'")
        var traversal = Self.size
        traversal.url = "http://localhost:8000/items/../etc?x=../"
        #expect(Reproduction.of(traversal) == "curl -i --path-as-is 'http://localhost:8000/items/../etc?x=../'", "curl sends the dot segment as the probe did")
        #expect(Reproduction.curl(method: "GET", url: "http://h/a..b/c") == "curl -i 'http://h/a..b/c'")
    }

    @Test func everyFormatNamesTheProbeRules() {
        let report = Self.report()
        let text = TextReportRenderer(useColor: false).render(report)
        #expect(text.contains("apicheck 1.2.3 probe of "))
        #expect(text.contains("error[probe-server-error] POST default (HAL-FORMS) answered 500 to the same valid body sent twice: answer 2xx to input the API accepts and 4xx to input it refuses, never 5xx"), "\(text)")
        #expect(text.contains("--data-binary '{\"name\":\"Ada\"}' 'http://localhost:8000/authors'; done"))
        #expect(text.contains("Probed: 4 write affordances, 1 search form, 3 templated reads, 120 probe requests sent, 3 created, 2 deleted again, 1 not probed"), "\(text)")
        #expect(text.contains("  not probed: PUT edit (HAL-FORMS) at root → authors → edit: --skip edit"))
        #expect(text.contains("  left behind (no DELETE advertised, or it failed): http://localhost:8000/reviews/9\n"))
        #expect(text.contains("answered 500 to the same valid body sent twice: answer 2xx to input the API accepts and 4xx to input it refuses, never 5xx (1 finding)"), "\(text)")
        var many = report
        many.probing?.leftBehind = (1...5).map { "http://localhost:8000/reviews/\($0)" }
        #expect(TextReportRenderer().render(many).contains(
            "left behind (no DELETE advertised, or it failed): http://localhost:8000/reviews/1, http://localhost:8000/reviews/2, http://localhost:8000/reviews/3 … and 2 more (the JSON report lists them)"))
        let junit = JUnitReportRenderer().render(report)
        for rule in [RuleID.probeServerError, .probeResponseType, .probeAcceptsInvalid, .probeCreatedResolves] {
            #expect(junit.contains("testsuite name=\"apicheck.\(rule.rawValue)\""), "\(rule) has its suite")
        }
        let sarif = SARIFReportRenderer().render(report)
        #expect(sarif.contains("\"id\":\"probe-accepts-invalid\"") || sarif.contains("\"id\": \"probe-accepts-invalid\""))
        let github = GitHubAnnotationsRenderer().render(report)
        #expect(github.contains("::error") && github.contains("probe-server-error"))
        #expect(MarkdownReportRenderer().render(report).contains("### Probed: 4 write affordances"))
    }
}
