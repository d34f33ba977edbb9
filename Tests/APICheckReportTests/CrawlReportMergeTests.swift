import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

@Suite struct CrawlReportMergeTests {
    private func shard(_ index: Int, findings: [Finding], checks: [CheckedLink], start: TimeInterval, milliseconds: Int64) -> CrawlReport {
        CrawlReport(
            tool: ToolInfo(version: "1.2.3"), root: SampleReports.root, startTime: Date(timeIntervalSince1970: start),
            duration: .milliseconds(milliseconds), shard: Shard(index: index, count: 2),
            statistics: CrawlStatistics(resourcesFetched: 3, requests: 4), checks: checks, findings: findings)
    }

    @Test func combinesShards() throws {
        let first = shard(1, findings: [SampleReports.brokenPoster, SampleReports.jpgType], checks: Array(SampleReports.checks[0...3]), start: 1000, milliseconds: 2000)
        let second = shard(2, findings: [SampleReports.jpgType, SampleReports.embeddedArray], checks: Array(SampleReports.checks[2...]), start: 999.5, milliseconds: 1000)
        let merged = try CrawlReport.merging([first, second])
        #expect(merged.findings == SampleReports.report().findings)
        #expect(merged.checks == SampleReports.report().checks)
        #expect(merged.statistics == CrawlStatistics(resourcesFetched: 6, requests: 8))
        #expect(merged.startTime == Date(timeIntervalSince1970: 999.5))
        #expect(merged.duration == .milliseconds(2500))
        #expect(merged.shard == nil)
        #expect(try CrawlReport.merging([second, first]) == merged)
        #expect(merged.exitCode == .contractViolations)
    }

    @Test func mergesDecodedFiles() throws {
        let report = SampleReports.report(shard: Shard(index: 1, count: 1))
        let decoded = try CrawlReport(decoding: Array(JSONReportRenderer().render(report).utf8))
        let merged = try CrawlReport.merging([decoded])
        #expect(merged.findings == report.findings)
        #expect(merged.checks == report.checks)
        #expect(merged.counts.resourcesFetched == 4)
    }

    /// A shard twice (a retried CI job's report beside the first attempt's: the same links with
    /// other durations) or a whole crawl among shards would count links twice: refused.
    @Test func refusesAShardTwiceAndAWholeCrawlAmongShards() throws {
        let first = SampleReports.report(shard: Shard(index: 1, count: 2))
        let second = SampleReports.report(shard: Shard(index: 2, count: 2))
        #expect(throws: ReportMergeError.self) { try CrawlReport.merging([first, second, first]) }
        do {
            _ = try CrawlReport.merging([first, first])
            Issue.record("a shard given twice was merged")
        } catch {
            #expect(error.description.contains("shard 1/2 is given twice"))
        }
        var whole = SampleReports.report()
        whole.shard = nil
        do {
            _ = try CrawlReport.merging([whole, second])
            Issue.record("a whole crawl among shards was merged")
        } catch {
            #expect(error.description.contains("whole crawl"))
        }
    }

    @Test func staleBaselineEntriesMustBeStaleEverywhere() throws {
        let baseline = Baseline(findings: [SampleReports.brokenPoster, SampleReports.jpgType, SampleReports.embeddedArray])
        let first = baseline.apply(to: shard(1, findings: [SampleReports.brokenPoster], checks: [], start: 0, milliseconds: 1))
        let second = baseline.apply(to: shard(2, findings: [SampleReports.jpgType], checks: [], start: 0, milliseconds: 1))
        let merged = try CrawlReport.merging([first, second])
        #expect(merged.baseline?.suppressed == 2)
        #expect(merged.baseline?.stale.map(\.fingerprint) == [SampleReports.embeddedArray.fingerprint])
        #expect(merged.findings.isEmpty)
    }

