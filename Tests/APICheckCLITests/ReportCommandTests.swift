import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

/// `apicheck report merge` and the report options it shares with `apicheck crawl`, driven
/// through the built binary with shard reports written by the library's JSON renderer.
@Suite struct ReportCommandTests {
    static let root = "https://api.example.com/"
    static let poster = "https://api.example.com/movies/3/poster"
    static let movie = "https://api.example.com/movies/3"

    static let brokenPoster = Finding(
        rule: .linkResolves, url: poster, rel: "poster", declaredType: "image/jpeg", sourcePointer: "/_links/poster", format: "HAL",
        relPath: ["movies[3]", "poster"], referrer: movie, expected: "2xx", actual: "404 Not Found", message: "the link does not resolve")
    static let jpgType = Finding(
        rule: .typeSyntax, url: movie, rel: "self", declaredType: "image/jpg", sourcePointer: "/_links/self", format: "HAL",
        relPath: ["movies[3]"], referrer: root, expected: "image/jpeg", actual: "image/jpg", message: "the declared type is not registered")

    /// A folder of its own per test, removed afterwards.
    struct Folder {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-report-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        @discardableResult
        func write(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
            return path(name)
        }

        func read(_ name: String) throws -> String {
            try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Shard 1 of 2 found a broken link (an error); shard 2 a type warning. Both saw the root.
    static func shard(_ index: Int, of count: Int = 2, root: String = root, errors: [CrawlProblem] = []) -> CrawlReport {
        let rootCheck = CheckedLink(url: root, outcome: .passed, statusCode: 200, duration: .milliseconds(5))
        let checks: [CheckedLink]
        let findings: [Finding]
        if index == 1 {
            checks = [
                rootCheck,
                CheckedLink(
                    url: poster, rel: "poster", relPath: ["movies[3]", "poster"], referrer: movie, sourcePointer: "/_links/poster",
                    outcome: .failed, statusCode: 404, duration: .milliseconds(7)),
            ]
            findings = [brokenPoster]
        } else {
            checks = [
                rootCheck,
                CheckedLink(
                    url: movie, rel: "self", relPath: ["movies[3]"], referrer: root, sourcePointer: "/_links/self", outcome: .failed,
                    statusCode: 200, duration: .milliseconds(3)),
            ]
            findings = [jpgType]
        }
        return CrawlReport(
            tool: ToolInfo(version: "9.9.9"), root: root, startTime: Date(timeIntervalSince1970: 1_740_830_400 + Double(index)),
            duration: .milliseconds(1500), shard: Shard(index: index, count: count),
            statistics: CrawlStatistics(resourcesFetched: 2, requests: 2), checks: checks, findings: findings, errors: errors)
    }

    /// Writes both shards and returns their paths.
    static func writeShards(in folder: Folder) throws -> [String] {
        try (1...2).map { try folder.write("shard-\($0).json", JSONReportRenderer().render(shard($0))) }
    }

    static func merge(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(["report", "merge"] + arguments)
    }

    static func json(_ text: String) throws -> JSONValue {
        try JSONParser().parseValue(Array(text.utf8))
    }

    static func count(_ value: JSONValue?) -> Int? {
        if case .array(let elements)? = value { return elements.count }
        return nil
    }

    @Test(arguments: ["text", "json", "junit", "github", "sarif", "markdown"])
    func mergesInEveryFormat(format: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let result = try Self.merge(shards + ["--format", format])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let out = result.stdout
        #expect(out.hasSuffix("\n"))
        #expect(!out.contains("\u{1B}"), "no colour when not writing to a terminal")
        switch format {
        case "text":
            #expect(out.contains("apicheck 9.9.9 crawl of https://api.example.com/\n"), "\(out)")
            #expect(!out.contains("(shard"), "a merged report is no shard")
            #expect(out.contains("error[link-resolves] the link does not resolve (expected 2xx, saw 404 Not Found) (1 link)\n  e.g. GET /movies/3/poster via root → movies[3] → poster\n"), "\(out)")
            #expect(out.contains("warning[type-syntax] "), "\(out)")
            #expect(out.contains("Summary: 4 resources fetched, 4 requests; 3 links: 3 checked"), "\(out)")
            #expect(out.contains("2 defects in 2 findings (1 error, 1 warning)"), "\(out)")
        case "json":
            let report = try Self.json(out)
            #expect(report["schemaVersion"] == 4)
            #expect(Self.count(report["defects"]) == 2)
            #expect(report["shard"] == nil)
            #expect(report["exitCode"] == 1)
            #expect(report["startTime"] == "2025-03-01T12:00:01.000Z")
            #expect(report["durationSeconds"] == .number("2.500"))
            #expect(report.value(at: "/counts/linksFound") == 3)
            #expect(report.value(at: "/counts/resourcesFetched") == 4)
            #expect(report.value(at: "/findings/0/rule") == "type-syntax")
            #expect(report.value(at: "/findings/1/rule") == "link-resolves")
            #expect(report.value(at: "/findings/1/fingerprint") == .string(Self.brokenPoster.fingerprint))
            #expect(Self.count(report["findings"]) == 2)
        case "junit":
            #expect(out.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"apicheck crawl https://api.example.com/\""))
            #expect(out.contains("failures=\"1\""), "\(out)")
            #expect(out.contains("<failure type=\"link-resolves\""))
        case "github":
            #expect(out.contains("::error title=link-resolves%3A the link does not resolve (expected 2xx%2C saw 404 Not Found) (1)::"), "\(out)")
            #expect(out.contains("::warning title=type-syntax%3A "), "\(out)")
            #expect(out.hasSuffix("exit code 1.\n"), "\(out)")
        case "sarif":
            let sarif = try Self.json(out)
            #expect(sarif["version"] == "2.1.0")
            #expect(Self.count(sarif.value(at: "/runs/0/results")) == 2)
            #expect(sarif.value(at: "/runs/0/invocations/0/exitCode") == 1)
        default:
            #expect(out.hasPrefix("## apicheck crawl failed: 2 defects (1 error, 1 warning)\n"), "\(out)")
            #expect(out.contains("### Defects (2)"), "\(out)")
            #expect(out.contains("| error | `link-resolves` | the link does not resolve (expected 2xx, saw 404 Not Found) | 1 | GET /movies/3/poster via root → movies\\[3\\] → poster |"), "\(out)")
        }
    }

    @Test func exitCodesFollowRulesAndStrict() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)

