import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct MarkdownReportRendererTests {
    @Test func summaryTableThenOneRowPerDefect() {
        let expected = """
            ## apicheck crawl failed: 3 defects (1 error, 2 warnings)

            Root: https://api.example.com/ · started 2025-03-01T12:00:00.000Z · 3.250 s · apicheck 1.2.3

            | | Count |
            |---|---:|
            | Resources fetched | 4 |
            | Requests | 5 |
            | Links found | 6 |
            | Links checked | 3 |
            | Links not checked | 1 |
            | Links skipped | 2 |
            | Defects | 3 |
            | Errors | 1 |
            | Warnings | 2 |

            ### Defects (3)

            | | Rule | Defect | Links | Examples | Reproduce |
            |---|---|---|---:|---|---|
            | error | `link-resolves` | the link does not resolve (expected 2xx, saw 404 Not Found) | 1 | GET /movies/3/poster via root → library → movies\\[3\\] → poster | `curl -i 'https://api.example.com/movies/3/poster'` |
            | warning | `format-shape` | \\_embedded must be an object of resources (saw an array) | 1 | GET /movies/3 via root → library → movies\\[3\\] | `curl -i 'https://api.example.com/movies/3'` |
            | warning | `type-syntax` | the declared type is not registered (expected image/jpeg, saw image/jpg) | 1 | GET /movies/3/poster via root → library → movies\\[3\\] → poster | `curl -i 'https://api.example.com/movies/3'` |

            """
        #expect(MarkdownReportRenderer().render(SampleReports.report()) == expected)
    }

    @Test func cellsCannotBreakTheTable() {
        let finding = Finding(
            rule: .typeMatches, url: "https://h/a|b", actual: "<script>alert(1)</script>",
            message: "pipe | star * under_score `code` [link](x) back\\slash & amp\r\nCRLF\nLF\rCR\u{1B}[1m")
        let output = MarkdownReportRenderer().render(SampleReports.report(findings: [finding], checks: []))
        let row = output.split(separator: "\n").first { $0.hasPrefix("| error |") }.map(String.init) ?? ""
        #expect(
            row == "| error | `type-matches` | pipe \\| star \\* under\\_score \\`code\\` \\[link\\](x) back\\\\slash &amp; amp<br>CRLF<br>LF<br>CR\\\\u{1B}\\[1m (saw &lt;script&gt;alert(1)&lt;/script&gt;) | 1 | GET https://h/a\\|b via root | `curl -i 'https://h/a\\|b'` |")
        // Unescaped pipes only delimit the six columns.
        var unescapedPipes = 0
        var previous: Character = " "
        for character in row {
            if character == "|" && previous != "\\" { unescapedPipes += 1 }
            previous = character
        }
        #expect(unescapedPipes == 7)
    }

    @Test func rowsAreBounded() {
        let findings = (0..<30).map { Finding(rule: .linkResolves, url: "https://h/\($0)", rel: "r\($0)", message: "m") }
            + (0..<5).map { Finding(rule: .typeSyntax, url: "https://h/\($0)", message: "m") }
        let output = MarkdownReportRenderer(maximumFindings: 10).render(SampleReports.report(findings: findings, checks: []))
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") }.count == 10)
        #expect(output.contains("### Defects (31)"))
        #expect(output.contains("_21 more defects not shown; see the JSON or SARIF report for all of them._"))
    }

    @Test func examplesAreBoundedUnlessVerbose() {
        let findings = (0..<5).map { Finding(rule: .typeSyntax, url: "https://api.example.com/\($0)", actual: "image/jpg", message: "m") }
        let report = SampleReports.report(findings: findings, checks: [])
        #expect(MarkdownReportRenderer().render(report).contains("GET /2 via root<br>… and 2 more |"))
        #expect(MarkdownReportRenderer(listsEveryOccurrence: true).render(report).contains("GET /4 via root |"))
    }

    @Test func passingCrawlSaysSo() {
        let output = MarkdownReportRenderer().render(SampleReports.report(findings: [], checks: []))
        #expect(output.hasPrefix("## apicheck crawl passed: 0 defects (0 errors, 0 warnings)\n"))
        #expect(output.hasSuffix("\nNo findings.\n"))
    }
}
