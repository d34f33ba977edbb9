import APICheckReport
import APICheckXML
import Testing

@Suite struct JUnitReportRendererTests {
    @Test func oneSuitePerResourceOneCasePerLink() throws {
        let output = JUnitReportRenderer().render(SampleReports.report())
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="apicheck crawl https://api.example.com/" tests="7" failures="1" errors="0" skipped="3" time="3.250">
              <testsuite name="https://api.example.com/" tests="4" failures="0" errors="0" skipped="2" time="0.032" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="GET https://api.example.com/ via root" classname="https://api.example.com/" time="0.012"/>
                <testcase name="GET https://api.example.com/movies via root → movies" classname="https://api.example.com/" time="0.020"/>
                <testcase name="GET https://api.example.com/movies{?page} via root → search" classname="https://api.example.com/" time="0.000">
                  <skipped message="not checked: needs variables: page"/>
                </testcase>
                <testcase name="GET https://partner.example.org/ via root → partner" classname="https://api.example.com/" time="0.000">
                  <skipped message="skipped: other origin"/>
                </testcase>
              </testsuite>
              <testsuite name="https://api.example.com/movies/3" tests="3" failures="1" errors="0" skipped="1" time="0.031" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="DELETE https://api.example.com/movies/3 via root → library → movies[3] → delete" classname="https://api.example.com/movies/3" time="0.000">
                  <skipped message="skipped: unsafe method without --unsafe"/>
                </testcase>
                <testcase name="GET https://api.example.com/movies/3/poster via root → library → movies[3] → poster" classname="https://api.example.com/movies/3" time="0.031">
                  <failure type="link-resolves" message="the link does not resolve (expected 2xx, saw 404 Not Found)">error[link-resolves] GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404 Not Found)&#10;path: root → library → movies[3] → poster&#10;link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3&#10;type: declared image/jpeg</failure>
                  <system-out>warning[type-syntax] GET https://api.example.com/movies/3/poster — the declared type is not registered (expected image/jpeg, saw image/jpg)&#10;path: root → library → movies[3] → poster&#10;link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3&#10;type: declared image/jpg</system-out>
                </testcase>
                <testcase name="GET https://api.example.com/movies/3" classname="https://api.example.com/movies/3" time="0.000">
                  <system-out>warning[format-shape] GET https://api.example.com/movies/3 — _embedded must be an object of resources (expected an object, saw an array)&#10;path: root → library → movies[3]&#10;link: at /_embedded (HAL)</system-out>
                </testcase>
              </testsuite>
            </testsuites>

            """
        #expect(output == expected)
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.name == "testsuites")
        #expect(root.elements(named: "testsuite").count == 2)
        let cases = root.elements.flatMap { $0.elements(named: "testcase") }
        #expect(cases.count == Int(root.attribute("tests") ?? ""))
        #expect(cases.filter { $0.firstElement(named: "failure") != nil }.count == Int(root.attribute("failures") ?? ""))
        #expect(cases.filter { $0.firstElement(named: "skipped") != nil }.count == Int(root.attribute("skipped") ?? ""))
        let failure = try #require(cases.compactMap { $0.firstElement(named: "failure") }.first)
        #expect(failure.text.hasPrefix("error[link-resolves] GET https://api.example.com/movies/3/poster — the link does not resolve"))
        #expect(failure.text.contains("\npath: root → library → movies[3] → poster\n"))
    }

    @Test func strictTurnsWarningsIntoFailuresWithEveryFindingListed() throws {
        let output = JUnitReportRenderer().render(SampleReports.report(configuration: RuleConfiguration(strict: true)))
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.attribute("failures") == "2")
        let poster = try #require(root.elements.flatMap { $0.elements(named: "testcase") }.first { $0.attribute("name")?.contains("poster") == true })
        let failure = try #require(poster.firstElement(named: "failure"))
        #expect(failure.attribute("type") == "link-resolves")
        #expect(failure.attribute("message") == "2 findings; first: the link does not resolve (expected 2xx, saw 404 Not Found)")
        #expect(failure.text.contains("warning[type-syntax]"))
        #expect(poster.firstElement(named: "system-out") == nil)
    }

    @Test func infrastructureErrorsAreErrors() throws {
        let output = JUnitReportRenderer().render(
            SampleReports.report(findings: [], checks: [], errors: [CrawlProblem(message: "root unreachable: connection refused", url: SampleReports.root)]))
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.attribute("errors") == "1")
        let suite = try #require(root.firstElement(named: "testsuite"))
        #expect(suite.attribute("name") == "apicheck")
        let error = try #require(suite.firstElement(named: "testcase")?.firstElement(named: "error"))
        #expect(error.attribute("message") == "root unreachable: connection refused")
    }

    @Test func escapesEverythingAndStaysWellFormed() throws {
        let nasty = "quote \" apostrophe ' <tag> & amp; ]]> line\nbreak\r\ttab NUL\u{0} ESC\u{1B} BEL\u{07} \u{FFFE}\u{FFFF} é 🎬 \u{202E}"
        let finding = Finding(
            rule: .linkResolves, url: "https://api.example.com/a?x=1&y=<2>", rel: nasty, sourcePointer: "/_links/a\"b", referrer: SampleReports.root,
            expected: "2xx", actual: nasty, message: nasty)
        let check = CheckedLink(
            url: "https://api.example.com/a?x=1&y=<2>", rel: nasty, relPath: [nasty], referrer: SampleReports.root, sourcePointer: "/_links/a\"b",
            outcome: .failed)
        let skipped = CheckedLink(url: "https://x/\u{0}", rel: "s", referrer: SampleReports.root, outcome: .skipped(reason: nasty))
        let output = JUnitReportRenderer().render(SampleReports.report(findings: [finding], checks: [check, skipped]))
        #expect(!output.contains("\u{0}") && !output.contains("\u{1B}") && !output.contains("\u{FFFE}") && !output.contains("\u{07}"))
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        let cases = root.elements.flatMap { $0.elements(named: "testcase") }
        let failure = try #require(cases.compactMap { $0.firstElement(named: "failure") }.first)
        let readable = "quote \" apostrophe ' <tag> & amp; ]]> line\nbreak\r\ttab NUL\\u{0} ESC\\u{1B} BEL\\u{7} \\u{FFFE}\\u{FFFF} é 🎬 \u{202E}"
        #expect(failure.attribute("message") == "\(readable) (expected 2xx, saw \(readable))")
        #expect(failure.text.contains("at /_links/a\"b"))
        let skip = try #require(cases.compactMap { $0.firstElement(named: "skipped") }.first)
        #expect(skip.attribute("message") == "skipped: " + readable)
    }
}