    @Test func refusesReportsOfDifferentCrawls() throws {
        let base = SampleReports.report()
        var otherRoot = base
        otherRoot.root = "https://other.example.com/"
        var otherRules = base
        otherRules.configuration = RuleConfiguration(strict: true)
        var otherTool = base
        otherTool.tool.name = "linkcheck"
        var otherVersion = base
        otherVersion.schemaVersion = 2

        #expect(throws: ReportMergeError.noReports) { try CrawlReport.merging([]) }
        let root = #expect(throws: ReportMergeError.self) { try CrawlReport.merging([base, otherRoot]) }
        #expect(root?.description == "the reports are not shards of one crawl: their root differs ('https://api.example.com/' and 'https://other.example.com/')")
        let rules = #expect(throws: ReportMergeError.self) { try CrawlReport.merging([base, otherRules]) }
        #expect(rules?.description.contains("rule configuration differs") == true)
        #expect(throws: ReportMergeError.self) { try CrawlReport.merging([base, otherTool]) }
        let version = #expect(throws: ReportMergeError.self) { try CrawlReport.merging([base, otherVersion]) }
        #expect(version?.description.contains("schemaVersion differs ('4' and '2')") == true)

        var threeWay = base
        threeWay.shard = Shard(index: 1, count: 3)
        var fourWay = base
        fourWay.shard = Shard(index: 2, count: 4)
        let counts = #expect(throws: ReportMergeError.self) { try CrawlReport.merging([threeWay, fourWay]) }
        #expect(counts?.description == "the reports are not shards of one crawl: their shard count differs ('3' and '4')")

        // Spellings of one root are one root.
        var first = base
        first.shard = Shard(index: 1, count: 2)
        var spelled = base
        spelled.root = "HTTPS://API.example.com:443"
        spelled.shard = Shard(index: 2, count: 2)
        #expect(try CrawlReport.merging([first, spelled]).root == base.root)
    }

    @Test func missingShardsMakeTheMergeIncomplete() throws {
        var first = shard(1, findings: [], checks: [], start: 0, milliseconds: 1)
        first.shard = Shard(index: 1, count: 4)
        var third = first
        third.shard = Shard(index: 3, count: 4)
        let merged = try CrawlReport.merging([first, third])
        #expect(merged.errors == [CrawlProblem(message: "2 of 4 shards missing from the merge (2/4, 4/4): their links were not checked")])
        #expect(merged.exitCode == .infrastructureError)

        let half = shard(1, findings: [], checks: [], start: 0, milliseconds: 1)
        var whole = half
        whole.shard = Shard(index: 2, count: 2)
        #expect(try CrawlReport.merging([half, whole]).errors.isEmpty)
        // A report without a shard (a whole crawl) has nothing to miss; two would count twice.
        whole.shard = nil
        #expect(try CrawlReport.merging([whole]).errors.isEmpty)
        let twice = #expect(throws: ReportMergeError.self) { try CrawlReport.merging([whole, whole]) }
        #expect(twice?.description.contains("whole crawls") == true)
    }

    /// Reasons beyond the listed eight, of either outcome, are counted under "other reasons"
    /// (a mix of outcomes once swapped the last slot back and forth forever).
    @Test func aPlaceWithManyReasonsOfBothOutcomesCountsEveryOne() {
        var count = CheckCount(place: ["a"], method: "GET")
        for index in 0..<7 { count.count(.notChecked(reason: "needs variables: v\(index)")) }
        count.count(.skipped(reason: "redirects to another origin (https://x\(0).test/)"))
        count.count(.notChecked(reason: "timed out"))
        count.count(.skipped(reason: "deeper than --max-depth 3"))
        count.count(.notChecked(reason: "timed out"))
        #expect(count.notChecked == 9 && count.skipped == 2)
        #expect(count.reasons.reduce(0) { $0 + $1.count } == 11)
        #expect(count.reasons.count <= CheckCount.reasonsListed + 2)
        #expect(count.reasons.contains { $0.reason == CheckCount.otherReasons && $0.outcome == "notChecked" && $0.count == 2 })
        var merged = count
        merged.add(count)
        #expect(merged.reasons.reduce(0) { $0 + $1.count } == 22)
    }
}
