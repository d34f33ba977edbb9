import APICheckJSON
import APICheckSpool
import Foundation
import Testing

@testable import APICheckFindings
@testable import APICheckReportFormats

@Suite struct RelPathTests {
    @Test func aPathExtendsItsParent() {
        let movies: RelPath = ["library", "movies[3]"]
        let poster = movies.appending("poster")
        #expect(poster.labels == ["library", "movies[3]", "poster"])
        #expect(poster.count == 3 && poster.last == "poster" && poster.parent == movies)
        #expect(poster.description == "root → library → movies[3] → poster")
        #expect(RelPath.shape(poster) == "root → library → movies[*] → poster")
        #expect(RelPath.root.isEmpty && RelPath.root.description == "root" && RelPath.root.parent == nil)
        #expect(Array(poster) == poster.labels)
        #expect(poster.abbreviatedDescription == poster.description)
    }

    @Test func aLongPathIsAbbreviatedForPeople() {
        let sixteen = RelPath((1...16).map { "s\($0)" })
        #expect(sixteen.abbreviatedDescription == sixteen.description)
        let deep = RelPath((1...4000).map { "s\($0)" })
        #expect(deep.abbreviatedDescription == "root → s1 → s2 → s3 → s4 → s5 → s6 → … 3988 more … → s3995 → s3996 → s3997 → s3998 → s3999 → s4000")
        #expect(Finding(rule: .linkResolves, url: "u", relPath: deep, message: "m").relPathDescription == deep.abbreviatedDescription)
    }

    @Test func equalityAndHashingGoByLabelsWhetherSharedOrNot() {
        let shared = RelPath(["a", "b"]).appending("c")
        let rebuilt: RelPath = ["a", "b", "c"]
        #expect(shared == rebuilt && shared.hashValue == rebuilt.hashValue)
        #expect(shared != ["a", "b", "d"] && shared != ["a", "b"] && shared != ["x", "b", "c"])
        #expect(Set([shared, rebuilt, ["a"]]).count == 2)
    }

    /// A hostile API's chain can be deeper than the stack: releasing a path must not recurse
    /// once per step (1,000,000 steps would overflow any thread's stack).
    @Test func aVeryDeepPathIsReleasedWithoutRecursion() {
        var path = RelPath.root
        for _ in 0..<1_000_000 { path = path.appending("next") }
        #expect(path.count == 1_000_000)
        path = .root
        #expect(path.isEmpty)
    }

    @Test func theTableWritesEachPathOnceParentsFirst() {
        let movies: RelPath = ["library", "movies[3]"]
        let table = RelPathTable()
        // The same path built twice (not sharing storage) is one entry.
        table.add(RelPath(["library", "movies[3]"]).appending("poster"))
        table.add(movies.appending("self"))
        table.add(["library"])
        table.add(["other", "x"])
        #expect(table.steps == ["library", "movies[3]", "other"])
        #expect(table.parents == [-1, 0, -1])
        #expect(table.members(of: movies.appending("poster"))! == (via: 1, step: "poster"))
        #expect(table.members(of: ["top"])! == (via: nil, step: "top"))
        #expect(table.members(of: .root) == nil)
    }
    /// Spooled checks are read for their paths alone (labels, not whole checks): the table and
    /// each check's `via` are what reading whole checks gives, and a damaged file is still
    /// noticed by the list (its report is then incomplete).
    @Test func aSpooledListsTableIsReadFromItsPathsAlone() throws {
        let paths: [RelPath] = [
            .root, ["a"], ["a", "b[1]"], ["a", "b[1]", "c"], ["a", "b[2]", "c"], ["x", "y", "z", "w"], ["a", "b[1]", "d"], ["x", "y", "q"],
        ]
        let checks = paths.enumerated().map { index, path in
            CheckedLink(url: "https://h/\(index)", rel: path.last, relPath: path, referrer: "https://h/", sourcePointer: nil, outcome: .passed, statusCode: 200, duration: nil)
        }
        let builder = CheckListBuilder(directory: SpoolDirectory(), memoryLimit: 2)
        for check in checks { builder.append(check) }
        let list = builder.finish()
        #expect(list.isSpooled && list.relPathLabels != nil)

        let fromLabels = RelPathTable(findings: [], checks: list)
        let fromChecks = RelPathTable(findings: [], checks: Array(list))
        #expect(fromLabels.steps == fromChecks.steps && fromLabels.parents == fromChecks.parents)
        #expect(fromLabels.steps == ["a", "b[1]", "b[2]", "x", "y", "z"])
        for (index, check) in list.enumerated() {
            let recorded = fromLabels.members(ofCheck: index, check)
            let lookedUp = fromChecks.members(of: check.relPath)
            #expect(recorded?.via == lookedUp?.via && recorded?.step == lookedUp?.step, "check \(index)")
        }
        #expect(list.readFailure == nil)

        guard case .spooled(let records) = list.storage else { return }
        #expect(truncate(records.path, 9) == 0)
        _ = RelPathTable(findings: [], checks: list)
        #expect(list.readFailure != nil)
    }
}

