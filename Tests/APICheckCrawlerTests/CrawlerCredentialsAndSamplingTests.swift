import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Synchronization
import Testing

/// A fetcher answering from a table of `METHOD url` → response, recording every request's headers.
final class TableFetcher: CrawlFetcher, Sendable {
    let table: [String: FetchedResponse]
    let seen = Mutex<[(url: String, headers: [HTTPHeader])]>([])

    init(_ table: [String: FetchedResponse]) {
        self.table = table
    }

    var isLive: Bool { true }

    func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        seen.withLock { $0.append((request.url.absoluteString, request.headers)) }
        return table[request.url.absoluteString] ?? FetchedResponse(status: 404, headers: [], body: Data())
    }

    func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }

    func headers(sentTo url: String) -> [HTTPHeader]? { seen.withLock { $0.first { $0.url == url }?.headers } }
}

func json(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> FetchedResponse {
    FetchedResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + headers, body: Data(text.utf8))
}

@Suite struct CrawlerCredentialsTests {
    static let challenge = HTTPHeader(name: "WWW-Authenticate", value: #"Bearer realm="orders""#)
    static let api = [
        "https://api.example.com/": json(#"{"_links":{"orders":{"href":"/orders"},"partner":{"href":"/partner"}}}"#),
        "https://api.example.com/orders": json(#"{"error":"unauthorized"}"#, status: 401, headers: [challenge]),
        "https://api.example.com/partner": FetchedResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "https://partner.example.org/p")], body: Data()),
        "https://partner.example.org/p": json("{}"),
    ]

    @Test func aChallengeWithoutCredentialsIsNotABrokenLink() async throws {
        let report = await Crawler(fetcher: TableFetcher(Self.api), options: CrawlOptions(root: URL(string: "https://api.example.com/")!)).run()
        #expect(report.findings.isEmpty, "\(report.findings)")
        let orders = try #require(report.checks.first { $0.rel == "orders" })
        #expect(orders.outcome == .notChecked(reason: #"needs credentials: 401 with WWW-Authenticate: Bearer realm="orders" (pass --header or --header-from-env)"#))
        #expect(report.exitCode == .success)
    }

