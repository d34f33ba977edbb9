import APICheckFindings
import APICheckHTMLReport
import APICheckJSON
import Foundation
import Testing

/// `--format html`: the page's sections and map data from a report, and crawled values that try
/// to become markup.
@Suite struct HTMLReportTests {
    static let start = Date(timeIntervalSince1970: 1_740_830_400)

    static func report(rel: String = "movies", url: String = "https://h/movies/1", message: String = "served text/html", extra: [Finding] = []) -> CrawlReport {
        CrawlReport(
            tool: ToolInfo(version: "1.0.0"), root: "https://h/", startTime: start, duration: .milliseconds(1500),
            statistics: CrawlStatistics(resourcesFetched: 3, requests: 3),
            checks: [
                CheckedLink(url: "https://h/library", rel: "library", relPath: ["library"], referrer: "https://h/", outcome: .passed, statusCode: 200),
                CheckedLink(url: url, rel: rel, relPath: ["library", "\(rel)[0]"], referrer: "https://h/library", outcome: .failed, statusCode: 200),
                CheckedLink(url: url + "/2", rel: rel, relPath: ["library", "\(rel)[1]"], referrer: "https://h/library", outcome: .failed, statusCode: 200),
            ],
            findings: [
                Finding(
                    rule: .typeMatches, url: url, rel: rel, declaredType: "application/hal+json", servedType: "text/html", relPath: ["library", "\(rel)[0]"],
                    referrer: "https://h/library", expected: "application/hal+json", actual: "text/html", message: message),
                Finding(
                    rule: .typeMatches, url: url + "/2", rel: rel, declaredType: "application/hal+json", servedType: "text/html", relPath: ["library", "\(rel)[1]"],
                    referrer: "https://h/library", expected: "application/hal+json", actual: "text/html", message: message),
            ] + extra)
    }

    /// The map's data, read back from the page's JSON block.
    static func mapData(_ html: String) throws -> JSONValue {
        let start = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONParser().parseValue(Array(html[start.upperBound..<end.lowerBound].utf8))
    }

    @Test func thePageHoldsTheRunTheMapAndEachDefectLinkedToItsPlaces() throws {
        let html = HTMLReportRenderer().render(Self.report())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h1>apicheck crawl <span class=\"verdict-failed\">failed</span>: 1 defect (2 errors, 0 warnings)</h1>"))
        #expect(html.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-"#))
        // Nothing is fetched: no src, no external href but the report's own root link.
        #expect(!html.contains(" src="))
        let data = try Self.mapData(html)
        guard case .array(let nodes)? = data["nodes"] else { Issue.record("no nodes"); return }
        #expect(nodes.map { $0["l"] } == ["root", "library", "movies[*]"])
        #expect(nodes.map { $0["p"] } == [nil, 0, 1])
        #expect(nodes[2]["e"] == 2 && nodes[2]["w"] == nil)
        #expect(nodes[2]["m"] == .array([.array(["GET", 0, 2, 0, 0])]))
        #expect(nodes[2].value(at: "/t/0") == "declared application/hal+json, served text/html")
        #expect(nodes[1]["m"] == .array([.array(["GET", 1, 0, 0, 0])]) && nodes[1]["e"] == nil)
        // The defect, its examples and reproduction as the text report words them, and a link to its place (node 2).
        let defect = try #require(Self.report().defects.first)
        #expect(nodes[2].value(at: "/d/0") == .string(defect.id))
        #expect(html.contains("<li id=\"defect-\(defect.id)\" class=\"defect\" data-rule=\"type-matches\" data-severity=\"error\">"))
        #expect(html.contains("<li><bdi>GET /movies/1 via root → library → movies[0]</bdi></li>"))
        #expect(html.contains(##"<a href="#place-2" class="place-link" data-place="2"><bdi>root → library → movies[*]</bdi></a>"##))
        #expect(html.contains("<pre><code>curl "))
        #expect(html.contains(#"<option value="type-matches">type-matches</option>"#))
    }

    @Test func withListedChecksAPlaceListsItsResources() throws {
        var report = Self.report()
        let data = try Self.mapData(HTMLReportRenderer().render(report))
        #expect(data.value(at: "/nodes/2/r/0") == "GET /movies/1 failed 200")
        #expect(data.value(at: "/nodes/1/r/0") == "GET /library passed 200")
        // Without --list-checks only the counts are known.
        report.setSortedChecks([], counts: report.checkCounts, listsEveryCheck: false)
        let counted = try Self.mapData(HTMLReportRenderer().render(report))
        #expect(counted.value(at: "/nodes/2/r") == nil)
        #expect(counted.value(at: "/nodes/2/m/0/2") == 2)
    }

    @Test(arguments: [
        "</script><script>alert(1)</script>", "\"onerror=alert(1) x=\"", "' onmouseover='alert(1)", "<img src=x onerror=alert(1)>",
        "\u{202E}lmth.exe", "<!--", "javascript:alert(1)",
    ])
    func crawledValuesNeverBecomeMarkup(_ hostile: String) throws {
        let report = Self.report(rel: hostile, url: "https://h/" + hostile, message: hostile)
        let html = HTMLReportRenderer().render(report)
        // Exactly the page's own two script elements (its data and its code), and no other tag
        // than the builder's: every `<` opens a tag from the closed set, or closes one.
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.components(separatedBy: "</script>").count - 1 == 2)
        #expect(!html.contains("<img") && !html.contains("<!--"))
        let tagNames = Set(html.matches(of: /<\/?([a-zA-Z!][a-zA-Z0-9]*)/).map { String($0.output.1).lowercased() })
        let allowed: Set<String> = [
            "!doctype", "html", "head", "meta", "title", "style", "body", "script", "header", "h1", "h2", "h3", "span", "p", "a", "bdi", "table", "tbody",
            "tr", "th", "td", "main", "section", "div", "label", "input", "button", "aside", "select", "option", "ol", "li", "ul", "code", "pre",
            "details", "summary", "strong",
        ]
        #expect(tagNames.isSubset(of: allowed), "\(tagNames.subtracting(allowed))")
        #expect(!html.contains("href=\"javascript:"))
        // The value is there, as text, and reads back whole from the map's data.
        let data = try Self.mapData(html)
        #expect(data.value(at: "/nodes/2/l") == .string(RelPathLabel.stripped(hostile + "[0]")))
    }

    @Test func aMegabyteValueIsEscapedWholeAndTheMapStaysSmall() throws {
        let huge = String(repeating: "<x\"&", count: 256 * 1024)
        let html = HTMLReportRenderer().render(Self.report(rel: huge, url: "https://h/" + huge, message: huge))
        #expect(!html.contains("<x\""))
        // Shown as text, cut at 2,000 bytes with its size said: a page does not repeat a megabyte at every place.
        #expect(html.contains(String(repeating: "&lt;x\"&amp;", count: 400)))
        #expect(html.contains(" bytes in all)"))
        #expect(html.utf8.count < 200_000, "\(html.utf8.count) bytes")
    }

    @Test func chunkedRenderingEqualsTheWholePage() {
        let report = Self.report()
        var pieces: [String] = []
        HTMLReportRenderer().render(report, chunkBytes: 1024) { pieces.append($0) }
        #expect(pieces.count > 1)
        #expect(pieces.joined() == HTMLReportRenderer().render(report))
    }
}

/// How a label looks once its indices are stripped (as places show it).
enum RelPathLabel {
    static func stripped(_ label: String) -> String {
        RelPath.describe(RelPath.place(of: RelPath([label]))).replacingOccurrences(of: "root → ", with: "")
    }
}
