import APICheckJSON
import Foundation
import Testing

/// `apicheck crawl` driven as users run it: the built binary, exit codes, formats.
@Suite struct CrawlCommandTests {
    @Test func aStubSetWithDefectsExitsOneAndEveryFormatRenders() throws {
        let text = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix"])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.contains("error[link-resolves] GET poster links answer 500: /poster/{id} must answer 2xx (2 links)\n"))
        #expect(text.stdout.contains("  e.g. GET /poster/10CFL via root → library → movies[9].poster; GET /poster/10CFL via root → library → movies[9].self → poster\n"))
        #expect(text.stdout.contains("  reproduce: curl -i 'http://localhost:3000/poster/10CFL'\n"))
        // Defects, not occurrences: the demo's 116 findings fit a screen, no defect twice.
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 40, "\(lines.count) lines")
        let entries = lines.filter { $0.hasPrefix("error[") || $0.hasPrefix("warning[") }
        #expect(entries.count == 13 && Set(entries).count == entries.count, "\(entries)")
        #expect(text.stdout.contains("13 defects in 116 findings (42 errors, 74 warnings)"))
        #expect(!text.stdout.contains("\u{1B}["), "no colour through a pipe")

        let json = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "json"])
        #expect(json.status == 1)
        let report = try JSONParser().parseValue(Array(json.stdout.utf8))
        #expect(report["schemaVersion"] == 4)
        #expect(report.value(at: "/counts/defects") == 13)
        guard case .array(let findings)? = report["findings"] else {
            Issue.record("no findings array")
            return
        }
        #expect(findings.contains { $0["rule"] == "duplicate-rel" && $0["url"] == "http://localhost:3000/movies/pLDhp" })

        let junit = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "junit"])
        #expect(junit.stdout.hasPrefix("<?xml") && junit.stdout.contains("<failure"))
        let github = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "github"])
        #expect(github.stdout.contains("::error "))
    }

    @Test func rulesCanBeSilencedAndWarningsMadeFatal() throws {
        let silenced = try CLI.run([
            "crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix",
            "--rule", "link-resolves=off", "--rule", "type-matches=off",
        ])
        #expect(silenced.status == 0, "only warnings remain: \(silenced.stdout.suffix(300))")
        let strict = try CLI.run([
            "crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix",
            "--rule", "link-resolves=off", "--rule", "type-matches=off", "--strict",
        ])
        #expect(strict.status == 1)
    }

    @Test func aBaselineSuppressesKnownFindings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-crawl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("baseline.json").path
        let first = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--write-baseline", baseline])
        #expect(first.status == 1)
        let second = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--baseline", baseline])
        #expect(second.status == 0, "\(second.stdout.suffix(300))")
    }

    @Test func debugLogsTimeEachPhaseOnStandardError() throws {
        let quiet = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "json"])
        #expect(!quiet.stderr.contains("rules evaluated"))
        let debug = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "json", "--log-level", "debug"])
        #expect(debug.status == 1)
        for phase in ["resources in", "rules evaluated for", "report assembled in", "report written in"] {
            #expect(debug.stderr.contains(phase), "\(phase): \(debug.stderr.suffix(500))")
        }
        #expect(try JSONParser().parseValue(Array(debug.stdout.utf8))["schemaVersion"] == 4, "stdout stays a clean report")
    }

    @Test func anUnreachableRootIsAnInfrastructureError() throws {
        // Port 9 (discard) on loopback: nothing listens there in a test sandbox.
        let result = try CLI.run(["crawl", "http://127.0.0.1:9/", "--timeout", "5"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("unreachable"))
        #expect(result.stdout.contains("nothing listens on 127.0.0.1:9; is the server running"), "\(result.stdout)")
        #expect(!result.stdout.contains("errno"), "no system-call jargon")
    }

    @Test func badFlagsExitTwoWithWhatToDo() throws {
        let notURL = try CLI.run(["crawl", "not a url"])
        #expect(notURL.status == 2 && notURL.stderr.contains("not an http(s) URL"))
        let shard = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--shard", "5/4"])
        #expect(shard.status == 2 && shard.stderr.contains("--shard"))
        let rule = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--rule", "nope=error"])
        #expect(rule.status == 2)
        let help = try CLI.run(["crawl", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Examples:"))
    }

    @Test func shardsPartitionTheLinksAndMergeBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for index in 1...3 {
            let path = folder.appendingPathComponent("shard-\(index).json").path
            let shard = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--shard", "\(index)/3", "--format", "json", "--output", path])
            #expect(shard.stderr.contains("notice: --shard is deprecated") && shard.stderr.contains("--sample"), "\(shard.stderr)")
            paths.append(path)
        }
        let whole = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "json"])
        let merged = try CLI.run(["report", "merge"] + paths + ["--format", "json"])
        #expect(merged.status == 1, "\(merged.stderr)")
        let wholeReport = try JSONParser().parseValue(Array(whole.stdout.utf8))
        let mergedReport = try JSONParser().parseValue(Array(merged.stdout.utf8))
        #expect(mergedReport["findings"] == wholeReport["findings"])
        #expect(mergedReport["checkCounts"] == wholeReport["checkCounts"])
        #expect(mergedReport["checks"].map(Self.untimed) == wholeReport["checks"].map(Self.untimed))
    }

    /// A check's `durationSeconds` differ from run to run.
    static func untimed(_ checks: JSONValue) -> JSONValue {
        guard case .array(let elements) = checks else { return checks }
        return .array(elements.map { check in
            guard case .object(let members) = check else { return check }
            return .object(members.filter { $0.key != "durationSeconds" })
        })
    }
}

