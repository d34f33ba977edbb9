import APICheckReport
import Testing

@Suite struct MarkdownReportRendererTests {
    @Test func summaryTableThenFindingsByRule() {
        let expected = """
            ## apicheck crawl failed: 1 error, 2 warnings

            Root: https://api.example.com/ · started 2025-03-01T12:00:00.000Z · 3.250 s · apicheck 1.2.3

            | | Count |
            |---|---:|
            | Resources fetched | 4 |
            | Requests | 5 |
            | Links found | 6 |
            | Links checked | 3 |
            | Links not checked | 1 |
            | Links skipped | 2 |
            | Errors | 1 |
            | Warnings | 2 |

            ### `format-shape` (1): The representation follows the hypermedia format it claims.

            | Severity | Method | URL | Path | Message |
            |---|---|---|---|---|
            | warning | GET | https://api.example.com/movies/3 | root → library → movies\\[3\\] | \\_embedded must be an object of resources (expected an object, saw an array)<br>link: at /\\_embedded (HAL) |

            ### `link-resolves` (1): A GET link answers 2xx.

            | Severity | Method | URL | Path | Message |
            |---|---|---|---|---|
            | error | GET | https://api.example.com/movies/3/poster | root → library → movies\\[3\\] → poster | the link does not resolve (expected 2xx, saw 404 Not Found)<br>link: rel poster at /\\_links/poster (HAL) on https://api.example.com/movies/3<br>type: declared image/jpeg |

            ### `type-syntax` (1): Declared and served media types are valid, registered media types.

            | Severity | Method | URL | Path | Message |
            |---|---|---|---|---|
            | warning | GET | https://api.example.com/movies/3/poster | root → library → movies\\[3\\] → poster | the declared type is not registered (expected image/jpeg, saw image/jpg)<br>link: rel poster at /\\_links/poster (HAL) on https://api.example.com/movies/3<br>type: declared image/jpg |

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
            row == "| error | GET | https://h/a\\|b | root | pipe \\| star \\* under\\_score \\`code\\` \\[link\\](x) back\\\\slash &amp; amp<br>CRLF<br>LF<br>CR\\\\u{1B}\\[1m (saw &lt;script&gt;alert(1)&lt;/script&gt;) |")
        // Unescaped pipes only delimit the five columns.
        var unescapedPipes = 0
        var previous: Character = " "
        for character in row {
            if character == "|" && previous != "\\" { unescapedPipes += 1 }
            previous = character
        }
        #expect(unescapedPipes == 6)
    }

    @Test func rowsAreBounded() {
        let findings = (0..<30).map { Finding(rule: .linkResolves, url: "https://h/\($0)", message: "m") }
            + (0..<5).map { Finding(rule: .typeSyntax, url: "https://h/\($0)", message: "m") }
        let output = MarkdownReportRenderer(maximumFindings: 10).render(SampleReports.report(findings: findings, checks: []))
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") }.count == 10)
        #expect(output.contains("### `type-syntax` (5): "))
        #expect(output.contains("_25 more findings not shown; see the JSON or SARIF report for all of them._"))
    }

    @Test func passingCrawlSaysSo() {
        let output = MarkdownReportRenderer().render(SampleReports.report(findings: [], checks: []))
        #expect(output.hasPrefix("## apicheck crawl passed: 0 errors, 0 warnings\n"))
        #expect(output.hasSuffix("\nNo findings.\n"))
    }
}