        // Only the warning is left: it fails only under --strict.
        let off = try Self.merge(shards + ["--rule", "link-resolves=off", "--format", "json"])
        #expect(off.status == 0, "\(off.stderr)")
        let offReport = try Self.json(off.stdout)
        #expect(offReport.value(at: "/configuration/rules/link-resolves") == "off")
        #expect(offReport.value(at: "/findings/0/rule") == "type-syntax")
        #expect(Self.count(offReport["findings"]) == 1)
        #expect(try Self.merge(shards + ["--rule", "link-resolves=off", "--strict"]).status == 1)

        // Re-levelled: the broken link is a warning now.
        let lowered = try Self.merge(shards + ["--rule", "LINK-RESOLVES=warning", "--format", "json"])
        #expect(lowered.status == 0)
        #expect(try Self.json(lowered.stdout).value(at: "/findings/1/severity") == "warning")
        let strict = try Self.merge(shards + ["--rule", "link-resolves=warning", "--strict", "--format", "json"])
        #expect(strict.status == 1)
        #expect(try Self.json(strict.stdout).value(at: "/configuration/strict") == true)

        // The last setting of a rule wins; both rules off leaves nothing to fail.
        let last = try Self.merge(shards + ["--rule", "link-resolves=error", "--rule", "link-resolves=off", "--rule", "type-syntax=off", "--strict"])
        #expect(last.status == 0, "\(last.stdout)")
        #expect(last.stdout.contains("0 errors, 0 warnings"), "\(last.stdout)")
    }

    @Test func writesToAFileAtomicallyAndReplacesIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let stdout = try Self.merge(shards + ["--format", "junit"]).stdout
        try folder.write("report.xml", "old contents that are longer than nothing at all")

