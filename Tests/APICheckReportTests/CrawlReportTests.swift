@testable import APICheckFindings
@testable import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

@Suite struct CrawlReportTests {
    @Test func exitCodes() throws {
        #expect(SampleReports.report(findings: []).exitCode == .success)
        #expect(SampleReports.report(findings: [SampleReports.jpgType]).exitCode == .success)
        #expect(SampleReports.report(findings: [SampleReports.jpgType], configuration: RuleConfiguration(strict: true)).exitCode == .contractViolations)
        #expect(SampleReports.report(findings: [], configuration: RuleConfiguration(strict: true)).exitCode == .success)
        #expect(SampleReports.report().exitCode == .contractViolations)
        #expect(SampleReports.report(findings: [], errors: [CrawlProblem(message: "root unreachable")]).exitCode == .infrastructureError)
        #expect(SampleReports.report(errors: [CrawlProblem(message: "root unreachable")]).exitCode == .infrastructureError)
        // A rule raised to error by configuration: the crawler applies the configuration to findings.
        let raised = try RuleConfiguration(parsing: ["type-syntax=error"])
        let report = SampleReports.report(findings: raised.apply(to: [SampleReports.jpgType]), configuration: raised)
        #expect(report.exitCode == .contractViolations)
        #expect(CrawlExitCode.contractViolations.rawValue == 1 && CrawlExitCode.infrastructureError.rawValue == 2)
    }

    @Test func counts() {
        let counts = SampleReports.report(errors: [CrawlProblem(message: "timed out", url: SampleReports.poster)]).counts
        #expect(counts.resourcesFetched == 4)
        #expect(counts.requests == 5)
        #expect(counts.linksFound == 6)
        #expect(counts.linksChecked == 3)
        #expect(counts.linksNotChecked == 1)
        #expect(counts.linksSkipped == 2)
        #expect(counts.errors == 1)
        #expect(counts.warnings == 2)
        #expect(counts.suppressed == 0)
        #expect(counts.infrastructureErrors == 1)
    }

    @Test func orderDoesNotDependOnInputOrderAndDuplicatesGo() {
        let reference = SampleReports.report()
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            let findings = (SampleReports.report().findings + [SampleReports.jpgType]).shuffled(using: &generator)
            let checks = (SampleReports.checks + SampleReports.checks.prefix(2)).shuffled(using: &generator)
            let report = SampleReports.report(findings: findings, checks: checks)
            #expect(report == reference)
            #expect(JSONReportRenderer().render(report) == JSONReportRenderer().render(reference))
        }
        #expect(reference.findings.map(\.rule) == [.formatShape, .linkResolves, .typeSyntax])
        #expect(reference.checks.map(\.url).first == SampleReports.root)
        #expect(reference.checks.count == 6)
    }

    @Test func timesAreKeptToTheMillisecond() {
        var report = SampleReports.report(checks: [
            CheckedLink(url: "u", outcome: .passed, duration: .nanoseconds(1_499_999))
        ])
        report.startTime = Date(timeIntervalSince1970: 1_740_830_400.123456)
        report.duration = .microseconds(2_500_600)
        #expect(ReportTime.iso8601(report.startTime) == "2025-03-01T12:00:00.123Z")
        #expect(report.duration == .milliseconds(2501))
        #expect(Array(report.checks).first?.duration == .milliseconds(1))
    }

    /// Every format and the decoder stay linear-ish: no per-check scan of all findings.
    @Test func largeCrawlRendersQuickly() throws {
        let checks = (0..<10_000).map { number in
            CheckedLink(
                url: "https://api.example.com/items/\(number)", rel: "item", relPath: ["items", "item[\(number)]"],
                referrer: "https://api.example.com/pages/\(number / 50)", sourcePointer: "/_links/item/\(number % 50)",
                outcome: number % 5 == 0 ? .failed : .passed, statusCode: 200, duration: .milliseconds(Int64(number % 90)))
        }
        let findings = checks.enumerated().compactMap { index, check -> Finding? in
            guard index % 5 == 0 else { return nil }
            return Finding(
                rule: .linkResolves, url: check.url, rel: check.rel, sourcePointer: check.sourcePointer, relPath: check.relPath,
                referrer: check.referrer, expected: "2xx", actual: "404", message: "the link does not resolve")
        }
        let clock = ContinuousClock()
        var report = SampleReports.report(findings: findings, checks: checks)
        let elapsed = try clock.measure {
            for format in ReportFormat.allCases {
                _ = format.renderer().render(report)
            }
            let decoded = try CrawlReport(decoding: Array(JSONReportRenderer(occurrencesListed: nil).render(report).utf8))
            #expect(decoded == report)
            report = Baseline(findings: findings).apply(to: report)
            var (first, second) = (report, decoded)
            (first.shard, second.shard) = (Shard(index: 1, count: 2), Shard(index: 2, count: 2))
            _ = try CrawlReport.merging([first, second])
        }
        #expect(report.findings.isEmpty)
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }

    /// A spooled list (`--list-checks` of a large crawl, a large merge) is filtered through a
    /// temporary file, not into memory; the counts stay whole.
    @Test func listingOnlyWhatIsWorthReadingKeepsALargeListSpooled() {
        let checks = (1...30_000).map { index in
            CheckedLink(url: "https://h/r/\(index)", rel: "item", relPath: ["item[\(index)]"], outcome: index % 6 == 0 ? .passed : .failed, discoveryIndex: index)
        }
        var report = SampleReports.report(checks: checks)
        let builder = CheckListBuilder(directory: SpoolDirectory(), memoryLimit: 100)
        for check in report.checks { builder.append(check) }
        report.setSortedChecks(builder.finish(), counts: report.checkCounts, listsEveryCheck: true)
        #expect(report.checks.isSpooled)
        report.listOnlyChecksWorthReading()
        #expect(report.checks.isSpooled && report.checks.count == 25_000 && report.checks.allSatisfy { $0.outcome == .failed })
        #expect(report.counts.linksFound == 30_000 && report.counts.linksChecked == 30_000 && !report.listsEveryCheck)
        #expect(report.checks.readFailure == nil)
    }

    @Test func settersKeepTheOrder() {
        var report = SampleReports.report(findings: [])
        report.setFindings([SampleReports.jpgType, SampleReports.embeddedArray, SampleReports.jpgType])
        #expect(report.findings == [SampleReports.embeddedArray, SampleReports.jpgType])
    }
}

