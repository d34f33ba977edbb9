import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import Testing

/// `--openapi` coverage in every format: the operations reached counted, the others listed.
@Suite struct OperationCoverageTests {
    static func report(unreached: [String], total: Int = 14) -> CrawlReport {
        var report = SampleReports.report()
        report.operationCoverage = OperationCoverage(total: total, unreached: unreached)
        return report
    }

    static let many = (1...12).map { "GET /things/\($0)" }

    @Test func textListsTheFirstTenThenCounts() {
        let text = TextReportRenderer().render(Self.report(unreached: Self.many))
        #expect(text.contains("Operations reached: 2 of 14; documented but never reached:\n  GET /things/1\n"))
        #expect(text.contains("  GET /things/10\n  … and 2 more (--coverage lists them)\n"))
        #expect(!text.contains("GET /things/11"))
        var listed = Self.report(unreached: Self.many)
        listed.operationCoverage?.isListedInFull = true
        #expect(TextReportRenderer().render(listed).contains("  GET /things/12\n"))
        #expect(TextReportRenderer().render(Self.report(unreached: [], total: 3)).contains("Operations reached: 3 of 3\n"))
        #expect(!TextReportRenderer().render(SampleReports.report()).contains("Operations reached"))
    }

    @Test func jsonWritesAndReadsItBack() throws {
        let report = Self.report(unreached: ["GET /movies/{id}/cast", "POST /movies"], total: 5)
        let bytes = Array(JSONReportRenderer().render(report).utf8)
        let written = try JSONParser().parseValue(bytes)
        #expect(written["operationCoverage"] == .object([
            JSONMember("total", 5), JSONMember("reached", 3), JSONMember("unreached", .array(["GET /movies/{id}/cast", "POST /movies"])),
        ]))
        let read = try CrawlReport(decoding: bytes)
        #expect(read.operationCoverage == OperationCoverage(total: 5, unreached: ["GET /movies/{id}/cast", "POST /movies"]))
        #expect(try CrawlReport(decoding: Array(JSONReportRenderer().render(SampleReports.report()).utf8)).operationCoverage == nil)
    }

    @Test func mergedShardsReachWhatAnyReached() throws {
        let merged = OperationCoverage.merged([
            OperationCoverage(total: 4, unreached: ["GET /a", "GET /b", "GET /c"]), OperationCoverage(total: 4, unreached: ["GET /b", "GET /c", "GET /d"]),
        ])
        #expect(merged == OperationCoverage(total: 4, unreached: ["GET /b", "GET /c"]))
        #expect(OperationCoverage.merged([]) == nil)
    }

    @Test func junitSkipsEachUnreachedOperation() {
        let xml = JUnitReportRenderer().render(Self.report(unreached: ["GET /movies/{id}/cast"], total: 2))
        #expect(xml.contains(#"<testsuite name="apicheck.openapi-coverage" tests="1" failures="0" errors="0" skipped="1""#))
        #expect(xml.contains(#"<testcase name="GET /movies/{id}/cast" classname="apicheck.openapi-coverage" time="0.000">"#))
        #expect(xml.contains(#"<skipped message="documented but never reached (1 of 2 operations reached)"/>"#))
    }

    @Test func markdownHasASection() {
        let markdown = MarkdownReportRenderer().render(Self.report(unreached: ["GET /movies/{id}/cast"], total: 2))
        #expect(markdown.contains("### OpenAPI operations reached: 1 of 2\n\nDocumented but never reached:\n\n- `GET /movies/{id}/cast`\n"))
    }
}
