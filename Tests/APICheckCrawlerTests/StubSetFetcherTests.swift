import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// An in-memory crawl reports what a live crawl of the same answers reports.
@Suite struct StubSetFetcherTests {
    static let origin = "http://127.0.0.1:8080"

    /// What `crawl --record` keeps of a live crawl without --unsafe: the GETs, and the OPTIONS
    /// the crawl asked about the unsafe link; no answer to the DELETE itself.
    static func recording(allow: String?) -> [Stub] {
        var stubs = [
            ContractRulesTests.stub("/", #"{"_links": [{"rel": "self", "href": "/"}, {"rel": "cancel", "href": "/orders/1", "method": "DELETE"}]}"#)
        ]
        if let allow {
            stubs.append(Stub(
                id: "OPTIONS /orders/1", name: "OPTIONS /orders/1", request: RequestPattern(method: "OPTIONS", path: (try? PathPattern.parse("/orders/1").get()) ?? .anything),
                response: StubResponse(status: 204, headers: [HTTPHeader(name: "Allow", value: allow)], body: .bytes(Data())),
                source: SourceLocation(path: "options.json")))
        }
        return stubs
    }

    static func crawl(_ stubs: [Stub]) async throws -> (CrawlReport, StubSetFetcher) {
        let fetcher = StubSetFetcher(stubs: StubSet(stubs))
        let report = await Crawler(fetcher: fetcher, options: CrawlOptions(root: try #require(URL(string: origin + "/")))).run()
        return (report, fetcher)
    }

    @Test func aRecordedOptionsAnswerDecidesAnUnsafeLinkAsLive() async throws {
        let (report, fetcher) = try await Self.crawl(Self.recording(allow: "GET, HEAD, OPTIONS"))
        let finding = try #require(report.findings.first { $0.rule == .methodValid })
        #expect(finding.expected == "Allow to list DELETE" && finding.actual == "Allow: GET, HEAD, OPTIONS")
        #expect(fetcher.responder.journal.all.map { "\($0.request.method) \($0.url.path)" } == ["GET /", "OPTIONS /orders/1"], "asked, never sent")
        #expect(report.defects.first?.reproduction == "curl -i -X 'OPTIONS' '\(Self.origin)/orders/1'")

        // Allowed: no finding, as live.
        let (allowed, _) = try await Self.crawl(Self.recording(allow: "GET, DELETE, OPTIONS"))
        #expect(allowed.findings.isEmpty)
        let delete = try #require(allowed.checkCounts.first { $0.method == "DELETE" })
        #expect(delete.passed == 1 && delete.total == 1)

        // Without an OPTIONS stub a stub set must answer the method itself.
        let (unanswered, _) = try await Self.crawl(Self.recording(allow: nil))
        #expect(unanswered.findings.first { $0.rule == .methodValid }?.expected == "a stub answering DELETE /orders/1")
    }
}