/// The crawler against the stub server over real sockets on 127.0.0.1: the seeded defects of each
/// fixture set (their README tables) come out the same as in memory.
@Suite struct CrawlOverServeTests {
    func crawlOverHTTP(_ folder: String, root: String = "/", extra: [String] = []) throws -> (live: JSONValue, memory: JSONValue, status: Int32) {
        let server = try ServeCommandTests.ServeProcess([folder, "--port", "0", "--log-level", "error"])
        try server.waitUntilListening()
        defer { _ = server.stop() }
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:"))
        let live = try CLI.run(["crawl", server.baseURL + root, "--format", "json", "--concurrency", "16"] + extra)
        let memory = try CLI.run(["crawl", server.baseURL + root, "--stubs", folder, "--format", "json"] + extra)
        return (try JSONParser().parseValue(Array(live.stdout.utf8)), try JSONParser().parseValue(Array(memory.stdout.utf8)), live.status)
    }

    static func findings(_ report: JSONValue) -> [String] {
        guard case .array(let list)? = report["findings"] else { return [] }
        return list.map { "\($0["rule"].map { "\($0)" } ?? "") \($0["method"].map { "\($0)" } ?? "") \($0["url"].map { "\($0)" } ?? "")" }.sorted()
    }

    @Test(arguments: [
        ("stubs/hal-shop", "/", ["--var", "id=p-1001"], 9),
        ("stubs/jsonapi-blog", "/articles", [], 3),
        ("stubs/siren-orders", "/", [], 2),
        ("stubs/linkheader-pages", "/", [], 1),
    ])
    func fixtureOverHTTPMatchesInMemory(folder: String, root: String, extra: [String], expected: Int) throws {
        let (live, memory, status) = try crawlOverHTTP(folder, root: root, extra: extra)
        #expect(status == 1)
        #expect(Self.findings(live).count == expected, "\(Self.findings(live))")
        #expect(Self.findings(live) == Self.findings(memory))
    }

    static func defects(_ report: JSONValue, rule: String) -> [String] {
        guard case .array(let list)? = report["defects"] else { return [] }
        return list.filter { $0["rule"] == .string(rule) }.map { "\($0["id"].map { "\($0)" } ?? "") \($0["title"].map { "\($0)" } ?? "")" }
    }