    /// A secret in a rel (an extension rel is a URL) is redacted in every rel path that passes
    /// through it: once, when the crawl makes the label, for the checks and findings beyond it.
    @Test func aSecretInARelIsRedactedInEveryPathBeyondIt() async throws {
        let rel = "https://rels.example.com/orders?token=s3cret"
        let api = [
            "https://api.example.com/": json(#"{"_links":{"\#(rel)":{"href":"/orders"}}}"#),
            "https://api.example.com/orders": json(#"{"_links":{"self":{"href":"/orders"},"gone":{"href":"/gone"}}}"#),
        ]
        var options = CrawlOptions(root: URL(string: "https://api.example.com/")!)
        options.redaction.registerHeader(name: "Authorization", value: "s3cret")
        let report = await Crawler(fetcher: TableFetcher(api), options: options).run()
        let gone = try #require(report.findings.first { $0.rel == "gone" })
        #expect(gone.relPath == ["https://rels.example.com/orders?token=REDACTED", "gone"])
        #expect(report.checks.allSatisfy { !$0.relPath.labels.joined().contains("s3cret") })
        #expect(!JSONReportRenderer().render(report).contains("s3cret"))
    }

    @Test func withCredentialsAChallengeIsAnErrorAndCredentialsStayOnTheirOrigin() async throws {
        let fetcher = TableFetcher(Self.api)
        var options = CrawlOptions(root: URL(string: "https://api.example.com/")!, headers: [HTTPHeader(name: "Authorization", value: "Bearer s3cret")])
        options.allowedHosts = ["partner.example.org"]
        options.redaction.registerHeader(name: "Authorization", value: "Bearer s3cret")
        let report = await Crawler(fetcher: fetcher, options: options).run()
        let finding = try #require(report.findings.first { $0.rel == "orders" })
        #expect(finding.rule == .linkResolves && finding.severity == .error)
        #expect(finding.message.contains("with the credentials given"))
        #expect(fetcher.headers(sentTo: "https://api.example.com/orders")?.contains { $0.name == "Authorization" } == true)
        // The redirect to another origin gets no credentials.
        #expect(fetcher.headers(sentTo: "https://partner.example.org/p")?.isEmpty == true)
        #expect(report.requestHeaderNames == ["Authorization"])
        #expect(report.defects.first?.reproduction == #"curl -i -H "Authorization: $AUTHORIZATION" 'https://api.example.com/orders'"#)
        #expect(!JSONReportRenderer().render(report).contains("s3cret"))

        options.sendsHeadersToAllowedHosts = true
        let asked = TableFetcher(Self.api)
        _ = await Crawler(fetcher: asked, options: options).run()
        #expect(asked.headers(sentTo: "https://partner.example.org/p")?.map(\.name) == ["Authorization"])
    }

    @Test func aRootThatNeedsCredentialsSaysHowToGiveThem() async {
        let fetcher = TableFetcher(["https://api.example.com/": json("{}", status: 401, headers: [Self.challenge])])
        let report = await Crawler(fetcher: fetcher, options: CrawlOptions(root: URL(string: "https://api.example.com/")!)).run()
        #expect(report.exitCode == .infrastructureError)
        #expect(report.errors.first?.message.contains("needs credentials") == true)
        #expect(report.errors.first?.message.contains("--header-from-env") == true)
    }
}

@Suite struct CrawlerSamplingTests {
    static let stubs: StubSet = {
        var stubs: [Stub] = []
        func add(_ path: String, _ body: String) {
            stubs.append(Stub(
                id: path, name: path, request: RequestPattern(method: "GET", path: (try? PathPattern.parse(path).get()) ?? .anything),
                response: StubResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: .bytes(Data(body.utf8))),
                source: SourceLocation(path: "sampling.json")))
        }
        let items = (0..<50).map { #"{"href":"/items/\#($0)"}"# }.joined(separator: ",")
        add("/", #"{"_links":{"item":[\#(items)],"about":{"href":"/about"}}}"#)
        for index in 0..<50 { add("/items/\(index)", #"{"_links":{"self":{"href":"/items/\#(index)"},"owner":{"href":"/owners/\#(index % 7)"}}}"#) }
        for index in 0..<7 { add("/owners/\(index)", #"{"_links":{"self":{"href":"/owners/\#(index)"}}}"#) }
        add("/about", "{}")
        return StubSet(stubs)
    }()

    func crawl(sample: Int?, concurrency: Int) async -> CrawlReport {
        var options = CrawlOptions(root: URL(string: "http://localhost:3000/")!)
        options.listsEveryCheck = true
        options.sampleSize = sample
        options.concurrency = concurrency
        return await Crawler(fetcher: StubSetFetcher(stubs: Self.stubs), options: options).run()
    }

    @Test func everyKindIsCheckedAtMostNTimesTheSameOnesEveryRun() async {
        let full = await crawl(sample: nil, concurrency: 4)
        #expect(full.statistics.resourcesFetched == 59)
        #expect(full.sampling.isEmpty)
        let sampled = await crawl(sample: 3, concurrency: 8)
        let again = await crawl(sample: 3, concurrency: 1)
        #expect(untimed(Array(sampled.checks)) == untimed(Array(again.checks)), "deterministic whatever the concurrency")
        #expect(sampled.sampling == again.sampling)
        let items = sampled.sampling.first { $0.kind == "root → item[*]" }
        #expect(items?.seen == 50 && items?.checked == 3 && items?.skipped == 47)
        #expect(sampled.sampling.first { $0.kind == "root → about" }?.skipped == 0)
        // Owners are reached only through the three items checked: every kind still has checks.
        #expect(sampled.checks.filter { $0.outcome == .skipped(reason: "sampled out (--sample 3)") }.count == 47)
        #expect(sampled.statistics.resourcesFetched == 1 + 3 + 3 + 1)
        let text = TextReportRenderer().render(sampled)
        #expect(text.contains("  root → item[*]: 3 of 50 checked, 47 skipped\n"))
        let decoded = try? CrawlReport(decoding: Array(JSONReportRenderer().render(sampled).utf8))
        #expect(decoded?.sampling == sampled.sampling)
    }

    /// Checks without their timings, which vary from run to run.
    private func untimed(_ checks: [CheckedLink]) -> [CheckedLink] {
        checks.map { check in
            var check = check
            check.duration = nil
            return check
        }
    }
}
