import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Logging
import Testing

/// The fixture stub sets crawled in memory: each README's table of seeded defects is exactly what
/// the crawl reports (rule, severity, URL, rel, source pointer, the resource it was found on),
/// nothing else, and the links a README names as not checked are reported so. A hostile API does
/// not hang or crash a crawl, and what it breaks is reported.
@Suite struct CrawlerFixtureTests {
    static let origin = "http://localhost:3000"

    struct Crawl {
        var report: CrawlReport
        var fetcher: StubSetFetcher

        /// The requests the stubs saw, as `METHOD path?query`.
        var requests: [String] {
            fetcher.responder.journal.all.map { entry in
                "\(entry.request.method) \(CrawlerFixtureTests.local(entry.url.absoluteString))"
            }
        }

        /// The checks of links with `rel` found on `referrer` (a path on the crawl's origin).
        func checks(rel: String, on referrer: String) -> [CheckedLink] {
            report.checks.filter { $0.rel == rel && $0.referrer == CrawlerFixtureTests.origin + referrer }
        }
    }

    /// Crawls the stub folder at `folder` (absolute) in memory from `path` on ``origin``.
    static func crawl(
        _ folder: String, from path: String = "/", logger: Logger? = nil, configure: (inout CrawlOptions) -> Void = { _ in }
    ) async throws -> Crawl {
        let loaded = StubLoader().load([folder])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: origin + path)))
        // These tests read passed checks too.
        options.listsEveryCheck = true
        configure(&options)
        let fetcher = StubSetFetcher(stubs: loaded.stubSet)
        let crawler = logger.map { Crawler(fetcher: fetcher, options: options, logger: $0) } ?? Crawler(fetcher: fetcher, options: options)
        return Crawl(report: await crawler.run(), fetcher: fetcher)
    }

    /// A finding as a README row: rule, severity, method, URL, rel, source pointer, and the
    /// resource it was found on; URLs on the crawl's origin are written as paths, `-` is none.
    static func row(_ finding: Finding) -> String {
        let rel = finding.rel ?? "-"
        let pointer = finding.sourcePointer ?? "-"
        let referrer = finding.referrer.map(local) ?? "-"
        return "\(finding.rule) \(finding.severity) \(finding.method) \(local(finding.url)) rel=\(rel) at=\(pointer) on=\(referrer)"
    }

    static func local(_ url: String) -> String {
        url.hasPrefix(origin) ? String(url.dropFirst(origin.count)) : url
    }

    static func finding(_ rule: RuleID, at url: String, in report: CrawlReport) throws -> Finding {
        try #require(report.findings.first { $0.rule == rule && $0.url == origin + url }, "no \(rule) finding for \(url)")
    }

    // MARK: hal-shop

    @Test func halShopReportsExactlyTheREADMEsNineFindings() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/hal-shop")) { $0.variables["id"] = .string("p-1001") }
        let report = crawl.report
        #expect(report.errors.isEmpty)
        #expect(report.exitCode == .contractViolations)
        #expect(report.statistics.requests == 25, "the README's 25 URLs, each requested once")
        #expect(Set(crawl.requests).count == 25)

        #expect(report.findings.map(Self.row).sorted() == [
            // 1: p-1006's manufacturer answers 404.
            "link-resolves error GET /manufacturers/m-99 rel=shop:manufacturer at=/_links/shop:manufacturer on=/products/p-1006",
            // 2: a bare-string href; the finding is about p-1002's representation, at the rel's key.
            "format-shape warning GET /products/p-1002 rel=- at=/_links/shop:reviews on=/products/p-1002",
            // 3: declared hal+json, served plain JSON.
            "type-matches error GET /carts/c-7f3a rel=shop:cart at=/_links/shop:cart on=/",
            // 4 and 5: image/jpg declared by p-1004's link, and served by the photo.
            "type-syntax warning GET /images/p-1004.jpg rel=image at=/_links/image on=/products/p-1004",
            "type-syntax warning GET /images/p-1004.jpg rel=image at=- on=/products/p-1004",
            // 6: no Content-Type; linked by / as help.
            "content-type-present error GET /help/shipping rel=help at=- on=/",
            // 7: p-1005 says it is p-1002.
            "self-consistent warning GET /products/p-1005 rel=self at=/_links/self on=/products/p-1005",
            // 8: the key shop:category twice in p-1003's _links.
            "duplicate-rel warning GET /products/p-1003 rel=shop:category at=/_links/shop:category on=/products/p-1003",
            // 9: an unclosed expression.
            "template-valid error GET /search{?q rel=shop:search at=/_links/shop:search on=/",
        ].sorted())

        let broken = try Self.finding(.linkResolves, at: "/manufacturers/m-99", in: report)
        #expect(broken.actual == "404")
        #expect(broken.relPathDescription == "root → shop:products → next → products[2].self → shop:manufacturer")
        let bare = try Self.finding(.formatShape, at: "/products/p-1002", in: report)
        #expect(bare.format == "HAL" && bare.message.contains("'shop:reviews' is a bare string href"))
        #expect(crawl.checks(rel: "shop:reviews", on: "/products/p-1002").map(\.outcome) == [.passed], "the bare href is still followed")
        let cart = try Self.finding(.typeMatches, at: "/carts/c-7f3a", in: report)
        #expect(cart.declaredType == "application/hal+json" && cart.servedType == "application/json; charset=utf-8")
        let jpg = report.findings.filter { $0.rule == .typeSyntax }
        #expect(jpg.compactMap(\.declaredType) == ["image/jpg"])
        #expect(jpg.compactMap(\.servedType) == ["image/jpg"])
        #expect(jpg.allSatisfy { $0.expected == "image/jpeg" })
        try #expect(Self.finding(.contentTypePresent, at: "/help/shipping", in: report).message.contains("133-byte body"))
        let selfLink = try Self.finding(.selfConsistent, at: "/products/p-1005", in: report)
        #expect(selfLink.expected == Self.origin + "/products/p-1005" && selfLink.actual == Self.origin + "/products/p-1002")
        try #expect(Self.finding(.duplicateRel, at: "/products/p-1003", in: report).actual == "/categories/kitchen, /categories/outdoor")
        #expect(crawl.checks(rel: "shop:category", on: "/products/p-1003").map(\.outcome) == [.passed, .passed], "both targets resolve")

        // Not checked: the invalid template, and the CURIEs (templated, on another origin); never requested.
        let notChecked = report.checks.filter { if case .notChecked = $0.outcome { true } else { false } }
        #expect(Set(notChecked.map { "\($0.rel ?? "") \($0.outcome.reason ?? "")" }) == [
            "shop:search invalid template", "curies needs variables: rel (pass --var rel=…)",
        ])
        #expect(Set(notChecked.filter { $0.rel == "curies" }.compactMap(\.referrer).map(Self.local)) == [
            "/", "/carts/c-7f3a", "/products/p-1001", "/products/p-1002", "/products/p-1003", "/products/p-1004", "/products/p-1005", "/products/p-1006",
        ])
        #expect(!report.checks.contains { if case .skipped = $0.outcome { true } else { false } })
        #expect(!crawl.requests.contains { $0.contains("search") || $0.contains("docs.example.test") })

        // Traps: --var id expands shop:product; the optional-only template expands to /products.
        #expect(crawl.checks(rel: "shop:product", on: "/").map { "\(Self.local($0.url)) \($0.outcome.name)" } == ["/products/p-1001 passed"])
        #expect(crawl.checks(rel: "shop:products", on: "/").map { "\(Self.local($0.url)) \($0.outcome.name)" } == ["/products passed"])
        #expect(crawl.checks(rel: "shop:stores", on: "/").map(\.outcome) == [.passed, .passed])
    }

    @Test func halShopWithoutVariablesLeavesTheProductTemplateNotChecked() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/hal-shop"))
        let product = crawl.checks(rel: "shop:product", on: "/")
        #expect(product.map(\.url) == [Self.origin + "/products/{id}"])
        #expect(product.map(\.outcome) == [.notChecked(reason: "needs variables: id (pass --var id=…)")])
        #expect(!crawl.requests.contains { $0.contains("{") })
        // The same nine findings: every product is reached through the catalogue anyway.
        let withVariables = try await Self.crawl(Repository.path("stubs/hal-shop")) { $0.variables["id"] = .string("p-1001") }
        // (Numbered differently: with the variable, the template is followed and finds more links.)
        func unnumbered(_ findings: [Finding]) -> Set<Finding> {
            Set(findings.map { finding in
                var finding = finding
                finding.discoveryIndex = 0
                return finding
            })
        }
        #expect(unnumbered(crawl.report.findings) == unnumbered(withVariables.report.findings))
    }

    // MARK: jsonapi-blog

    @Test func jsonAPIBlogReportsExactlyTheREADMEsThreeFindings() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/jsonapi-blog"), from: "/articles")
        let report = crawl.report
        #expect(report.errors.isEmpty)
        #expect(report.exitCode == .contractViolations)
        #expect(report.statistics.requests == 22, "the README's 22 URLs, each requested once")
        #expect(Set(crawl.requests).count == 22)

        let page2 = "/articles?page%5Bnumber%5D=2&page%5Bsize%5D=1"
        #expect(report.findings.map(Self.row).sorted() == [
            // 1: page 2's next uses the retired offset paging.
            "link-resolves error GET /articles?page%5Boffset%5D=2&page%5Blimit%5D=1 rel=next at=/links/next on=\(page2)",
            // 2: the deleted author.
            "link-resolves error GET /articles/2/author rel=related at=/data/relationships/author/links/related on=/articles/2",
            // 3: comment c-302 has no type.
            "format-shape warning GET /articles/3/comments rel=- at=/data/1 on=/articles/3/comments",
        ].sorted())
        try #expect(Self.finding(.linkResolves, at: "/articles?page%5Boffset%5D=2&page%5Blimit%5D=1", in: report).actual == "500")
        let author = try Self.finding(.linkResolves, at: "/articles/2/author", in: report)
        #expect(author.actual == "404" && author.format == "JSON:API")
        let shape = try Self.finding(.formatShape, at: "/articles/3/comments", in: report)
        #expect(shape.message == "the JSON:API resource object has no string 'type'" && shape.format == "JSON:API")

        // Page 3 is still reached through last; every link was checked.
        #expect(crawl.requests.contains("GET /articles?page%5Bnumber%5D=3&page%5Bsize%5D=1"))
        #expect(report.checks.allSatisfy { $0.outcome.wasChecked })
        #expect(report.checks.filter { $0.outcome == .failed }.count == 2)
    }

    // MARK: siren-orders

    @Test func sirenOrdersReportsExactlyTheREADMEsTwoFindings() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/siren-orders"))
        let report = crawl.report
        #expect(report.errors.isEmpty)
        #expect(report.exitCode == .contractViolations)
        #expect(report.statistics.requests == 17, "the README's 16 URLs, and OPTIONS /orders/44")
        #expect(crawl.requests.filter { !$0.hasPrefix("GET ") } == ["OPTIONS /orders/44"], "unsafe actions are matched against the stubs, never sent")

        #expect(report.findings.map(Self.row).sorted() == [
            // 1: the shipped order offers cancel, which no stub answers.
            "method-valid error DELETE /orders/44 rel=cancel at=/actions/0 on=/orders/44",
            // 2: FETCH is not an HTTP method.
            "method-valid error FETCH /orders rel=search-orders at=/actions/0 on=/orders",
        ].sorted())
        let cancel = try #require(report.findings.first { $0.method == "DELETE" })
        // No stub answers DELETE /orders/44, but one answers OPTIONS there: asked, as over HTTP.
        #expect(cancel.expected == "Allow to list DELETE" && cancel.actual == "Allow: GET, OPTIONS")
        #expect(cancel.message == "the server does not allow DELETE on http://localhost:3000/orders/44 (Allow: GET, OPTIONS)")
        let fetch = try #require(report.findings.first { $0.method == "FETCH" })
        #expect(fetch.actual == "FETCH" && fetch.message.contains("allow a vendor token with --allow-method FETCH"))

        // The other actions have stubs; the sub-entities listing orders and customers are members, not duplicates.
        let actions = report.checks.filter { $0.method != "GET" }.map { "\($0.method) \(Self.local($0.url)) \($0.outcome.name)" }
        #expect(actions.sorted() == [
            "DELETE /orders/42 passed", "DELETE /orders/43 passed", "DELETE /orders/44 failed", "FETCH /orders failed",
            "POST /orders/42/items passed", "POST /orders/43/items passed", "PUT /orders/42 passed", "PUT /orders/43 passed",
        ])
        #expect(crawl.checks(rel: "item", on: "/orders").map(\.outcome) == [.passed, .passed, .passed])
        #expect(report.checks.allSatisfy { $0.outcome.wasChecked })
    }

    @Test func sirenOrdersWithUnsafeSendsTheValidActionsAndKeepsBothFindings() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/siren-orders")) { $0.unsafe = true }
        let report = crawl.report
        #expect(report.findings.map(Self.row).sorted() == [
            "method-valid error DELETE /orders/44 rel=cancel at=/actions/0 on=/orders/44",
            "method-valid error FETCH /orders rel=search-orders at=/actions/0 on=/orders",
        ])
        #expect(report.findings.first { $0.method == "DELETE" }?.actual == "404", "APICheck's near-miss 404")
        let sent = report.checks.filter { $0.method != "GET" }.map { "\($0.method) \(Self.local($0.url)) \($0.statusCode.map(String.init) ?? "-")" }
        #expect(sent.sorted() == [
            "DELETE /orders/42 204", "DELETE /orders/43 204", "DELETE /orders/44 404", "FETCH /orders -",
            "POST /orders/42/items 201", "POST /orders/43/items 201", "PUT /orders/42 200", "PUT /orders/43 200",
        ])
        #expect(!crawl.requests.contains { $0.hasPrefix("FETCH") }, "an invalid method is never sent")
        // Method checks are sent concurrently: the journal's order is not the links' order.
        let post = try #require(crawl.fetcher.responder.journal.all.first { $0.request.method == "POST" && $0.url.path == "/orders/42/items" })
        #expect(post.bodyText == "orderNumber=42&quantity=1", "the action's fields with values, form-encoded")
    }

    // MARK: linkheader-pages

    @Test func linkHeaderPagesReportsExactlyTheREADMEsOneFinding() async throws {
        let crawl = try await Self.crawl(Repository.path("stubs/linkheader-pages"))
        let report = crawl.report
        #expect(report.errors.isEmpty)
        #expect(report.exitCode == .contractViolations)
        #expect(report.statistics.requests == 10, "the README's 10 URLs, each requested once")
        #expect(Set(crawl.requests).count == 10)
        #expect(!crawl.requests.contains("GET /events/ev-2047"), "the anchor is a context, not a link")

        #expect(report.findings.map(Self.row) == [
            "link-resolves error GET /events?page=5 rel=next at=Link header #4 on=/events?page=4"
        ])
        #expect(report.findings.first?.actual == "404")
        #expect(report.checks.allSatisfy { $0.outcome.wasChecked })

        // One field with a quoted comma and semicolon: three links, the help link keeps its type.
        let page1 = report.checks.filter { $0.referrer == Self.origin + "/events" }.map { "\($0.rel ?? "") \(Self.local($0.url))" }
        #expect(page1.sorted() == ["help /docs/pagination", "last /events?page=4", "next /events?page=2"])
        // Two fields and a two-rel link: prev and first are one link value.
        let page2 = report.checks.filter { $0.referrer == Self.origin + "/events?page=2" }.map { "\($0.rel ?? "") \($0.sourcePointer ?? "")" }
        #expect(page2.sorted() == ["first Link header #1", "last Link header #3", "next Link header #2", "prev Link header #1"])
        // The anchored venue link resolves against the page, not the anchor.
        #expect(crawl.checks(rel: "related", on: "/events?page=3").map { "\(Self.local($0.url)) \($0.outcome.name)" } == ["/venues/v-12 passed"])
    }

    // MARK: A hostile API

    /// What the hostile API breaks, whatever limit ends the crawl: reported, never lost.
    static let hostileRows = [
        "content-type-present error GET /untyped rel=untyped at=- on=/",
        "link-resolves error GET /loop/a rel=loop at=/_links/loop on=/",
        "link-resolves error GET http://[::1 rel=broken at=/_links/broken on=/",
        // A limit of the crawl, not a broken link: a warning.
        "crawl-limit warning GET / rel=- at=- on=-",
        "crawl-limit warning GET /big rel=big at=- on=/",
        "template-valid error GET /search{?q rel=search at=/_links/search on=/",
        "type-matches error GET /latin1 rel=latin1 at=- on=/",
        "type-matches error GET /latin1.json rel=latin1-json at=- on=/",
        "type-matches error GET /not-json rel=not-json at=- on=/",
    ]

    @Test(.timeLimit(.minutes(2)))
    func aHostileAPIEndsAtTheLimitsAndKeepsItsFindings() async throws {
        let api = try HostileAPI.make()
        defer { api.remove() }
        let log = CollectingLogHandler.Messages()
        let started = ContinuousClock.now
        let crawl = try await Self.crawl(api.folder.path, logger: CollectingLogHandler.logger(into: log)) { options in
            options.maximumDepth = 3
            options.maximumRequests = 100
            options.maximumBodyBytes = 1024
            options.deadline = .seconds(90)
        }
        // Ended by its limits, well before the 90 s deadline (a loaded machine took 10.3 s, one
        // with three builds beside it 26.9 s).
        #expect(ContinuousClock.now - started < .seconds(75))
        let report = crawl.report
        #expect(report.errors.isEmpty, "a hostile API is a contract problem, not an infrastructure one")
        #expect(report.exitCode == .contractViolations)
        #expect(report.findings.map(Self.row).sorted() == Self.hostileRows.sorted())

        let loop = try Self.finding(.linkResolves, at: "/loop/a", in: report)
        #expect(loop.actual == "a redirect loop at \(Self.origin)/loop/a")
        try #expect(Self.finding(.crawlLimit, at: "/big", in: report).expected == "a body of at most 1024 bytes")
        // The depth limit dropped work: said once, with how much and the flag that raises it.
        try #expect(Self.finding(.crawlLimit, at: "/", in: report).message == "1 link leads deeper than --max-depth 3 and was not followed (reported as skipped): raise --max-depth")
        try #expect(Self.finding(.typeMatches, at: "/not-json", in: report).actual?.hasPrefix("the body is not JSON (application/json): 1:1:") == true)
        try #expect(Self.finding(.typeMatches, at: "/latin1", in: report).actual == "the body is not valid UTF-8 (byte 3) although text/plain declares UTF-8")
        try #expect(Self.finding(.typeMatches, at: "/latin1.json", in: report).actual?.hasSuffix("string is not valid UTF-8") == true)
        try #expect(Self.finding(.contentTypePresent, at: "/untyped", in: report).message.contains("42-byte body"))
        #expect(report.findings.first { $0.url == "http://[::1" }?.expected == "a URL")

        let outcomes = report.checks.filter { $0.referrer == Self.origin + "/" }.map { "\($0.rel ?? "") \($0.outcome.name) \($0.outcome.reason ?? "")" }
        #expect(outcomes.sorted() == [
            "away skipped redirects to another origin (http://other.example.test/)",
            // One outcome per check: a finding about the answer fails the link that got it.
            "big failed ",
            "broken failed ",
            "elsewhere skipped other origin (allow it with --allow-host other.example.test)",
            "latin1 failed ",
            "latin1-json failed ",
            "loop failed ",
            "not-json failed ",
            "pages passed ",
            "search notChecked invalid template",
            "self passed ",
            "untyped failed ",
        ])
        // The endless pagination stops at the depth limit; the body too large is not read for links.
        #expect(crawl.checks(rel: "next", on: "/page/111").map { "\(Self.local($0.url)) \($0.outcome.reason ?? "")" } == ["/page/1111 deeper than --max-depth 3"])
        #expect(!report.checks.contains { $0.url.contains("/never/") })
        #expect(crawl.fetcher.responder.journal.all.allSatisfy { $0.url.host == "localhost" }, "nothing leaves the origin")
        #expect(report.statistics.requests == 12, "/, two loop hops, /away, three pages and six resources")
        #expect(!log.all.contains { $0.contains("request limit") })
    }

    @Test(.timeLimit(.minutes(1)))
    func aHostileAPIEndsAtTheRequestLimitAndSaysSo() async throws {
        let api = try HostileAPI.make()
        defer { api.remove() }
        let log = CollectingLogHandler.Messages()
        // The root and its links take 10 requests; the endless pagination is cut by the budget.
        let crawl = try await Self.crawl(api.folder.path, logger: CollectingLogHandler.logger(into: log)) { options in
            options.maximumDepth = 1_000
            options.maximumRequests = 10
            options.maximumBodyBytes = 1024
        }
        let report = crawl.report
        #expect(report.errors.isEmpty)
        #expect(report.findings.map(Self.row).sorted() == Self.hostileRows.sorted())
        #expect(report.statistics.requests == 10)
        #expect(crawl.requests.count == 10)
        #expect(crawl.checks(rel: "next", on: "/page/1").map { "\(Self.local($0.url)) \($0.outcome.reason ?? "")" } == ["/page/11 the request limit (10) was reached"])
        #expect(log.all.contains("the request limit (10) was reached; links not reached are reported as skipped"))
        try #expect(Self.finding(.crawlLimit, at: "/", in: report).message == "--max-requests 10 was reached: 1 resource was not fetched (the links to them are reported as skipped): raise --max-requests")
    }
}
