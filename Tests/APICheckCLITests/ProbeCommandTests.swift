import APICheckJSON
import Foundation
import Testing

/// `apicheck probe` end to end against Benchmarks/probe-trial/target.py: a small API with planted
/// bugs behind HAL-FORMS, Siren and JSON:API affordances, one collection without bugs, and a
/// read-only mode; real sockets on 127.0.0.1.
@Suite(.serialized, .enabled(if: PythonUpstream.python != nil, "python3 is not on PATH: the probe target cannot run"))
struct ProbeCommandTests {
    static let target = CLI.repository.appendingPathComponent("Benchmarks/probe-trial/target.py")

    static func start(_ arguments: [String] = []) throws -> PythonUpstream {
        try PythonUpstream(script: target, arguments: ["--port", "0"] + arguments)
    }

    /// The target's own count of the requests it received (`/__stats`).
    static func stats(_ origin: String) throws -> (requests: Int, unsafe: Int) {
        let value = try JSONParser().parseValue(RawHTTP.get(origin + "__stats").body)
        guard case .number(let requests)? = value["requests"], case .number(let unsafe)? = value["unsafe"] else { return (-1, -1) }
        return (Int(requests) ?? -1, Int(unsafe) ?? -1)
    }

    /// `rule method path field` of every finding of a JSON report, the origin left out.
    static func findings(_ report: String, origin: String) throws -> [String] {
        let value = try JSONParser().parseValue(Array(report.utf8))
        guard case .array(let findings)? = value["findings"] else { return [] }
        return findings.map { finding in
            func text(_ key: String) -> String { if case .string(let text)? = finding[key] { text } else { "-" } }
            let field: String = if case .string(let field)? = finding["probe"]?["field"] { field } else { "-" }
            let path = text("url").replacingOccurrences(of: origin, with: "/").split(separator: "?").first.map(String.init) ?? ""
            return "\(text("rule")) \(text("method")) \(path) \(field)"
        }.sorted()
    }

    @Test func everyPlantedBugIsFoundOnceShrunkAndReproducedWithNoFalseAlarm() throws {
        let api = try Self.start()
        let root = api.baseURL
        let result = try CLI.run(["probe", root, "--unsafe", "--seed", "1", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let found = try Self.findings(result.stdout, origin: root)
        let probes = found.filter { $0.hasPrefix("probe-") }
        // 1: a duplicate name; 2: a list for authorIds; 3: an invalid page size; 4: a Location that 404s.
        #expect(probes.contains { $0.hasPrefix("probe-server-error POST /authors") }, "\(found)")
        #expect(probes.contains("probe-server-error POST /books authorIds"), "\(found)")
        #expect(probes.contains("probe-accepts-invalid GET /books size"), "\(found)")
        #expect(probes.contains { $0.hasPrefix("probe-created-resolves POST /reviews") }, "\(found)")
        #expect(!found.contains { $0.contains("/tags") }, "the collection without bugs raises no alarm: \(found)")
        let report = try JSONParser().parseValue(Array(result.stdout.utf8))
        guard case .array(let defects)? = report["defects"] else { Issue.record("no defects"); return }
        let reproductions = defects.compactMap { if case .string(let text)? = $0["reproduction"] { text } else { nil } }
        #expect(reproductions.contains { $0.contains("--data-binary") && $0.contains("/books") && $0.contains("authorIds") }, "\(reproductions)")
        #expect(report["command"] == .string("probe"))
        guard case .number(let created)? = report["probe"]?["created"], case .number(let deleted)? = report["probe"]?["deleted"] else {
            Issue.record("no probe summary")
            return
        }
        #expect(Int(created) ?? 0 > 0 && Int(deleted) ?? 0 > 0, "what it created, it deleted where DELETE is advertised")
    }

    @Test func withoutUnsafeOnlyReadsAreProbedAndAnUnknownIdThatCrashesIsFound() throws {
        let api = try Self.start(["--read-only"])
        let root = api.baseURL
        let result = try CLI.run(["probe", root, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let found = try Self.findings(result.stdout, origin: root)
        #expect(found.contains { $0.hasPrefix("probe-server-error GET /items/") }, "\(found)")
        #expect(try Self.stats(root).unsafe == 0, "probe without --unsafe sends no unsafe request")
        #expect(result.stdout.contains("a write: needs --unsafe"), "the POST form is listed as not probed")
    }

    @Test func aDryRunPrintsThePlanAndSendsNoProbe() throws {
        let api = try Self.start()
        let root = api.baseURL
        let crawl = try CLI.run(["crawl", root, "--format", "json"])
        let crawled = try Self.stats(root).requests
        let result = try CLI.run(["probe", root, "--unsafe", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Probe plan for \(root) (seed 0, --unsafe): "), "\(result.stdout)")
        #expect(result.stdout.contains("POST default (HAL-FORMS) at root → authors"), "\(result.stdout)")
        #expect(try Self.stats(root).requests == 2 * crawled, "the probe's crawl, as many as a crawl's, and no probe: \(crawl.stderr)")
        #expect(try Self.stats(root).unsafe == 0)
    }

    @Test func aPlainCrawlSendsNoProbeRequest() throws {
        let api = try Self.start()
        let root = api.baseURL
        let result = try CLI.run(["crawl", root, "--format", "json"])
        let report = try JSONParser().parseValue(Array(result.stdout.utf8))
        guard case .number(let requests)? = report["counts"]?["requests"] else {
            Issue.record("no counts: \(result.stdout.prefix(300))")
            return
        }
        let stats = try Self.stats(root)
        #expect(stats.unsafe == 0)
        #expect(stats.requests == Int(requests), "every request the target saw is one the crawl counts as its own")
        #expect(report["probe"] == nil)
    }

    @Test func probeHasHelpWithExamples() throws {
        let result = try CLI.run(["probe", "--help"])
        #expect(result.stdout.contains("Examples:") && result.stdout.contains("disposable environment"))
    }
}
