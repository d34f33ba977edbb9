import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

@testable import APICheckCrawler
@testable import APICheckHypermedia

/// A crawl that writes its pending links and checks to temporary files reports exactly what a
/// crawl that keeps them in memory reports, for every fixture stub set, and leaves no files.
@Suite struct StreamedReportTests {
    /// Each set with the root its README crawls.
    static let sets = [
        ("acmeflix", "http://localhost:3000/"), ("drf-root", "http://127.0.0.1:8080/"), ("github-root", "http://127.0.0.1:8080/"),
        ("hal-shop", "http://localhost:3000/"), ("jsonapi-blog", "http://localhost:3000/articles"), ("linkheader-pages", "http://localhost:3000/"),
        ("siren-orders", "http://localhost:3000/"),
    ]

    private func crawl(_ set: String, root: String, spooling: CrawlOptions.Spooling) async throws -> CrawlReport {
        let loaded = StubLoader().load([Repository.path("stubs/\(set)")])
        var options = CrawlOptions(root: try #require(URL(string: root)))
        options.spooling = spooling
        options.listsEveryCheck = true
        options.concurrency = 4
        options.variables["id"] = .string("p-1001")
        var report = await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
        // Times are the only thing two runs may differ in.
        report.startTime = Date(timeIntervalSince1970: 0)
        report.duration = .zero
        report.setSortedChecks(report.checks.mapped { check in
            var check = check
            check.duration = nil
            return check
        }, counts: report.checkCounts, listsEveryCheck: true)
        return report
    }

    @Test(arguments: sets) func theStreamedReportEqualsTheInMemoryOne(_ set: String, root: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let inMemory = try await crawl(set, root: root, spooling: CrawlOptions.Spooling())
        #expect(!inMemory.checks.isSpooled)
        #expect(inMemory.checks.count > 0)
        do {
            // Runs of two links and no checks in memory: everything goes through the files.
            let streamed = try await crawl(set, root: root, spooling: CrawlOptions.Spooling(runLength: 2, checksInMemory: 0, directory: folder.path))
            #expect(streamed.checks.isSpooled)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1, "one spool folder while the report lives")
            #expect(JSONReportRenderer().render(streamed) == JSONReportRenderer().render(inMemory))
            #expect(TextReportRenderer(useColor: false).render(streamed) == TextReportRenderer(useColor: false).render(inMemory))
            #expect(JUnitReportRenderer().render(streamed) == JUnitReportRenderer().render(inMemory))
            #expect(streamed == inMemory)
            #expect(streamed.exitCode == inMemory.exitCode && streamed.counts == inMemory.counts && streamed.defects == inMemory.defects)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the spool folder goes with the report")
    }
}

/// The queue the pending checks wait in, in discovery order.
@Suite struct SpillQueueTests {
    private func check(_ url: String, _ rel: String = "item", index: Int, outcome: CheckedLink.Outcome = .passed) -> CheckedLink {
        CheckedLink(
            url: url, rel: rel, relPath: ["root", rel], referrer: "http://x/", sourcePointer: "/_links/\(rel)", outcome: outcome, statusCode: 200,
            duration: .milliseconds(3), discoveryIndex: index)
    }

    @Test func valuesComeBackInOrderWhateverIsHeldInMemory() {
        let values = (0..<2_000).map { check("http://x/r/\(($0 * 37) % 700)", index: $0 + 1, outcome: $0 % 3 == 0 ? .passed : .skipped(reason: "é ✓")) }
        for memoryLimit in [1, 7, 500, 5_000] {
            let queue = SpillQueue<CheckedLink>(directory: SpoolDirectory(), memoryLimit: memoryLimit)
            for value in values { queue.append(value) }
            var drained = queue.drain()
            var result: [CheckedLink] = []
            while let next = drained.next() { result.append(next) }
            #expect(drained.failure == nil && queue.failure == nil)
            #expect(result == values, "memory limit \(memoryLimit)")
        }
    }

    @Test func valuesThatCannotBeWrittenStayInMemoryAndTheFailureIsKept() {
        let values = (0..<25).map { check("http://x/r/\($0)", index: $0 + 1) }
        let queue = SpillQueue<CheckedLink>(directory: SpoolDirectory(parent: "/nonexistent-apicheck-\(UUID().uuidString)"), memoryLimit: 10)
        for value in values { queue.append(value) }
        #expect(queue.failure != nil)
        var drained = queue.drain()
        var result: [CheckedLink] = []
        while let next = drained.next() { result.append(next) }
        #expect(result == values)
    }

    @Test func aCheckSurvivesTheRoundTrip() throws {
        let original = CheckedLink(
            method: "DELETE", url: "http://x/ü?a=1", rel: nil, relPath: [], referrer: nil, sourcePointer: "/links/0", outcome: .notChecked(reason: "needs variables: id"),
            statusCode: nil, duration: .milliseconds(1234), discoveryIndex: 70_000)
        var encoder = SpoolEncoder()
        original.encode(into: &encoder)
        var decoder = SpoolDecoder(encoder.bytes)
        #expect(try CheckedLink(from: &decoder) == original)
        var truncated = SpoolDecoder(Array(encoder.bytes.dropLast(3)))
        #expect(throws: SpoolDecodingError.self) { try CheckedLink(from: &truncated) }
    }
}

/// Checks are written to the JSON report directly, not through a value tree: the bytes are the
/// value tree's.
@Suite struct CheckJSONWritingTests {
    @Test(arguments: [
        CheckedLink(url: "http://x/", outcome: .passed),
        CheckedLink(method: "POST", url: "http://x/\"q\"\u{2028}", rel: "ü", relPath: ["library", "items[2]", "poster"], referrer: "http://x/r", sourcePointer: "/_links/a", outcome: .failed, statusCode: 404, duration: .milliseconds(12)),
        CheckedLink(url: "http://x/", rel: nil, relPath: ["a"], referrer: nil, sourcePointer: nil, outcome: .skipped(reason: "why\n"), statusCode: nil, duration: .seconds(2)),
        CheckedLink(url: "http://x/", outcome: .notChecked(reason: "needs variables: id"), statusCode: 200),
    ])
    func theDirectWriterWritesWhatTheValueWriterWrites(_ check: CheckedLink) {
        let paths = RelPathTable(findings: [], checks: [check])
        for indent in [0, 2] {
            var direct = ""
            check.writePrettyJSON(indent: indent, path: paths.members(of: check.relPath), into: &direct)
            var tree = ""
            JSONWriter(style: .pretty).write(check.jsonValue(path: paths.members(of: check.relPath)), indent: indent, into: &tree)
            #expect(direct == tree)
        }
    }
}

/// Reports read back from files a piece at a time, and shards merged through temporary files.
@Suite struct StreamedMergeTests {
    private func crawl(shard: Shard?) async throws -> CrawlReport {
        let loaded = StubLoader().load([Repository.path("stubs/acmeflix")])
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")))
        options.shard = shard
        options.spooling = CrawlOptions.Spooling(runLength: 3, checksInMemory: 0)
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    private func file(_ report: CrawlReport, in folder: URL, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(JSONReportRenderer().render(report).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func fourShardsReadFromFilesMergeIntoTheUnshardedReport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let whole = try await crawl(shard: nil)
        var shards: [CrawlReport] = []
        for index in 1...4 {
            let path = try file(try await crawl(shard: Shard(index: index, count: 4)), in: folder, "shard-\(index).json")
            let read = try CrawlReport(readingFile: path)
            #expect(read == (try CrawlReport(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)), "read a piece at a time = read whole")
            shards.append(read)
        }
        let merged = try CrawlReport.merging(shards)
        func untimed(_ checks: CheckList) -> [CheckedLink] {
            checks.map { check in
                var check = check
                check.duration = nil
                return check
            }
        }
        #expect(untimed(merged.checks) == untimed(whole.checks))
        #expect(merged.findings == whole.findings)
        #expect(merged.defects == whole.defects)
        #expect(merged.exitCode == whole.exitCode)
        var mergedCounts = merged.counts
        var wholeCounts = whole.counts
        (mergedCounts.requests, mergedCounts.resourcesFetched, wholeCounts.requests, wholeCounts.resourcesFetched) = (0, 0, 0, 0)
        #expect(mergedCounts == wholeCounts)
    }

    @Test func aDamagedReportFileIsAnErrorWithItsPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let check = CheckedLink(url: "http://x/", relPath: ["a"], outcome: .passed)
        let report = CrawlReport(tool: ToolInfo(version: "1"), root: "http://x/", startTime: Date(), duration: .zero, checks: [check, check])
        let text = JSONReportRenderer().render(report)
        // A check whose outcome is a number, on a known line.
        let broken = text.replacingOccurrences(of: "\"outcome\": \"passed\"", with: "\"outcome\": 7")
        let path = folder.appendingPathComponent("broken.json").path
        try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"outcome\": 7") }! + 1
        #expect {
            try CrawlReport(readingFile: path)
        } throws: { error in
            "\(error)".hasPrefix("\(path):\(line):") && "\(error)".contains("outcome")
        }
        // Cut in the middle of the checks.
        try Data(text.utf8.prefix(text.utf8.count * 3 / 4)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ReportDecodingError.self) { try CrawlReport(readingFile: path) }
    }
}

