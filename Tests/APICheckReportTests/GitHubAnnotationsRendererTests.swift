import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct GitHubAnnotationsRendererTests {
    @Test func errorsFirstThenWarningsThenSummary() {
        let expected = """
            ::error title=link-resolves%3A the link does not resolve (expected 2xx%2C saw 404 Not Found) (1)::the link does not resolve (expected 2xx, saw 404 Not Found)%0A1 occurrence:%0AGET /movies/3/poster via root → library → movies[3] → poster%0Areproduce: curl -i 'https://api.example.com/movies/3/poster'
            ::warning title=format-shape%3A _embedded must be an object of resources (saw an array) (1)::_embedded must be an object of resources (saw an array)%0A1 occurrence:%0AGET /movies/3 via root → library → movies[3]%0Areproduce: curl -i 'https://api.example.com/movies/3'
            ::warning title=type-syntax%3A the declared type is not registered (expected image/jpeg%2C saw image/jpg) (1)::the declared type is not registered (expected image/jpeg, saw image/jpg)%0A1 occurrence:%0AGET /movies/3/poster via root → library → movies[3] → poster%0Areproduce: curl -i 'https://api.example.com/movies/3'
            apicheck: 3 defects (1 error, 2 warnings) in 3 checked links (1 not checked, 2 skipped); exit code 1.

            """
        #expect(GitHubAnnotationsRenderer().render(SampleReports.report()) == expected)
    }

    @Test func escapingFollowsTheRunner() {
        let finding = Finding(
            rule: .typeMatches, url: "https://h/a,b:c?p=100%", actual: "50%\r\nnext", message: "m: a, b")
        let output = GitHubAnnotationsRenderer().render(SampleReports.report(findings: [finding], checks: []))
        let line = output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            line == "::error title=type-matches%3A m%3A a%2C b (saw 50%25%0D%0Anext) (1)::m: a, b (saw 50%25%0D%0Anext)%0A1 occurrence:%0AGET https://h/a,b:c?p=100%25 via root%0Areproduce: curl -i 'https://h/a,b:c?p=100%25'")
    }

    @Test func untrustedTextCannotStartACommand() {
        let finding = Finding(
            rule: .linkResolves, url: "https://h/x\n::error::forged", rel: "r\n::warning::forged",
            message: "boom\n::add-mask::secret\r::stop-commands::token\u{1B}[31m")
        let output = GitHubAnnotationsRenderer().render(
            SampleReports.report(findings: [finding], checks: [], errors: [CrawlProblem(message: "down\n::error::forged")]))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("::") }.count == 2)
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\u{1B}") })
        #expect(lines.first?.hasPrefix("::error title=apicheck%3A crawl error::down%0A::error::forged") == true)
        #expect(output.contains("\\u{1B}[31m"))
    }

    @Test func staleBaselineEntriesAreANotice() {
        let report = Baseline(findings: [SampleReports.brokenPoster]).apply(to: SampleReports.report(findings: [], checks: []))
        let output = GitHubAnnotationsRenderer().render(report)
        #expect(
            output == """
                ::notice title=apicheck%3A stale baseline entries::1 baseline entry matches no finding any more:%0Alink-resolves GET https://api.example.com/movies/3/poster [d78fc725aa0100e9]
                apicheck: 0 defects (0 errors, 0 warnings) in 0 checked links (0 not checked, 0 skipped), 0 suppressed by the baseline; exit code 0.

                """)
    }

    @Test func oneAnnotationPerDefectWithItsOccurrences() {
        let findings = (0..<25).map { index in
            Finding(rule: .linkResolves, url: "https://api.example.com/p/\(index)", rel: "poster", relPath: ["p[\(index)]"], expected: "a 2xx response", actual: "404", message: "the link answers 404")
        }
        let output = GitHubAnnotationsRenderer().render(SampleReports.report(findings: findings, checks: []))
        let annotations = output.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(annotations.count == 1)
        #expect(annotations.first?.hasPrefix("::error title=link-resolves%3A GET poster links answer 404%3A /p/{id} must answer 2xx (25)::") == true)
        #expect(annotations.first?.contains("%0A… and 5 more (see the JSON report)%0Areproduce: curl -i 'https://api.example.com/p/0'") == true)
        #expect(annotations.first?.components(separatedBy: "%0AGET /p/").count == 21)
    }
}
