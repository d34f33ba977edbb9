import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct TextReportRendererTests {
    @Test func listsDefectsWorstFirstAndSummarises() {
        let expected = """
            apicheck 1.2.3 crawl of https://api.example.com/

            error[link-resolves] the link does not resolve (expected 2xx, saw 404 Not Found) (1 link)
              e.g. GET /movies/3/poster via root → library → movies[3] → poster
              reproduce: curl -i 'https://api.example.com/movies/3/poster'
            warning[format-shape] _embedded must be an object of resources (saw an array) (1 finding)
              e.g. GET /movies/3 via root → library → movies[3]
            warning[type-syntax] the declared type is not registered (expected image/jpeg, saw image/jpg) (1 link)
              e.g. GET /movies/3/poster via root → library → movies[3] → poster

            Not checked:
              needs variables: page (1 link): GET /movies{?page}

            Skipped:
              unsafe method without --unsafe (1 link): DELETE /movies/3
              other origin (1 link): GET https://partner.example.org/

            Summary: 4 resources fetched, 5 requests; 6 links: 3 checked, 1 not checked, 2 skipped; 3 defects in 3 findings (1 error, 2 warnings). Failed (exit 1).

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

            Summary: 4 resources fetched, 5 requests; 1 link: 1 checked, 0 not checked, 0 skipped; 0 defects in 0 findings (0 errors, 0 warnings), 0 suppressed by the baseline; 1 infrastructure error (strict: warnings fail). Crawl incomplete (exit 2).

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
        let output = TextReportRenderer().render(SampleReports.report(findings: [], checks: [SampleReports.checks[1]]))
        #expect(output.hasSuffix("Summary: 4 resources fetched, 5 requests; 1 link: 1 checked, 0 not checked, 0 skipped; 0 defects in 0 findings (0 errors, 0 warnings). Passed (exit 0).\n"))
        #expect(!output.contains("warning:"))
    }

    /// A root without links (Datasette's `/.json`) passes, but says that nothing beyond it was
    /// checked, rather than a bare "Passed".
    @Test func aCrawlThatCheckedNoLinkSaysSo() {
        var report = CrawlReport(
            tool: ToolInfo(name: "apicheck", version: "1.2.3"), root: "http://127.0.0.1:8001/.json", startTime: SampleReports.start, duration: .seconds(1),
            statistics: CrawlStatistics(resourcesFetched: 1, requests: 1))
        let output = TextReportRenderer().render(report)
        #expect(output.contains(
            "\nwarning: only 1 resource and 0 links were checked: the root advertises no link apicheck reads (HAL, JSON:API, Siren, Collection+JSON, Link headers, Atom/XML, link arrays, URL-valued JSON fields); is http://127.0.0.1:8001/.json the API's root?\n"))
        #expect(output.hasSuffix("Summary: 1 resource fetched, 1 request; 0 links: 0 checked, 0 not checked, 0 skipped; 0 defects in 0 findings (0 errors, 0 warnings). Passed, with no link checked (see the warning) (exit 0).\n"))
        #expect(report.exitCode == .success, "no finding failed: the exit code stays 0")

        // Links found but none checked (all on other origins): said too, with where to look.
        report = SampleReports.report(findings: [], checks: [SampleReports.checks[4]])
        #expect(TextReportRenderer().render(report).contains(
            "\nwarning: only 4 resources and 0 links were checked: the 1 link found was not checked or skipped (see why above)\n"))
        // An unreachable root is an infrastructure error already: no second word about it.
        report = SampleReports.report(findings: [], checks: [], errors: [CrawlProblem(message: "the root is unreachable")])
        #expect(!TextReportRenderer().render(report).contains("warning:"))
    }

    /// Occurrences that differ only where in the resource they were found (a DRF HAL API's bare
    /// string hrefs, all on `/authors/`) are examples that say so, never one line three times.
    @Test func examplesThatWouldReadAlikeSayWhatDiffers() {
        let findings = ["books", "authors", "next", "previous"].map { rel in
            Finding(
                rule: .formatShape, url: "https://api.example.com/authors/", sourcePointer: "/_links/\(rel)", format: "HAL", relPath: ["authors"],
                message: "rel '\(rel)' is a bare string href (as drf-hal-json writes): HAL link objects are {\"href\": …}")
        }
        let output = TextReportRenderer().render(SampleReports.report(findings: findings, checks: []))
        #expect(output.contains(
            "  e.g. GET /authors/ via root → authors at /_links/authors; GET /authors/ via root → authors at /_links/books; GET /authors/ via root → authors at /_links/next … and 1 more\n"))
        let verbose = TextReportRenderer(listsEveryOccurrence: true).render(SampleReports.report(findings: findings, checks: []))
        #expect(verbose.contains("  - GET /authors/ via root → authors at /_links/previous\n"))
        // Alike in every field shown and in the pointer too: the rel, then the referrer, tell them apart.
        let twice = [
            Finding(rule: .linkResolves, url: "https://api.example.com/x", rel: "a", relPath: ["x"], referrer: "https://api.example.com/", message: "m"),
            Finding(rule: .linkResolves, url: "https://api.example.com/x", rel: "a", relPath: ["x"], referrer: "https://api.example.com/y", message: "m"),
        ]
        #expect(TextReportRenderer().render(SampleReports.report(findings: twice, checks: [])).contains(
            "  e.g. GET /x via root → x on /; GET /x via root → x on /y\n"))
    }

    @Test func oneEntryPerDefectWithThreeExamplesAndEveryOccurrenceWhenVerbose() {
        // The same invalid declared type on five links is one defect.
        let findings = (0..<5).map { index in
            Finding(
                rule: .typeSyntax, url: "https://api.example.com/movies/\(index)", rel: "self", declaredType: "vnd.x+json",
                sourcePointer: "/_links/0", relPath: ["movies[\(index)]", "self"], referrer: "https://api.example.com/movies",
                expected: "application/vnd.x+json", actual: "vnd.x+json",
                message: "the declared type 'vnd.x+json' lacks a top-level type: write 'application/vnd.x+json'")
        }
        let report = SampleReports.report(findings: findings, checks: [])
        let output = TextReportRenderer().render(report)
        #expect(output.components(separatedBy: "warning[type-syntax]").count == 2)
        #expect(output.contains("warning[type-syntax] the declared type 'vnd.x+json' lacks a top-level type: write 'application/vnd.x+json' (5 links)\n"))
        #expect(output.contains("  e.g. GET /movies/0 via root → movies[0] → self; GET /movies/1 via root → movies[1] → self; GET /movies/2 via root → movies[2] → self … and 2 more\n"))
        #expect(output.contains("1 defect in 5 findings (0 errors, 5 warnings)"))
        let verbose = TextReportRenderer(listsEveryOccurrence: true).render(report)
        for index in 0..<5 { #expect(verbose.contains("  - GET /movies/\(index) via root → movies[\(index)] → self\n")) }
        #expect(verbose.contains("    link: rel self at /_links/0 on https://api.example.com/movies"))
    }
}