    /// A recording of a live crawl without --unsafe holds the OPTIONS it asked about an unsafe
    /// link and no answer to the method: crawled in memory, it reports the same `method-valid`
    /// defect (id and title) as the live crawl against `apicheck serve` of those stubs; the title
    /// names no host or port, and the reproduction asks OPTIONS, as the crawl did.
    @Test func aRecordingCrawledInMemoryReportsTheLiveCrawlsMethodDefect() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubs = #"""
            {"stubs": [
              {"request": {"method": "GET", "path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                "body": {"_links": [{"rel": "self", "href": "/"}, {"rel": "cancel", "href": "/orders/1", "method": "DELETE"}]}}},
              {"request": {"method": "OPTIONS", "path": "/orders/1"}, "response": {"status": 204, "headers": {"Allow": "GET, HEAD, OPTIONS"}}}
            ]}
            """#
        try stubs.write(to: folder.appendingPathComponent("recorded.json"), atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.ServeProcess([folder.path, "--port", "0", "--log-level", "error"])
        try server.waitUntilListening()
        defer { _ = server.stop() }
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:"))

        let live = try CLI.run(["crawl", server.baseURL + "/", "--format", "json"])
        let memory = try CLI.run(["crawl", server.baseURL + "/", "--stubs", folder.path, "--format", "json"])
        let liveDefects = Self.defects(try JSONParser().parseValue(Array(live.stdout.utf8)), rule: "method-valid")
        #expect(liveDefects.count == 1, "\(live.stdout.prefix(1000))")
        #expect(Self.defects(try JSONParser().parseValue(Array(memory.stdout.utf8)), rule: "method-valid") == liveDefects)
        #expect(!liveDefects.joined().contains("127.0.0.1"), "\(liveDefects)")

        let text = try CLI.run(["crawl", server.baseURL + "/", "--stubs", folder.path])
        #expect(text.stdout.contains("error[method-valid] DELETE cancel links are not allowed by their target (Allow: GET, HEAD, OPTIONS): stop advertising the link there, or allow DELETE (1 link)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  reproduce: curl -i -X 'OPTIONS' '\(server.baseURL)/orders/1'\n"))
        #expect(!text.stdout.contains("-X 'DELETE'"))
    }

    /// A root without links (Datasette's `/.json`) passes, and says that only it was checked: a
    /// line in the text report, a warning on standard error for the other formats.
    @Test func aRootWithoutLinksPassesAndSaysNothingElseWasChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-nolinks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"request": {"method": "GET", "path": "/.json"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"databases": ["fixtures"], "version": "0.64"}}}"#
            .write(to: folder.appendingPathComponent("root.json"), atomically: true, encoding: .utf8)
        let text = try CLI.run(["crawl", "http://127.0.0.1:8001/.json", "--stubs", folder.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nwarning: only 1 resource and 0 links were checked: the root advertises no link apicheck reads"), "\(text.stdout)")
        #expect(text.stdout.contains("Passed, with no link checked (see the warning) (exit 0)."))
        let json = try CLI.run(["crawl", "http://127.0.0.1:8001/.json", "--stubs", folder.path, "--format", "json"])
        #expect(json.status == 0)
        #expect(json.stderr.contains("apicheck: warning: only 1 resource and 0 links were checked"), "\(json.stderr)")
        #expect(try JSONParser().parseValue(Array(json.stdout.utf8))["exitCode"] == 0)
    }

    /// A slow API (each item takes 0.3 s, one request at a time), crawled live through
    /// `apicheck serve`, stopped by `signal` after a second: the report of what was checked is
    /// written, says the crawl is incomplete, and the exit status is 2.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsTheCrawlAndWritesTheReportOfWhatWasChecked(signal: Int32) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = (0..<40).map { #"{"href":"/items/\#($0)"}"# }.joined(separator: ",")
        let stubs = #"""
            {"stubs": [
              {"request": {"method": "GET", "path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": {"_links": {"self": {"href": "/"}, "item": [\#(items)]}}}},
              {"request": {"method": "GET", "path": "/items/{id}"}, "latency": {"request": 0.3}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": {"_links": {"self": {"href": "/items/x"}}}}}
            ]}
            """#
        try stubs.write(to: folder.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.ServeProcess([folder.path, "--port", "0"])
        try server.waitUntilListening()
        defer { _ = server.stop() }

        let report = folder.appendingPathComponent("report.json")
        let crawl = Process()
        crawl.executableURL = CLI.executable
        crawl.arguments = ["crawl", server.baseURL + "/", "--concurrency", "1", "--format", "json", "--output", report.path]
        crawl.standardOutput = FileHandle.nullDevice
        crawl.standardError = FileHandle.nullDevice
        try crawl.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(crawl.processIdentifier, signal)
        #expect(crawl.finish(within: .seconds(10)), "the crawl did not stop")
        #expect(crawl.terminationStatus == 2)
        let json = try JSONParser().parseValue(Array(try Data(contentsOf: report)))
        guard case .string(let message)? = json.value(at: "/errors/0/message") else {
            Issue.record("no infrastructure error in \(json)")
            return
        }
        #expect(message.contains(signal == SIGINT ? "interrupted (SIGINT)" : "stopped (SIGTERM)"), "\(message)")
        #expect(json.value(at: "/exitCode") == 2)
        guard case .number(let checked)? = json.value(at: "/counts/linksChecked"), let count = Int(checked) else {
            Issue.record("no counts")
            return
        }
        #expect(count > 0 && count < 41, "\(count) links checked before the signal")
        #expect(json.value(at: "/counts/linksSkipped") != 0)
    }

    @Test func headerFromEnvExpandsVariablesAndRefusesMissingOnes() throws {
        let missing = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--header-from-env", "Authorization: Bearer $APICHECK_TEST_UNSET_TOKEN"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("the environment variable APICHECK_TEST_UNSET_TOKEN is not set or empty"), "\(missing.stderr)")
        let help = try CLI.run(["crawl", "--help"])
        #expect(help.stdout.contains("--header-from-env") && help.stdout.contains("--sample"))
    }
}
