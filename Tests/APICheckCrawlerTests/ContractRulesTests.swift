import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// The contract rules on small stub sets crawled in memory.
@Suite struct ContractRulesTests {
    static let origin = "http://127.0.0.1:8080"

    static func stub(_ path: String, _ body: String, type: String = "application/json", method: String = "GET") -> Stub {
        Stub(
            id: "\(method) \(path)", name: "\(method) \(path)", request: RequestPattern(method: method, path: (try? PathPattern.parse(path).get()) ?? .anything),
            response: StubResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: type)], body: .bytes(Data(body.utf8))),
            source: SourceLocation(path: "stubs.json"))
    }

    static func crawl(_ stubs: [Stub]) async throws -> CrawlReport {
        let options = CrawlOptions(root: try #require(URL(string: origin + "/")))
        return await Crawler(fetcher: StubSetFetcher(stubs: StubSet(stubs)), options: options).run()
    }

    /// GitHub's `/user` names its canonical resource in `url`: a plain JSON field is the API's
    /// name for a resource, not a declared self, and an alias is not a defect. A HAL self that
    /// names another resource still is.
    @Test func onlyADeclaredSelfIsHeldToTheResourceFetched() async throws {
        let origin = Self.origin
        let report = try await Self.crawl([
            Self.stub("/", #"{"current_user_url": "\#(origin)/user", "hal_url": "\#(origin)/hal/1"}"#),
            Self.stub("/user", #"{"login": "octocat", "id": 1, "url": "\#(origin)/users/octocat", "repos_url": "\#(origin)/users/octocat/repos"}"#),
            Self.stub("/users/octocat", #"{"login": "octocat", "id": 1, "url": "\#(origin)/users/octocat"}"#),
            Self.stub("/users/octocat/repos", "[]"),
            Self.stub("/hal/1", #"{"_links": {"self": {"href": "/hal/2"}}}"#, type: "application/hal+json"),
            Self.stub("/hal/2", #"{"_links": {"self": {"href": "/hal/2"}}}"#, type: "application/hal+json"),
        ])
        #expect(report.errors.isEmpty)
        let selfFindings = report.findings.filter { $0.rule == .selfConsistent }.map { "\($0.url) \($0.format ?? "-")" }
        #expect(selfFindings == ["\(origin)/hal/1 HAL"], "\(report.findings.map(\.message))")
    }
}