/// The JSON report writes each rel path once (schema version 3), reads it back, and still reads
/// the whole `relPath` arrays of versions 1 and 2.
@Suite struct RelPathReportTests {
    /// A `next` chain `depth` links deep: every resource's check and a finding on each.
    private func chainReport(depth: Int) -> CrawlReport {
        var path = RelPath.root
        var checks = [CheckedLink(url: "https://h/0", outcome: .passed, statusCode: 200)]
        var findings: [Finding] = []
        for step in 1...depth {
            path = path.appending("next")
            let check = CheckedLink(
                url: "https://h/\(step)", rel: "next", relPath: path, referrer: "https://h/\(step - 1)", sourcePointer: "/_links/next",
                outcome: step % 10 == 0 ? .failed : .passed, statusCode: step % 10 == 0 ? 500 : 200)
            checks.append(check)
            if step % 10 == 0 { findings.append(check.finding(.linkResolves, expected: "2xx", actual: "500", message: "the link does not resolve")) }
        }
        return SampleReports.report(findings: findings, checks: checks)
    }

    @Test func aDeepChainsReportGrowsLinearly() throws {
        let shallow = JSONReportRenderer().render(chainReport(depth: 500)).utf8.count
        let deep = JSONReportRenderer().render(chainReport(depth: 2000)).utf8.count
        // Four times the links, four times the bytes (whole paths in every check: sixteen times).
        #expect(Double(deep) / Double(shallow) < 4.4, "\(shallow) → \(deep) bytes")
        #expect(deep < 2000 * 900, "\(deep) bytes for 2,000 links")
    }

    @Test func aDeepChainRoundTripsInMemoryAndFromAFile() throws {
        let report = chainReport(depth: 300)
        let text = JSONReportRenderer(occurrencesListed: nil).render(report)
        let decoded = try CrawlReport(decoding: Array(text.utf8), path: "chain.json")
        #expect(decoded == report)
        #expect(decoded.findings.first { $0.url == "https://h/300" }?.relPath.description == "root" + String(repeating: " → next", count: 300))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relpath-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let read = try CrawlReport(readingFile: file)
        #expect(read == report)
        #expect(JSONReportRenderer(occurrencesListed: nil).render(read) == text)
    }

    /// Version 2 wrote each whole path as `relPath`: such reports (baselines, shards, archived
    /// runs) are still read.
    @Test func versionTwoReportsAreStillRead() throws {
        let report = SampleReports.report()
        let text = JSONReportRenderer().render(report)
        guard case .object(var members) = try JSONParser().parseValue(Array(text.utf8)) else {
            Issue.record("not an object")
            return
        }
        // Version 2's shape: the whole path as `relPath`, after `rel` (or `url`), no `paths`.
        func versionTwo(_ value: JSONValue, path: RelPath) -> JSONValue {
            guard case .object(let fields) = value else { return value }
            var result = fields.filter { $0.key != "via" && $0.key != "step" }
            let after = result.lastIndex { $0.key == "rel" || $0.key == "url" } ?? 0
            result.insert(JSONMember("relPath", .array(path.labels.map(JSONValue.string))), at: after + 1)
            return .object(result)
        }
        members.removeAll { $0.key == "paths" }
        for index in members.indices {
            switch members[index].key {
            case "schemaVersion": members[index].value = .number("2")
            case "findings": members[index].value = .array(zip(arrayElements(members[index].value), report.findings).map { versionTwo($0, path: $1.relPath) })
            case "checks": members[index].value = .array(zip(arrayElements(members[index].value), Array(report.checks)).map { versionTwo($0, path: $1.relPath) })
            default: break
            }
        }
        var old = ""
        JSONWriter(style: .pretty).write(.object(members), indent: 0, into: &old)
        #expect(old.contains("\"relPath\": [") && !old.contains("\"paths\""))
        let decoded = try CrawlReport(decoding: Array(old.utf8), path: "v2.json")
        #expect(decoded == report)
        #expect(JSONReportRenderer().render(decoded) == text)
    }

