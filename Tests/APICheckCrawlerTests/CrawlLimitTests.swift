import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

/// No limit drops work silently (issue #19): each says what it left out, how much, and the flag
/// that raises it, as a `crawl-limit` warning that `--strict` fails on; and one outcome per check.
@Suite struct CrawlLimitTests {
    private func crawl(_ stubs: String, configure: (inout CrawlOptions) -> Void = { _ in }) async throws -> CrawlReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(stubs.utf8).write(to: folder.appendingPathComponent("stubs.json"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")))
        configure(&options)
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    private let redirects = #"""
        {"stubs": [
          {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"},
            "bodyText": "{\"_links\": {\"self\": {\"href\": \"/\"}, \"far\": {\"href\": \"/r/1\"}, \"big\": {\"href\": \"/big\"}}}"}},
          {"request": {"path": "/r/1"}, "response": {"status": 302, "headers": {"Location": "/r/2"}}},
          {"request": {"path": "/r/2"}, "response": {"status": 302, "headers": {"Location": "/r/3"}}},
          {"request": {"path": "/r/3"}, "response": {"status": 302, "headers": {"Location": "/r/4"}}},
          {"request": {"path": "/r/4"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "bodyText": "{}"}},
          {"request": {"path": "/big"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"},
            "bodyText": "{\"_links\": {\"self\": {\"href\": \"/big\"}}, \"pad\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}"}}
        ]}
        """#

    @Test func aRedirectChainLongerThanTheLimitNamesTheFlag() async throws {
        let report = try await crawl(redirects) { $0.maximumRedirects = 2 }
        let finding = try #require(report.findings.first { $0.url.hasSuffix("/r/1") })
        #expect(finding.rule == .linkResolves)
        #expect(finding.actual == "more than 2 redirects (--max-redirects)")
        let followed = try await crawl(redirects) { $0.maximumRedirects = 3 }
        #expect(!followed.findings.contains { $0.url.hasSuffix("/r/1") })
    }

    @Test func aBodyCutAtTheLimitFailsItsCheckWithACrawlLimitWarningThatStrictFailsOn() async throws {
        // The root (about 130 bytes) is read whole; /big (about 340) is cut.
        let report = try await crawl(redirects) { $0.maximumBodyBytes = 200 }
        let finding = try #require(report.findings.first { $0.url.hasSuffix("/big") })
        #expect(finding.rule == .crawlLimit && finding.severity == .warning)
        #expect(finding.message.contains("raise --max-body"))
        let check = try #require(report.checks.first { $0.url.hasSuffix("/big") })
        #expect(check.outcome == .failed, "never passed while a finding about its answer stands")
        #expect(report.exitCode == .success)
        #expect(TextReportRenderer().render(report).contains("Passed within the crawl's limits, which left work out (see crawl-limit above; --strict fails on it) (exit 0)."))

        let strict = try await crawl(redirects) {
            $0.maximumBodyBytes = 200
            $0.rules = RuleConfiguration(strict: true)
        }
        #expect(strict.exitCode == .contractViolations, "--strict fails on a limit that dropped work")
    }

    @Test func aCrawlWithinItsLimitsHasNoCrawlLimitFinding() async throws {
        let report = try await crawl(redirects)
        #expect(!report.findings.contains { $0.rule == .crawlLimit })
        #expect(TextReportRenderer().render(report).contains("Passed (exit 0)."))
    }
}
