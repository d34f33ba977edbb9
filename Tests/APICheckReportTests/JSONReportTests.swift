import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

@Suite struct JSONReportTests {
    @Test func smallReportGolden() {
        let report = CrawlReport(
            tool: ToolInfo(version: "1.0.0"), root: "https://h/", startTime: SampleReports.start, duration: .milliseconds(1500),
            statistics: CrawlStatistics(resourcesFetched: 1, requests: 2),
            checks: [CheckedLink(url: "https://h/a", rel: "a", relPath: ["a"], referrer: "https://h/", sourcePointer: "/_links/a", outcome: .failed, statusCode: 500)],
            findings: [
                Finding(rule: .linkResolves, url: "https://h/a", rel: "a", sourcePointer: "/_links/a", relPath: ["a"], referrer: "https://h/",
                        expected: "2xx", actual: "500", message: "the link does not resolve")
            ])
        let expected = """
            {
              "schemaVersion": 4,
              "tool": {
                "name": "apicheck",
                "version": "1.0.0"
              },
              "command": "crawl",
              "root": "https://h/",
              "startTime": "2025-03-01T12:00:00.000Z",
              "durationSeconds": 1.500,
              "exitCode": 1,
              "configuration": {
                "strict": false,
                "rules": {
                  "body-schema": "error",
                  "content-type-present": "error",
                  "crawl-limit": "warning",
                  "drift-coverage": "warning",
                  "drift-header": "error",
                  "drift-links": "error",
                  "drift-shape": "error",
                  "drift-status": "error",
                  "drift-type": "error",
                  "duplicate-rel": "warning",
                  "format-shape": "warning",
                  "link-resolves": "error",
                  "method-valid": "error",
                  "openapi-body": "error",
                  "openapi-content-type": "error",
                  "openapi-header": "warning",
                  "openapi-operation": "warning",
                  "openapi-status": "error",
                  "probe-accepts-invalid": "warning",
                  "probe-created-resolves": "error",
                  "probe-response-type": "error",
                  "probe-server-error": "error",
                  "self-consistent": "warning",
                  "template-valid": "error",
                  "type-matches": "error",
                  "type-syntax": "warning"
                }
              },
              "counts": {
                "resourcesFetched": 1,
                "requests": 2,
                "linksFound": 1,
                "linksChecked": 1,
                "linksNotChecked": 0,
                "linksSkipped": 0,
                "errors": 1,
                "warnings": 0,
                "defects": 1,
                "suppressed": 0,
                "infrastructureErrors": 0
              },
              "errors": [],
              "listsEveryCheck": true,
              "paths": [],
              "checkCounts": [
                {
                  "step": "a",
                  "method": "GET",
                  "passed": 0,
                  "failed": 1,
                  "notChecked": 0,
                  "skipped": 0
                }
              ],
              "defects": [
                {
                  "id": "\(Defect.id(of: report.findings[0]))",
                  "rule": "link-resolves",
                  "severity": "error",
                  "title": "the link does not resolve (expected 2xx, saw 500)",
                  "count": 1,
                  "places": [
                    "root → a"
                  ],
                  "reproduction": "curl -i 'https://h/a'",
                  "occurrences": [
                    "\(report.findings[0].fingerprint)"
                  ]
                }
              ],
              "findings": [
                {
                  "rule": "link-resolves",
                  "severity": "error",
                  "method": "GET",
                  "url": "https://h/a",
                  "rel": "a",
                  "step": "a",
                  "referrer": "https://h/",
                  "sourcePointer": "/_links/a",
                  "expected": "2xx",
                  "actual": "500",
                  "message": "the link does not resolve",
                  "fingerprint": "\(report.findings[0].fingerprint)",
                  "defect": "\(Defect.id(of: report.findings[0]))"
                }
              ],
              "checks": [
                {
                  "method": "GET",
                  "url": "https://h/a",
                  "rel": "a",
                  "step": "a",
                  "referrer": "https://h/",
                  "sourcePointer": "/_links/a",
                  "outcome": "failed",
                  "statusCode": 500
                }
              ]
            }

            """
        #expect(JSONReportRenderer().render(report) == expected)
    }

