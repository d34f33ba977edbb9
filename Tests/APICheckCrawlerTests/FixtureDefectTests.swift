import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

/// Each fixture stub set's README lists, under "The report: N defects", the entry lines of the
/// crawl's text report; the crawl in memory reports exactly those defects, in that order, and no
/// defect twice.
@Suite struct FixtureDefectTests {
    struct Fixture: Sendable, CustomTestStringConvertible {
        var folder: String
        var root: String
        var variables: [String: String] = [:]
        var testDescription: String { folder }
    }

    static let fixtures = [
        Fixture(folder: "acmeflix", root: "http://localhost:3000/"),
        Fixture(folder: "hal-shop", root: "http://127.0.0.1:8080/", variables: ["id": "p-1001"]),
        Fixture(folder: "jsonapi-blog", root: "http://127.0.0.1:8080/articles"),
        Fixture(folder: "linkheader-pages", root: "http://127.0.0.1:8080/"),
        Fixture(folder: "siren-orders", root: "http://127.0.0.1:8080/"),
        Fixture(folder: "github-root", root: "http://127.0.0.1:8080/"),
        Fixture(folder: "drf-root", root: "http://127.0.0.1:8080/"),
    ]

    @Test(arguments: fixtures)
    func theCrawlReportsExactlyTheREADMEsDefects(_ fixture: Fixture) async throws {
        let readme = try String(contentsOfFile: Repository.path("stubs/\(fixture.folder)/README.md"), encoding: .utf8)
        let expected = try #require(Self.expectedEntries(in: readme), "stubs/\(fixture.folder)/README.md has no 'The report:' block")

        let loaded = StubLoader().load([Repository.path("stubs/\(fixture.folder)")])
        var options = CrawlOptions(root: try #require(URL(string: fixture.root)))
        for (name, value) in fixture.variables { options.variables[name] = .string(value) }
        let report = await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
        let entries = TextReportRenderer().render(report).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("error[") || $0.hasPrefix("warning[") }

        #expect(entries == expected)
        #expect(Set(entries).count == entries.count, "no defect twice")
        #expect(report.defects.count == expected.count)
    }

    /// The lines of the fenced block after the "### The report:" heading.
    static func expectedEntries(in readme: String) -> [String]? {
        guard let heading = readme.range(of: "### The report:"), let open = readme.range(of: "```text\n", range: heading.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else { return nil }
        return readme[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    }
}