    private func arrayElements(_ value: JSONValue) -> [JSONValue] {
        if case .array(let elements) = value { return elements }
        return []
    }

    /// A crafted table cannot name a path deeper than crawl's --max-depth allows: every check
    /// naming it would be spooled with all its steps.
    @Test func aPathDeeperThanTheLimitIsRefused() throws {
        func table(_ entries: Int) -> String {
            "[" + (0..<entries).map { $0 == 0 ? #"{"step": "n"}"# : #"{"step": "n", "via": \#($0 - 1)}"# }.joined(separator: ",\n") + "]"
        }
        let reader = ReportJSONReader(path: "deep.json")
        // A path exactly at the limit is read.
        _ = try RelPathResolver(try reader.parse(Array(table(RelPath.maximumDepth).utf8), maximumBytes: 1 << 24), reader: reader)
        let error = #expect(throws: ReportDecodingError.self) {
            try RelPathResolver(try reader.parse(Array(table(RelPath.maximumDepth + 1).utf8), maximumBytes: 1 << 24), reader: reader)
        }
        #expect(error?.description == "deep.json:\(RelPath.maximumDepth + 1):22: error: a rel path deeper than 10000 steps (crawl --max-depth allows at most 10000)")
    }

    /// Checks before their paths (keys sorted by a tool) say so when read a piece at a time.
    @Test func checksBeforePathsSayWhy() throws {
        let text = JSONReportRenderer().render(SampleReports.report())
        guard case .object(var members) = try JSONParser().parseValue(Array(text.utf8)) else { return }
        let paths = try #require(members.firstIndex { $0.key == "paths" })
        members.append(members.remove(at: paths))
        var sorted = ""
        JSONWriter(style: .pretty).write(.object(members), indent: 0, into: &sorted)
        #expect(try CrawlReport(decoding: Array(sorted.utf8), path: "sorted.json") == SampleReports.report(), "read whole, the order does not matter")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sorted-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(sorted.utf8).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(readingFile: file) }
        #expect(error?.message.contains("\"paths\" must come before \"findings\" and \"checks\"") == true, "\(String(describing: error))")
    }

    @Test func aDefectDownADeepChainListsAShortPlace() {
        let deep = RelPath(Array(repeating: "next", count: 4000))
        let finding = Finding(rule: .selfConsistent, url: "https://h/4000", relPath: deep, message: "the self link names https://h/x, not the resource fetched (https://h/4000)")
        let defect = Defect.cluster([finding])[0]
        #expect(defect.places == ["root → next → next → next → next → next → next → … 3988 more … → next → next → next → next → next → next"])
    }

    @Test(arguments: [
        (#""via": 1, "step": "poster""#, #""via": 7, "step": "poster""#, #""via" is 7, but "paths" has 3 entries before it"#),
        (#""via": 1, "step": "poster""#, #""via": 1"#, #""via" without "step""#),
        (#""step": "movies[3]", "via": 0"#, #""step": "movies[3]", "via": 1"#, #""via" is 1, but "paths" has 1 entry before it"#),
        (#""paths": ["#, #""paths": 3, "x": ["#, #"expected "paths" to be an array, found a number"#),
    ])
    func brokenPathsAreLocated(original: String, replacement: String, message: String) throws {
        let report = SampleReports.report(findings: [SampleReports.brokenPoster])
        let valid = JSONReportRenderer().render(report).replacingOccurrences(of: "\n      \"via\": 1,\n      \"step\": \"poster\"", with: " \"via\": 1, \"step\": \"poster\"")
            .replacingOccurrences(of: "\"step\": \"movies[3]\",\n      \"via\": 0", with: "\"step\": \"movies[3]\", \"via\": 0")
        let range = try #require(valid.range(of: original))
        let broken = valid.replacingCharacters(in: range, with: replacement)
        let line = valid[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
        let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(broken.utf8), path: "r.json") }
        #expect(error?.message == message, "\(String(describing: error))")
        #expect(error?.location.line == line, "\(String(describing: error))")
    }
}