    @Test func roundTripsEverything() throws {
        let hostile = "quote \" backslash \\ newline \n tab \t NUL \u{0} ESC \u{1B} é 🎬 \u{2028}"
        var report = SampleReports.report(
            findings: [
                SampleReports.brokenPoster, SampleReports.jpgType, SampleReports.embeddedArray,
                Finding(rule: .typeMatches, severity: .warning, method: "PATCH", url: "https://api.example.com/" + hostile, rel: hostile,
                        declaredType: "application/hal+json", servedType: "text/html", sourcePointer: "/a~1b", format: "JSON:API",
                        relPath: [hostile, ""], referrer: hostile, expected: hostile, actual: hostile, message: hostile),
            ],
            errors: [CrawlProblem(message: "time limit reached"), CrawlProblem(message: hostile, url: hostile)],
            configuration: try RuleConfiguration(parsing: ["type-syntax=error", "format-shape=off"], strict: true),
            shard: Shard(index: 3, count: 4))
        report = Baseline(findings: [Finding(rule: .selfConsistent, url: "https://gone/", message: "m")]).apply(to: report)
        let text = JSONReportRenderer().render(report)
        let decoded = try CrawlReport(decoding: Array(text.utf8), path: "report.json")
        #expect(decoded == report)
        #expect(JSONReportRenderer().render(decoded) == text)
        #expect(decoded.baseline?.stale.count == 1)
        #expect(decoded.configuration.strict)
        #expect(decoded.configuration.level(for: .formatShape) == .off)
    }

