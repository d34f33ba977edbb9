import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct BaselineTests {
    @Test func writesSortedEntriesWithReadableContext() {
        let baseline = Baseline(findings: [SampleReports.jpgType, SampleReports.brokenPoster, SampleReports.brokenPoster])
        #expect(
            baseline.jsonString == """
                {
                  "schemaVersion": 1,
                  "description": "Known findings of apicheck crawl: findings with these fingerprints, or of these defects, do not fail the crawl.",
                  "entries": [
                    {
                      "fingerprint": "d78fc725aa0100e9",
                      "rule": "link-resolves",
                      "method": "GET",
                      "url": "https://api.example.com/movies/3/poster",
                      "rel": "poster",
                      "sourcePointer": "/_links/poster",
                      "defect": "\(Defect.id(of: SampleReports.brokenPoster))"
                    },
                    {
                      "fingerprint": "\(SampleReports.jpgType.fingerprint)",
                      "rule": "type-syntax",
                      "method": "GET",
                      "url": "https://api.example.com/movies/3/poster",
                      "rel": "poster",
                      "sourcePointer": "/_links/poster",
                      "defect": "\(Defect.id(of: SampleReports.jpgType))"
                    }
                  ]
                }

                """)
    }

    @Test func roundTrips() throws {
        let baseline = Baseline(findings: SampleReports.report().findings)
        let decoded = try Baseline(decoding: Array(baseline.jsonString.utf8), path: "baseline.json")
        #expect(decoded == baseline)
    }

    @Test func suppressesKnownFindingsAndListsStaleEntries() {
        let gone = Finding(rule: .selfConsistent, url: "https://api.example.com/old", rel: "self", message: "m")
        let baseline = Baseline(findings: [SampleReports.brokenPoster, gone])
        // The same problem reworded and re-levelled is still known.
        var reworded = SampleReports.brokenPoster
        reworded.message = "broken"
        reworded.severity = .warning
        reworded.actual = "410 Gone"
        let report = baseline.apply(to: SampleReports.report(findings: [reworded, SampleReports.jpgType, SampleReports.embeddedArray]))
        #expect(report.findings == [SampleReports.embeddedArray, SampleReports.jpgType])
        #expect(report.baseline?.suppressed == 1)
        #expect(report.baseline?.stale.map(\.url) == ["https://api.example.com/old"])
        #expect(report.counts.suppressed == 1)
        #expect(report.exitCode == .success)
        #expect(JSONReportRenderer().render(report).contains("\"suppressed\": 1"))
    }

    @Test func newFindingsStillFail() {
        let report = Baseline(findings: [SampleReports.jpgType]).apply(to: SampleReports.report())
        #expect(report.exitCode == .contractViolations)
        #expect(report.baseline?.stale.isEmpty == true)
    }

    @Test(arguments: [
        (#"{"schemaVersion": 1}"#, #"b.json:1:1: error: missing member "entries""#),
        (#"{"schemaVersion": 9, "entries": []}"#, "b.json:1:19: error: unsupported baseline schemaVersion 9; this apicheck reads version 1"),
        (#"{"schemaVersion": 1, "entries": [{"fingerprint": "xyz", "rule": "link-resolves", "method": "GET", "url": "u"}]}"#,
         "b.json:1:50: error: a fingerprint is 16 lower-case hex digits"),
        (#"{"schemaVersion": 1, "entries": [{"fingerprint": "d78fc725aa0100e9", "rule": "nope", "method": "GET", "url": "u"}]}"#,
         "b.json:1:78: error: unknown rule \"nope\"; valid rules: link-resolves, method-valid, type-matches, type-syntax, body-schema, content-type-present, self-consistent, duplicate-rel, format-shape, template-valid, crawl-limit, drift-status, drift-type, drift-links, drift-shape, drift-header, drift-coverage, openapi-operation, openapi-status, openapi-content-type, openapi-body, openapi-header, probe-server-error, probe-response-type, probe-accepts-invalid, probe-created-resolves"),
        (#"{"schemaVersion": 1, "entries": [1]}"#, "b.json:1:34: error: expected a baseline entry to be an object, found a number"),
    ])
    func badFilesAreLocated(text: String, message: String) {
        let error = #expect(throws: ReportDecodingError.self) { try Baseline(decoding: Array(text.utf8), path: "b.json") }
        #expect(error?.description == message)
    }
}

@Suite struct BaselineDefectTests {
    @Test func aNewOccurrenceOfAKnownDefectIsKnownAndANewDefectIsNot() {
        func poster(_ index: Int, status: String = "404") -> Finding {
            Finding(rule: .linkResolves, url: "https://api.example.com/poster/\(index)", rel: "poster", relPath: ["movies[\(index)]", "poster"],
                    expected: "a 2xx response", actual: status, message: "the link answers \(status)")
        }
        let baseline = Baseline(findings: [poster(1)])
        #expect(baseline.entries.first?.defect == Defect.id(of: poster(1)))
        let later = baseline.apply(to: SampleReports.report(findings: [poster(1), poster(2), poster(3, status: "500")], checks: []))
        #expect(later.findings == [poster(3, status: "500")])
        #expect(later.baseline?.suppressed == 2)
        #expect(later.baseline?.stale.isEmpty == true)
    }

    /// A baseline written before version 4 regrouped some defects names their old ids: its
    /// fingerprints map them to the new ones, so a new occurrence is still known.
    @Test func anEntryWithAnOldDefectIdIsMappedToTheNewDefectByItsFingerprint() {
        func poster(_ index: Int) -> Finding {
            Finding(rule: .linkResolves, url: "https://api.example.com/poster/\(index)", rel: "poster", relPath: ["movies[\(index)]", "poster"],
                    expected: "a 2xx response", actual: "404", message: "the link answers 404")
        }
        var entry = Baseline.Entry(poster(1))
        entry.defect = "0123456789abcdef"  // the id version 3 gave this defect
        let later = Baseline(entries: [entry]).apply(to: SampleReports.report(findings: [poster(1), poster(2)], checks: []))
        #expect(later.findings.isEmpty)
        #expect(later.baseline?.suppressed == 2)
        let unmapped = Baseline(entries: [Baseline.Entry(fingerprint: "ffffffffffffffff", rule: .linkResolves, method: "GET", url: "x", defect: "0123456789abcdef")])
        #expect(unmapped.apply(to: SampleReports.report(findings: [poster(2)], checks: [])).findings == [poster(2)])
    }
}
