import APICheckReport
import Testing

@Suite struct TextReportRendererTests {
    @Test func groupsFindingsByResourceAndSummarises() {
        let expected = """
            apicheck 1.2.3 crawl of https://api.example.com/

            https://api.example.com/movies/3
              warning[format-shape] GET https://api.example.com/movies/3 — _embedded must be an object of resources (expected an object, saw an array)
                path: root → library → movies[3]
                link: at /_embedded (HAL)

            https://api.example.com/movies/3/poster
              error[link-resolves] GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404 Not Found)
                path: root → library → movies[3] → poster
                link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3
                type: declared image/jpeg
              warning[type-syntax] GET https://api.example.com/movies/3/poster — the declared type is not registered (expected image/jpeg, saw image/jpg)
                path: root → library → movies[3] → poster
                link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3
                type: declared image/jpg

            Not checked:
              GET https://api.example.com/movies{?page} (root → search) — needs variables: page

            Skipped:
              DELETE https://api.example.com/movies/3 (root → library → movies[3] → delete) — unsafe method without --unsafe
              GET https://partner.example.org/ (root → partner) — other origin

            Summary: 4 resources fetched, 5 requests; 6 links: 3 checked, 1 not checked, 2 skipped; 1 error, 2 warnings. Failed (exit 1).

            """
        #expect(TextReportRenderer().render(SampleReports.report()) == expected)
    }

    @Test func cleanCrawlWithErrorsBaselineAndShard() throws {
        var report = SampleReports.report(
            findings: [], checks: [SampleReports.checks[0]], errors: [CrawlProblem(message: "connection refused", url: SampleReports.root)],
            configuration: RuleConfiguration(strict: true), shard: Shard(index: 2, count: 3))
        report = Baseline(findings: [SampleReports.brokenPoster]).apply(to: report)
        let expected = """
            apicheck 1.2.3 crawl of https://api.example.com/ (shard 2/3)

            Infrastructure errors:
              error: connection refused (https://api.example.com/)

            Baseline: 1 entry matches no finding any more (remove or rewrite the baseline):
              link-resolves GET https://api.example.com/movies/3/poster [d78fc725aa0100e9]

            Summary: 4 resources fetched, 5 requests; 1 link: 1 checked, 0 not checked, 0 skipped; 0 errors, 0 warnings, 0 suppressed by the baseline; 1 infrastructure error (strict: warnings fail). Crawl incomplete (exit 2).

            """
        #expect(TextReportRenderer(listsUncheckedLinks: false).render(report) == expected)
    }

    @Test func colourOnlyWhenAsked() {
        let plain = TextReportRenderer(useColor: false).render(SampleReports.report())
        let coloured = TextReportRenderer(useColor: true).render(SampleReports.report())
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[1;31merror\u{1B}[0m[link-resolves]"))
        #expect(coloured.contains("\u{1B}[1;33mwarning\u{1B}[0m[type-syntax]"))
        #expect(coloured.contains("\u{1B}[1;31mFailed\u{1B}[0m (exit 1)."))
    }

    @Test func untrustedTextCannotDriveTheTerminal() {
        let hostile = Finding(
            rule: .typeMatches, url: "https://api.example.com/x\u{1B}[2J", actual: "text/html\u{1B}]0;owned\u{07}",
            message: "line one\nline two\r\u{202E}reversed\u{9B}31m")
        let output = TextReportRenderer(useColor: false).render(SampleReports.report(findings: [hostile], checks: []))
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{07}"))
        #expect(!output.contains("\u{202E}"))
        #expect(!output.contains("\u{9B}"))
        #expect(output.contains("x\\u{1B}[2J"))
        #expect(output.contains("line one\\nline two\\r\\u{202E}reversed\\u{9B}31m"))
        #expect(output.contains("text/html\\u{1B}]0;owned\\u{7}"))
    }

    @Test func passedSummary() {
        let output = TextReportRenderer().render(SampleReports.report(findings: [], checks: []))
        #expect(output.hasSuffix("Summary: 4 resources fetched, 5 requests; 0 links: 0 checked, 0 not checked, 0 skipped; 0 errors, 0 warnings. Passed (exit 0).\n"))
    }
}
