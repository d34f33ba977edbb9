import APICheckReport
import Testing

@Suite struct GitHubAnnotationsRendererTests {
    @Test func errorsFirstThenWarningsThenSummary() {
        let expected = """
            ::error title=link-resolves%3A GET https%3A//api.example.com/movies/3/poster::GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404 Not Found)%0Apath: root → library → movies[3] → poster%0Alink: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3%0Atype: declared image/jpeg
            ::warning title=format-shape%3A GET https%3A//api.example.com/movies/3::GET https://api.example.com/movies/3 — _embedded must be an object of resources (expected an object, saw an array)%0Apath: root → library → movies[3]%0Alink: at /_embedded (HAL)
            ::warning title=type-syntax%3A GET https%3A//api.example.com/movies/3/poster::GET https://api.example.com/movies/3/poster — the declared type is not registered (expected image/jpeg, saw image/jpg)%0Apath: root → library → movies[3] → poster%0Alink: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3%0Atype: declared image/jpg
            apicheck: 1 error, 2 warnings in 3 checked links (1 not checked, 2 skipped); exit code 1.

            """
        #expect(GitHubAnnotationsRenderer().render(SampleReports.report()) == expected)
    }

    @Test func escapingFollowsTheRunner() {
        let finding = Finding(
            rule: .typeMatches, url: "https://h/a,b:c?p=100%", actual: "50%\r\nnext", message: "m: a, b")
        let output = GitHubAnnotationsRenderer().render(SampleReports.report(findings: [finding], checks: []))
        let line = output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            line == "::error title=type-matches%3A GET https%3A//h/a%2Cb%3Ac?p=100%25::GET https://h/a,b:c?p=100%25 — m: a, b (saw 50%25%0D%0Anext)%0Apath: root")
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
                apicheck: 0 errors, 0 warnings in 0 checked links (0 not checked, 0 skipped), 0 suppressed by the baseline; exit code 0.

                """)
    }
}