    @Test func membersComeInAFixedOrder() throws {
        let value = try JSONParser().parseValue(Array(JSONReportRenderer().render(SampleReports.report(shard: Shard(index: 1, count: 2))).utf8))
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.key) == [
                "schemaVersion", "tool", "command", "root", "startTime", "durationSeconds", "shard", "exitCode", "configuration", "counts", "errors",
                "listsEveryCheck", "paths", "checkCounts", "defects", "findings", "checks",
            ])
    }

    @Test(arguments: [
        ("{", "reports/a.json:1:2: error: unexpected end of document inside an object"),
        ("[]", "reports/a.json:1:1: error: expected the report to be an object, found an array"),
        (#"{"schemaVersion": 5}"#, "reports/a.json:1:19: error: unsupported report schemaVersion 5; this apicheck reads versions 1 to 4"),
        (#"{"schemaVersion": "1"}"#, #"reports/a.json:1:19: error: expected a non-negative integer for "schemaVersion", found a string"#),
        (#"{"schemaVersion": 1}"#, #"reports/a.json:1:1: error: missing member "tool""#),
    ])
    func decodingErrorsAreLocated(text: String, message: String) {
        let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(text.utf8), path: "reports/a.json") }
        #expect(error?.description == message)
    }

    @Test func decodingErrorsInsideFindingsPointAtTheValue() throws {
        let valid = JSONReportRenderer().render(SampleReports.report())
        let cases: [(String, String, String)] = [
            (#""rule": "link-resolves""#, #""rule": "link-resolve""#, "unknown rule \"link-resolve\"; valid rules: link-resolves, method-valid"),
            (#""severity": "error""#, #""severity": "fatal""#, "expected error or warning for \"severity\""),
            (#""url": "https://api.example.com/movies/3/poster""#, #""url": 3"#, "expected a string for \"url\", found a number"),
            (#""outcome": "skipped""#, #""outcome": "ignored""#, "expected passed, failed, notChecked or skipped for \"outcome\""),
            (#""startTime": "2025-03-01T12:00:00.000Z""#, #""startTime": "yesterday""#, "expected an ISO 8601 time"),
            (#""statusCode": 404"#, #""statusCode": 4040"#, "expected an HTTP status code"),
            (#""durationSeconds": 3.250"#, #""durationSeconds": -1"#, "expected a non-negative number of seconds"),
        ]
        for (original, replacement, message) in cases {
            // Defects are derived (recomputed when read), so the findings and checks are what is read.
            let readFrom = valid.range(of: "\"findings\": [")?.lowerBound ?? valid.startIndex
            guard let range = valid.range(of: original, range: (original.contains("startTime") || original.contains("durationSeconds\": 3") ? valid.startIndex : readFrom)..<valid.endIndex) else {
                Issue.record("no \(original) in the report")
                continue
            }
            let broken = valid.replacingCharacters(in: range, with: replacement)
            let line = valid[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
            let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(broken.utf8), path: "r.json") }
            #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
            #expect(error?.location.line == line, "\(String(describing: error))")
        }
    }

    @Test func hugeAndDeepInputIsRefused() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(deep.utf8)) }
        #expect(error?.message.contains("nesting") == true)
        let big = #expect(throws: ReportDecodingError.self) { try CrawlReport(decoding: Array(repeating: 0x20, count: 2048), maximumBytes: 1024) }
        #expect(big?.description == "<input>:1:1: error: the file is 2048 bytes, more than the limit of 1024")
    }

    @Test func derivedMembersAreRecomputed() throws {
        var text = JSONReportRenderer().render(SampleReports.report())
        text = text.replacingOccurrences(of: #""exitCode": 1"#, with: #""exitCode": 0"#)
        text = text.replacingOccurrences(of: #""linksFound": 6"#, with: #""linksFound": 600"#)
        text = text.replacingOccurrences(of: #""fingerprint": "d78fc725aa0100e9""#, with: #""fingerprint": "forged""#)
        let decoded = try CrawlReport(decoding: Array(text.utf8))
        #expect(decoded.exitCode == .contractViolations)
        #expect(decoded.counts.linksFound == 6)
        #expect(decoded.findings.contains { $0.fingerprint == "d78fc725aa0100e9" })
    }

    /// A large report is written in pieces (no string of the whole file), and the pieces are
    /// exactly the document `render(_:)` returns.
    @Test func streamsInPiecesThatMakeTheWholeDocument() {
        let checks = (0..<500).map { index in
            CheckedLink(url: "https://h/r/\(index)", rel: "item", relPath: ["item[\(index)]"], referrer: "https://h/", sourcePointer: "/_links/item/\(index)", outcome: .passed, statusCode: 200)
        }
        let report = SampleReports.report(checks: checks)
        var pieces: [String] = []
        JSONReportRenderer().render(report, chunkBytes: 4096) { pieces.append($0) }
        #expect(pieces.count > 10)
        #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= 4096 && $0.utf8.count < 4096 + 1024 })
        #expect(pieces.joined() == JSONReportRenderer().render(report))
        #expect(pieces.joined() == JSONWriter(style: .pretty).string(report.jsonValue) + "\n")
    }

    /// Many checks have their text made on several threads at once, batch after batch (at most
    /// 8,192 a batch): the same document, cut into the same pieces, as the value tree's, from
    /// memory and from a spool file.
    @Test(arguments: [false, true])
    func manyChecksWriteTheSameDocumentOnSeveralThreads(spooled: Bool) {
        let checks = (0..<20_000).map { index in
            CheckedLink(
                url: "https://h/r/\(index / 3)", rel: index % 7 == 0 ? nil : "item",
                relPath: RelPath(index % 11 == 0 ? [] : (0...(index % 5)).map { "s\($0 * index % 13)" }), referrer: "https://h/",
                sourcePointer: "/_links/item/\(index)", outcome: index % 9 == 0 ? .skipped(reason: "why \"\(index)\"") : .passed, statusCode: 200)
        }
        var report = SampleReports.report(checks: checks)
        if spooled {
            let builder = CheckListBuilder(directory: SpoolDirectory(), memoryLimit: 100)
            for check in report.checks { builder.append(check) }
            let list = builder.finish()
            #expect(list.isSpooled)
            report.setSortedChecks(list, counts: report.checkCounts, listsEveryCheck: true)
        }
        var pieces: [String] = []
        JSONReportRenderer().render(report, chunkBytes: 4096) { pieces.append($0) }
        #expect(pieces.count > 400)
        #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= 4096 && $0.utf8.count < 4096 + 1024 })
        #expect(pieces.joined() == JSONWriter(style: .pretty).string(report.jsonValue) + "\n")
    }
}
