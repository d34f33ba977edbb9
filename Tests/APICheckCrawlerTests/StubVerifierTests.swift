import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// `apicheck verify`'s choice of what to send.
@Suite struct StubVerifierTests {
    /// OPTIONS is safe (RFC 9110 §9.2.1): a recording's OPTIONS answers are verified without
    /// --unsafe; a DELETE is not.
    @Test func optionsStubsAreSentWithoutUnsafe() async throws {
        let stubs = StubSetFetcherTests.recording(allow: "GET, HEAD, OPTIONS") + [
            Stub(
                id: "DELETE /orders/1", name: "DELETE /orders/1", request: RequestPattern(method: "DELETE", path: (try? PathPattern.parse("/orders/1").get()) ?? .anything),
                response: StubResponse(status: 204, headers: [], body: .bytes(Data())), source: SourceLocation(path: "delete.json")),
        ]
        let live = StubSetFetcher(stubs: StubSet(stubs))
        let (report, _) = await StubVerifier(stubs: StubSet(stubs), live: live, options: VerifyOptions(origin: StubSetFetcherTests.origin)).run(tool: ToolInfo(version: "test"))
        let outcomes = report.checks.map { "\($0.method) \($0.outcome.name)" }.sorted()
        #expect(outcomes == ["DELETE skipped", "GET passed", "OPTIONS passed"], "\(report.checks.map { ($0.method, $0.outcome) })")
        #expect(live.responder.journal.all.map(\.request.method).sorted() == ["GET", "OPTIONS"])
    }
}