@Suite struct ShardTests {
    @Test(arguments: [("1/3", 1, 3), ("3/3", 3, 3), (" 2/10 ", 2, 10), ("1/1", 1, 1)])
    func parses(text: String, index: Int, count: Int) throws {
        let shard = try #require(Shard(parsing: text))
        #expect(shard.index == index && shard.count == count)
        #expect(shard.description == "\(index)/\(count)")
    }

    @Test(arguments: ["0/3", "4/3", "a/b", "1/", "/3", "1/3/4", "-1/3", "1/0", "1/100000", "+1/3", "1 / 3", "", "99999999999999999999/3"])
    func refuses(text: String) {
        #expect(Shard(parsing: text) == nil)
    }

    @Test func everyURLBelongsToExactlyOneShard() throws {
        let shards = try (1...3).map { try #require(Shard(index: $0, count: 3)) }
        var sizes = [0, 0, 0]
        for number in 0..<300 {
            let url = "https://api.example.com/movies/\(number)"
            let owners = shards.filter { $0.contains(url: url) }
            #expect(owners.count == 1, "\(url)")
            if let owner = owners.first { sizes[owner.index - 1] += 1 }
            // Spellings of one URL go to one shard.
            #expect(shards.filter { $0.contains(url: "HTTPS://API.example.com:443/movies/\(number)#x") }.map(\.index) == owners.map(\.index))
        }
        #expect(sizes.allSatisfy { $0 > 60 }, "\(sizes)")
    }

    /// Shards of one crawl may run different builds; the assignment is part of the format.
    @Test func assignmentIsPinned() throws {
        let pinned: [(String, Int, Int)] = [
            ("https://api.example.com/", 3, 2), ("https://API.example.com:443/movies/3/poster#x", 4, 3),
            ("https://api.example.com/movies?page=2", 1, 2),
        ]
        for (url, ofFour, ofThree) in pinned {
            #expect(try #require(Shard(index: ofFour, count: 4)).contains(url: url), "\(url)")
            #expect(try #require(Shard(index: ofThree, count: 3)).contains(url: url), "\(url)")
        }
    }

    /// CI matrices are often 2, 4 or 8 wide: power-of-two counts must split evenly too.
    @Test func powerOfTwoCountsSplitEvenly() throws {
        for count in [2, 4, 8] {
            let shards = try (1...count).map { try #require(Shard(index: $0, count: count)) }
            var sizes = Array(repeating: 0, count: count)
            for number in 0..<800 {
                for url in ["https://api.example.com/orders/\(number)/items", "https://api.example.com/people/p\(number * 7919 % 1000)"] {
                    if let owner = shards.first(where: { $0.contains(url: url) }) { sizes[owner.index - 1] += 1 }
                }
            }
            #expect(sizes.reduce(0, +) == 1600)
            #expect(sizes.allSatisfy { $0 > 1600 / count * 3 / 4 }, "\(count): \(sizes)")
        }
    }
}

@Suite struct ReportTimeTests {
    @Test func writesAndParsesISO8601() throws {
        #expect(ReportTime.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(ReportTime.iso8601(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(ReportTime.iso8601(Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
        for text in ["2025-03-01T12:00:00.250Z", "1969-12-31T23:59:59.999Z", "2000-02-29T00:00:00.000Z"] {
            let date = try #require(ReportTime.parseISO8601(text))
            #expect(ReportTime.iso8601(date) == text)
        }
        #expect(ReportTime.parseISO8601("2025-03-01T13:30:00+01:30") == ReportTime.parseISO8601("2025-03-01T12:00:00Z"))
        #expect(ReportTime.parseISO8601("2025-03-01T12:00:00.1Z") == ReportTime.parseISO8601("2025-03-01T12:00:00.100Z"))
        for bad in ["2025-02-29T00:00:00Z", "2025-03-01 12:00:00Z", "2025-03-01T12:00:00", "2025-13-01T00:00:00Z", "2025-03-01T12:00:00.Z",
                    "2025-03-01T24:00:00Z", "2025-03-01T12:00:00Zjunk", "", "٢٠٢٥-03-01T12:00:00Z"] {
            #expect(ReportTime.parseISO8601(bad) == nil, "\(bad)")
        }
    }

    @Test func durations() {
        #expect(ReportTime.secondsText(.milliseconds(3250)) == "3.250")
        #expect(ReportTime.secondsText(.milliseconds(7)) == "0.007")
        #expect(ReportTime.secondsText(.seconds(-5)) == "0.000")
        #expect(ReportTime.duration(seconds: "1.2345") == .milliseconds(1235))
        #expect(ReportTime.duration(seconds: "-1") == nil)
        #expect(ReportTime.duration(seconds: "1e300") == nil)
        #expect(ReportTime.milliseconds(Duration.seconds(Int64.max)) > 0)
    }
}

/// A deterministic random number generator, so shuffles are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
