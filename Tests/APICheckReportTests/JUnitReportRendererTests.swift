import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import APICheckXML
import Testing

@Suite struct JUnitReportRendererTests {
    @Test func oneSuitePerRuleOneCasePerDefect() throws {
        let output = JUnitReportRenderer().render(SampleReports.report())
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="apicheck crawl https://api.example.com/" tests="21" failures="1" errors="0" skipped="3" time="3.250">
              <testsuite name="apicheck.body-schema" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no body-schema defects in 3 checked links" classname="apicheck.body-schema" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.checked" tests="2" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="GET root" classname="apicheck.checked" time="0.000"/>
                <testcase name="GET root → movies" classname="apicheck.checked" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.content-type-present" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no content-type-present defects in 3 checked links" classname="apicheck.content-type-present" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.crawl-limit" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no crawl-limit defects in 3 checked links" classname="apicheck.crawl-limit" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.duplicate-rel" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no duplicate-rel defects in 3 checked links" classname="apicheck.duplicate-rel" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.format-shape" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="_embedded must be an object of resources (saw an array) [17ae1d1836db3091]" classname="apicheck.format-shape" time="0.000">
                  <system-out>warning[format-shape] _embedded must be an object of resources (saw an array)&#10;1 occurrence:&#10;GET /movies/3 via root → library → movies[3]&#10;  link: at /_embedded (HAL)&#10;reproduce: curl -i &apos;https://api.example.com/movies/3&apos;</system-out>
                </testcase>
              </testsuite>
              <testsuite name="apicheck.link-resolves" tests="1" failures="1" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="the link does not resolve (expected 2xx, saw 404 Not Found) [4d0773dac9aa2038]" classname="apicheck.link-resolves" time="0.000">
                  <failure type="link-resolves" message="the link does not resolve (expected 2xx, saw 404 Not Found)">error[link-resolves] the link does not resolve (expected 2xx, saw 404 Not Found)&#10;1 occurrence:&#10;GET /movies/3/poster via root → library → movies[3] → poster&#10;  link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3&#10;reproduce: curl -i &apos;https://api.example.com/movies/3/poster&apos;</failure>
                </testcase>
              </testsuite>
              <testsuite name="apicheck.method-valid" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no method-valid defects in 3 checked links" classname="apicheck.method-valid" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.openapi-body" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no openapi-body defects in 3 checked links" classname="apicheck.openapi-body" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.openapi-content-type" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no openapi-content-type defects in 3 checked links" classname="apicheck.openapi-content-type" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.openapi-header" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no openapi-header defects in 3 checked links" classname="apicheck.openapi-header" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.openapi-operation" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no openapi-operation defects in 3 checked links" classname="apicheck.openapi-operation" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.openapi-status" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no openapi-status defects in 3 checked links" classname="apicheck.openapi-status" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.self-consistent" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no self-consistent defects in 3 checked links" classname="apicheck.self-consistent" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.template-valid" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no template-valid defects in 3 checked links" classname="apicheck.template-valid" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.type-matches" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="no type-matches defects in 3 checked links" classname="apicheck.type-matches" time="0.000"/>
              </testsuite>
              <testsuite name="apicheck.type-syntax" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="the declared type is not registered (expected image/jpeg, saw image/jpg) [a200575ac9192f3f]" classname="apicheck.type-syntax" time="0.000">
                  <system-out>warning[type-syntax] the declared type is not registered (expected image/jpeg, saw image/jpg)&#10;1 occurrence:&#10;GET /movies/3/poster via root → library → movies[3] → poster&#10;  link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3&#10;reproduce: curl -i &apos;https://api.example.com/movies/3&apos;</system-out>
                </testcase>
              </testsuite>
              <testsuite name="apicheck.unchecked" tests="3" failures="0" errors="0" skipped="3" time="0.000" timestamp="2025-03-01T12:00:00.000Z">
                <testcase name="skipped: unsafe method without --unsafe (1)" classname="apicheck.unchecked" time="0.000">
                  <skipped message="DELETE /movies/3"/>
                </testcase>
                <testcase name="notChecked: needs variables: page (1)" classname="apicheck.unchecked" time="0.000">
                  <skipped message="GET /movies{?page}"/>
                </testcase>
                <testcase name="skipped: other origin (1)" classname="apicheck.unchecked" time="0.000">
                  <skipped message="GET https://partner.example.org/"/>
                </testcase>
              </testsuite>
            </testsuites>

            """
        #expect(output == expected)
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.name == "testsuites")
        let cases = root.elements.flatMap { $0.elements(named: "testcase") }
        #expect(cases.count == Int(root.attribute("tests") ?? ""))
        #expect(cases.filter { $0.firstElement(named: "failure") != nil }.count == Int(root.attribute("failures") ?? ""))
        #expect(cases.filter { $0.firstElement(named: "skipped") != nil }.count == Int(root.attribute("skipped") ?? ""))
        let failure = try #require(cases.compactMap { $0.firstElement(named: "failure") }.first)
        #expect(failure.text.hasPrefix("error[link-resolves] the link does not resolve"))
        #expect(failure.text.contains("\nGET /movies/3/poster via root → library → movies[3] → poster\n"))
        #expect(failure.text.hasSuffix("\nreproduce: curl -i 'https://api.example.com/movies/3/poster'"))
    }

    @Test func aDefectOfManyLinksIsOneCaseListingThemAll() throws {
        let findings = (0..<12).map { index in
            Finding(rule: .typeMatches, url: "https://api.example.com/poster/\(index)", rel: "poster", declaredType: "image/jpeg", servedType: "image/jpg",
                    relPath: ["movies[\(index)]", "poster"], expected: "image/jpeg", actual: "image/jpg", message: "declared image/jpeg, served image/jpg")
        }
        let root = try XMLDocumentParser.parse(Array(JUnitReportRenderer().render(SampleReports.report(findings: findings, checks: [])).utf8))
        let failures = root.elements.flatMap { $0.elements(named: "testcase") }.compactMap { $0.firstElement(named: "failure") }
        #expect(failures.count == 1)
        #expect(failures.first?.attribute("message") == "declared image/jpeg, served image/jpg: serve the declared type, or declare the one served")
        for index in 0..<12 { #expect(failures.first?.text.contains("GET /poster/\(index) via root → movies[\(index)] → poster") == true) }
    }

    @Test func strictTurnsWarningsIntoFailures() throws {
        let output = JUnitReportRenderer().render(SampleReports.report(configuration: RuleConfiguration(strict: true)))
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.attribute("failures") == "3")
        let cases = root.elements.flatMap { $0.elements(named: "testcase") }
        #expect(cases.allSatisfy { $0.firstElement(named: "system-out") == nil })
    }

    @Test func infrastructureErrorsAreErrors() throws {
        let output = JUnitReportRenderer().render(
            SampleReports.report(findings: [], checks: [], errors: [CrawlProblem(message: "root unreachable: connection refused", url: SampleReports.root)]))
        let root = try XMLDocumentParser.parse(Array(output.utf8))
        #expect(root.attribute("errors") == "1")
        let suite = try #require(root.elements(named: "testsuite").first { $0.attribute("name") == "apicheck" })
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
        #expect(failure.attribute("message") == "\(readable) (expected 2xx)")
        #expect(failure.text.contains("at /_links/a\"b"))
        let skip = try #require(cases.first { $0.attribute("name")?.hasPrefix("skipped: ") == true })
        #expect(skip.attribute("name") == "skipped: \(readable) (1)")
        #expect(skip.firstElement(named: "skipped")?.attribute("message") == "GET https://x/\\u{0}")
    }
}
