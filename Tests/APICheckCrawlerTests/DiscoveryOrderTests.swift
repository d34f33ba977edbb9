import APICheckFindings
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

@testable import APICheckCrawler
@testable import APICheckHypermedia

/// The version 4 report of every fixture stub set: the same bytes at any concurrency, and the
/// merge of four shards (written and read back as JSON) is the unsharded report.
@Suite struct DiscoveryOrderTests {
    static let sets = StreamedReportTests.sets

    private func crawl(_ set: String, root: String, concurrency: Int, shard: Shard? = nil) async throws -> CrawlReport {
        let loaded = StubLoader().load([Repository.path("stubs/\(set)")])
        var options = CrawlOptions(root: try #require(URL(string: root)))
        options.concurrency = concurrency
        options.shard = shard
        options.variables["id"] = .string("p-1001")
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    /// Times and the crawler's own statistics are the only things runs and merges may differ in.
    private func timeless(_ report: CrawlReport, statistics: CrawlStatistics? = nil) -> CrawlReport {
        var report = report
        report.startTime = Date(timeIntervalSince1970: 0)
        report.duration = .zero
        if let statistics { report.statistics = statistics }
        report.setSortedChecks(
            report.checks.mapped { check in
                var check = check
                check.duration = nil
                return check
            }, counts: report.checkCounts, listsEveryCheck: report.listsEveryCheck)
        return report
    }

    @Test(arguments: sets) func theReportIsTheSameAtAnyConcurrencyAndIsTheMergeOfItsShards(_ set: String, root: String) async throws {
        let one = timeless(try await crawl(set, root: root, concurrency: 1))
        let many = timeless(try await crawl(set, root: root, concurrency: 64))
        let json = JSONReportRenderer().render(one)
        #expect(JSONReportRenderer().render(many) == json)
        #expect(!one.listsEveryCheck && one.counts.linksFound > one.checks.count, "passed checks are counted, not listed")

        var shards: [CrawlReport] = []
        for index in 1...4 {
            let shard = try await crawl(set, root: root, concurrency: 8, shard: Shard(index: index, count: 4))
            shards.append(try CrawlReport(decoding: Array(JSONReportRenderer().render(shard).utf8), path: "shard-\(index).json"))
        }
        let merged = timeless(try CrawlReport.merging(shards), statistics: one.statistics)
        #expect(JSONReportRenderer().render(merged) == json)
    }

    @Test func linksAreListedInTheOrderTheyWereFound() async throws {
        let report = try await crawl("acmeflix", root: "http://localhost:3000/", concurrency: 16)
        let indices = report.checks.map(\.discoveryIndex)
        #expect(!indices.isEmpty && indices == indices.sorted() && Set(indices).count == indices.count)
        #expect(report.findings.map(\.discoveryIndex) == report.findings.map(\.discoveryIndex).sorted())
        // The first poster defect's first example is the first movie's poster, not the URL that sorts first.
        let posters = try #require(report.defects.first { $0.title.contains("served image/jpg") })
        #expect(posters.occurrences.first?.relPath == ["library", "movies[0].poster"])
    }
}