        let result = try Self.merge(shards + ["--format", "junit", "--output", folder.path("report.xml")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(try folder.read("report.xml") == stdout)
        // Nothing but the shards and the report: no temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["report.xml", "shard-1.json", "shard-2.json"])
        let permissions = try FileManager.default.attributesOfItem(atPath: folder.path("report.xml"))[.posixPermissions] as? Int
        #expect(permissions.map { $0 & 0o044 } == 0o044, "readable like any file the shell writes (umask 022 or 002)")
    }

    @Test func outputInAMissingFolderIsAUsageError() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let missing = folder.path("no/such/report.xml")
        let result = try Self.merge(shards + ["--output", missing])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--output '\(missing)': the folder '\(folder.path("no/such"))' does not exist"), "\(result.stderr)")
        let baseline = try Self.merge(shards + ["--write-baseline", folder.path("gone/b.json")])
        #expect(baseline.status == 2)
        #expect(baseline.stderr.contains("--write-baseline"), "\(baseline.stderr)")
        let isFolder = try Self.merge(shards + ["--output", folder.url.path])
        #expect(isFolder.status == 2)
        #expect(isFolder.stderr.contains("is a folder"), "\(isFolder.stderr)")
        #expect(try Self.merge(shards + ["--output", folder.path("a"), "--write-baseline", folder.path("a")]).status == 2)
    }

    @Test func baselineWrittenThenApplied() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let baseline = folder.path("apicheck-baseline.json")

        let write = try Self.merge(shards + ["--write-baseline", baseline, "--format", "json"])
        #expect(write.status == 1, "writing a baseline does not hide the findings it records")
        #expect(write.stderr.contains("wrote the baseline \(baseline) (2 entries)"), "\(write.stderr)")
        let file = try Self.json(try folder.read("apicheck-baseline.json"))
        #expect(file["schemaVersion"] == 1)
        #expect(Self.count(file["entries"]) == 2)
        #expect(file.value(at: "/entries/0/fingerprint") == .string(Self.brokenPoster.fingerprint))

        let apply = try Self.merge(shards + ["--baseline", baseline, "--strict", "--format", "json"])
        #expect(apply.status == 0, "\(apply.stderr)")
        let report = try Self.json(apply.stdout)
        #expect(report.value(at: "/counts/suppressed") == 2)
        #expect(report.value(at: "/baseline/suppressed") == 2)
        #expect(Self.count(report.value(at: "/baseline/stale")) == 0)
        #expect(Self.count(report["findings"]) == 0)
        #expect(report["exitCode"] == 0)

        // A baseline of shard 1 alone: shard 2's warning is new (fails under --strict only).
        let partial = try folder.write("partial.json", Baseline(findings: [Self.brokenPoster]).jsonString)
        #expect(try Self.merge(shards + ["--baseline", partial]).status == 0)
        let text = try Self.merge(shards + ["--baseline", partial, "--strict"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("warning[type-syntax]"))
        #expect(!text.stdout.contains("error[link-resolves]"))

        // Refreshing a baseline in place: read first, then rewritten with the current findings.
        let refresh = try Self.merge(shards + ["--baseline", partial, "--write-baseline", partial])
        #expect(refresh.status == 0)
        #expect(Self.count(try Self.json(try folder.read("partial.json"))["entries"]) == 2)
    }