/// Inputs that try to make a crawl's work or memory unbounded.
@Suite struct CrawlScaleBadInputTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every page links to two pages never seen before, forever: the request limit ends it, and
    /// what was not reached is reported as skipped.
    @Test func endlessNewURLsEndAtTheRequestLimit() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"_links": {"self": {"href": "/n/{{request.pathParams.id}}"}, "left": {"href": "/n/{{request.pathParams.id}}0"}, "right": {"href": "/n/{{request.pathParams.id}}1"}}}"#.utf8)
            .write(to: folder.appendingPathComponent("node.json.mustache"))
        try Data(#"""
            {"stubs": [
              {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "bodyText": "{\"_links\": {\"self\": {\"href\": \"/\"}, \"start\": {\"href\": \"/n/1\"}}}"}},
              {"request": {"path": "/n/{id}"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "template": "node.json.mustache"}}
            ]}
            """#.utf8).write(to: folder.appendingPathComponent("endless.json"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")), maximumDepth: 10_000, maximumRequests: 2_000)
        options.listsEveryCheck = true
        options.spooling = CrawlOptions.Spooling(runLength: 256, checksInMemory: 100)
        let report = await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
        #expect(report.statistics.requests == 2_000)
        #expect(report.statistics.resourcesFetched == 2_000)
        #expect(report.counts.linksChecked >= 2_000)
        #expect(report.counts.linksSkipped > 0)
        #expect(report.checks.contains { $0.outcome.reason?.contains("request limit") == true })
        // The only finding says what the limit left out and how to raise it.
        #expect(report.findings.map(\.rule) == [.crawlLimit], "\(report.findings.prefix(3))")
        #expect(report.findings.first?.message.hasPrefix("--max-requests 2000 was reached: ") == true)
        #expect(report.findings.first?.message.hasSuffix(" resources were not fetched (the links to them are reported as skipped): raise --max-requests") == true)
    }

    /// A page with far more links than the crawl reads: labelled in linear time (it was
    /// quadratic), the first ones checked, the crawl ends. Its speed is in Benchmarks/crawl.sh.
    @Test func aPageWithAHundredThousandLinksEnds() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = (0..<100_000).map { #"{"href": "/i/\#($0)"}"# }.joined(separator: ",")
        let body = #"{"_links": {"self": {"href": "/"}, "item": [\#(items)]}}"#
        let escaped = body.replacingOccurrences(of: "\"", with: "\\\"")
        try Data(#"""
            {"stubs": [
              {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "bodyText": "\#(escaped)"}},
              {"request": {"path": "/i/{id}"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "bodyText": "{}"}}
            ]}
            """#.utf8).write(to: folder.appendingPathComponent("wide.json"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")), concurrency: 16)
        options.listsEveryCheck = true
        options.spooling = CrawlOptions.Spooling(runLength: 4_096, checksInMemory: 1_000)
        let report = await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
        #expect(report.errors.isEmpty)
        #expect(report.counts.linksFound == 10_000, "self and the first 9,999 items: --max-links 10000")
        #expect(report.checks.contains { $0.rel == "item" && $0.relPath == ["item[9]"] })
        // The rest are not dropped silently: a crawl-limit warning says how many, and the flag.
        let limit = try #require(report.findings.first { $0.rule == .crawlLimit })
        #expect(limit.message == "90001 of the 100001 links in the response were not extracted (--max-links 10000): raise --max-links")
        #expect(limit.severity == .warning && limit.sourcePointer == "/_links/item/9999")
        #expect(report.exitCode == .success, "a warning; --strict fails on it")
    }
}

/// Review findings on the streamed crawl, pinned.
@Suite struct StreamedCrawlRegressionTests {
    /// Sampling decides before the depth limit, as it did before streaming: a sampled-out link
    /// says so even where it would also be too deep, and the sampled kinds are counted.
    @Test func samplingIsDecidedBeforeTheDepthLimit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"""
            {"stubs": [{"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"},
              "bodyText": "{\"_links\": {\"self\": {\"href\": \"/\"}, \"item\": [{\"href\": \"/a\"}, {\"href\": \"/b\"}]}}"}}]}
            """#.utf8).write(to: folder.appendingPathComponent("root.json"))
        let loaded = StubLoader().load([folder.path])
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")), maximumDepth: 0)
        options.listsEveryCheck = true
        options.sampleSize = 1
        let report = await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
        #expect(report.sampling == [SampledKind(kind: "root → item[*]", seen: 2, checked: 1)])
        #expect(report.checks.first { $0.url == "http://localhost:3000/b" }?.outcome == .skipped(reason: "sampled out (--sample 1)"))
        #expect(report.checks.first { $0.url == "http://localhost:3000/a" }?.outcome == .skipped(reason: "deeper than --max-depth 0"))
    }

    @Test func aReportFileWithAByteOrderMarkIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = CrawlReport(
            tool: ToolInfo(version: "1"), root: "http://x/", startTime: Date(timeIntervalSince1970: 0), duration: .zero,
            checks: [CheckedLink(url: "http://x/", relPath: ["a"], outcome: .passed)])
        let path = folder.appendingPathComponent("bom.json").path
        try Data([0xEF, 0xBB, 0xBF] + Array(JSONReportRenderer().render(report).utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try CrawlReport(readingFile: path) == report)
    }
}

/// The crawl's visited set, split in dictionaries that grow one at a time.
@Suite struct ResourceIndexTests {
    @Test func keysAreCountedOnceAndFoundAgainWhateverTheirShard() {
        var index = ResourceIndex()
        let keys = (0..<10_000).map { URLKey(normalised: "http://h/r/\($0)") }
        var inserted = 0
        for key in keys where index.insertQueued(key) { inserted += 1 }
        #expect(inserted == keys.count)
        #expect(index.count == keys.count)
        var again = 0
        for key in keys where index.insertQueued(key) { again += 1 }
        #expect(again == 0)
        #expect(index.count == keys.count)
        index.recordSkipped(keys[7], reason: "outside the shard")
        #expect(index.count == keys.count)
        let other = URLKey(normalised: "http://h/other")
        #expect(!index.contains(other))
        index.recordSkipped(other, reason: "outside the shard")
        #expect(index.contains(other) && index.count == keys.count + 1)
        guard case .skipped(let reason, _) = index.outcome(of: keys[7]) else {
            Issue.record("expected the skip recorded for the key")
            return
        }
        #expect(reason == "outside the shard")
        guard case .skipped(let queued, _) = index.outcome(of: keys[8]) else {
            Issue.record("expected a queued key to read as not fetched")
            return
        }
        #expect(queued.hasPrefix("not fetched"))
    }
}

/// The index's open-addressing table against a `Dictionary` doing the same.
@Suite struct SummaryTableTests {
    @Test func itAgreesWithADictionaryThroughEveryGrowth() {
        var table = SummaryTable()
        var model: [URLKey: ResourceSummary] = [:]
        var generator = SystemRandomNumberGenerator()
        var keys: [URLKey] = []
        for step in 0..<60_000 {
            // Mostly new keys, some updates of keys already in, as a crawl queues then records.
            let key = keys.isEmpty || step % 4 != 0 ? URLKey(high: generator.next(), low: generator.next()) : keys[Int.random(in: 0..<keys.count)]
            var summary = ResourceSummary(state: .response)
            summary.status = Int16(step % 600)
            summary.milliseconds = UInt32(step)
            let inserted = table.set(summary, for: key)
            #expect(inserted == (model.updateValue(summary, forKey: key) == nil))
            if inserted { keys.append(key) }
        }
        #expect(table.count == model.count)
        for (key, summary) in model {
            guard let found = table[key] else {
                Issue.record("a key set is not found")
                return
            }
            #expect(found.status == summary.status && found.milliseconds == summary.milliseconds)
        }
        for _ in 0..<1_000 { #expect(table[URLKey(high: generator.next(), low: generator.next())] == nil) }
    }

    @Test func keysThatShareTheirSlotAreAllKept() {
        // The slot is read from the key's high bits: equal high bits collide, and wrap past the end.
        var table = SummaryTable()
        let colliding = (0..<40).map { URLKey(high: .max, low: UInt64($0)) }
        for (index, key) in colliding.enumerated() {
            let inserted = table.set(ResourceSummary(state: .skipped, text: UInt32(index)), for: key)
            #expect(inserted)
        }
        #expect(table.count == colliding.count)
        #expect(colliding.enumerated().allSatisfy { table[$1]?.text == UInt32($0) })
    }
}