    @Test func badBaselinesAreLocatedUsageErrors() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let missing = try Self.merge(shards + ["--baseline", folder.path("nope.json")])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("\(folder.path("nope.json")): error: cannot read the baseline: No such file or directory"), "\(missing.stderr)")
        #expect(missing.stderr.contains("note: write a baseline with --write-baseline"))
        #expect(missing.stdout.isEmpty)

        let bad = try folder.write("bad.json", "{\"schemaVersion\": 1,\n  \"entries\": [{\"fingerprint\": 7}]}\n")
        let malformed = try Self.merge(shards + ["--baseline", bad])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.hasPrefix("\(bad):2:31: error: expected a string for \"fingerprint\", found a number"), "\(malformed.stderr)")
        #expect(malformed.stdout.isEmpty)
    }

    @Test func unreadableOrIncompatibleReportsExitTwo() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)

        let missing = try Self.merge([shards[0], folder.path("shard-3.json")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("\(folder.path("shard-3.json")): error: cannot read the report: No such file or directory"), "\(missing.stderr)")
        #expect(missing.stderr.contains("note: report merge reads the reports that 'apicheck crawl --shard i/n --format json --output FILE' writes"))

        let truncated = String(JSONReportRenderer().render(Self.shard(2)).prefix(60))
        let broken = try folder.write("broken.json", truncated)
        let malformed = try Self.merge([shards[0], broken])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.hasPrefix("\(broken):"), "\(malformed.stderr)")
        #expect(malformed.stderr.contains(": error: "))
        #expect(malformed.stdout.isEmpty)

        let wrongType = try folder.write("number.json", "{\n  \"schemaVersion\": 1,\n  \"tool\": 5\n}")
        let typed = try Self.merge([wrongType])
        #expect(typed.status == 2)
        #expect(typed.stderr.hasPrefix("\(wrongType):3:11: error: expected \"tool\" to be an object, found a number"), "\(typed.stderr)")

        let other = try folder.write("other.json", JSONReportRenderer().render(Self.shard(2, root: "https://other.example.com/")))
        let roots = try Self.merge([shards[0], other])
        #expect(roots.status == 2)
        #expect(
            roots.stderr.hasPrefix(
                "\(other): error: the reports are not shards of one crawl: their root differs ('https://api.example.com/' and 'https://other.example.com/') (compared with \(shards[0]))"),
            "\(roots.stderr)")
        #expect(roots.stderr.contains("note: merge only the reports of one crawl"))

        let threeWay = try folder.write("three.json", JSONReportRenderer().render(Self.shard(2, of: 3)))
        let counts = try Self.merge([shards[0], threeWay])
        #expect(counts.status == 2)
        #expect(counts.stderr.contains("their shard count differs ('2' and '3')"), "\(counts.stderr)")

        let rules = try Self.merge([shards[0], shards[1], "--rule", "nope=error"])
        #expect(rules.status == 2)
        #expect(rules.stderr.contains("unknown rule 'nope'; valid rules: link-resolves, method-valid"), "\(rules.stderr)")
        let level = try Self.merge([shards[0], "--rule", "link-resolves=loud"])
        #expect(level.status == 2)
        #expect(level.stderr.contains("unknown level 'loud'; valid levels: error, warning, off"), "\(level.stderr)")
        #expect(try Self.merge([shards[0], "--format", "yaml"]).status == 2)
        #expect(try Self.merge([]).status == 2)
    }

    @Test func missingShardsAndShardErrorsExitTwo() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let first = try folder.write("a.json", JSONReportRenderer().render(Self.shard(1, of: 3)))
        let third = try folder.write("c.json", JSONReportRenderer().render(Self.shard(3, of: 3)))
        let result = try Self.merge([first, third])
        #expect(result.status == 2)
        #expect(result.stdout.contains("1 of 3 shards missing from the merge (2/3): their links were not checked"), "\(result.stdout)")

        let aborted = try folder.write("b.json", JSONReportRenderer().render(Self.shard(2, of: 3, errors: [CrawlProblem(message: "time limit reached")])))
        let withError = try Self.merge([first, aborted, third, "--format", "github"])
        #expect(withError.status == 2)
        #expect(withError.stdout.contains("::error title=apicheck%3A crawl error::time limit reached"), "\(withError.stdout)")
    }

    @Test func aFileGivenTwiceIsNamedAsSuch() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try Self.writeShards(in: folder)
        let again = folder.url.appendingPathComponent("sub/../shard-1.json").path
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let result = try Self.merge([shards[0], shards[1], again])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(again): error: this report is given twice (as \(shards[0]))"), "\(result.stderr)")
        #expect(!result.stderr.contains("compared with"), "\(result.stderr)")
    }

    @Test func redactsCredentialsLeftInShardReports() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var leaky = Self.shard(1, of: 1)
        leaky.setFindings([
            Finding(rule: .linkResolves, url: "https://bob:hunter22@api.example.com/private?access_token=s3cr3t-t0ken&page=2", message: "m")
        ])
        let path = try folder.write("leaky.json", JSONReportRenderer().render(leaky))
        for format in ["text", "json", "github"] {
            let result = try Self.merge([path, "--format", format])
            #expect(result.status == 1)
            #expect(!result.stdout.contains("s3cr3t-t0ken") && !result.stdout.contains("hunter22"), "\(format): \(result.stdout)")
            #expect(result.stdout.contains("access_token=REDACTED"), "\(format)")
        }
    }

    @Test(arguments: [["report"], ["report", "merge"]])
    func helpHasExamples(command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("apicheck report merge report.json --baseline baseline.json --format github"), "\(result.stdout)")
        #expect(result.stdout.contains("apicheck report merge shard-*.json --format text --format junit=report.xml"), "\(result.stdout)")
        if command.count == 2 {
            #expect(result.stdout.contains("deprecated"), "\(result.stdout)")
            for option in ["--format", "--output", "--baseline", "--write-baseline", "--rule", "--strict"] {
                #expect(result.stdout.contains(option), "\(option)")
            }
        }
    }
}
