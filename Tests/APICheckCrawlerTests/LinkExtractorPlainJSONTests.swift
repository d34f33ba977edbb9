import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

/// URL-valued JSON fields as links, and everything in such documents that is not one.
@Suite struct LinkExtractorPlainJSONTests {
    @Test func aGitHubStyleRootYieldsItsURLFieldsAndNothingElse() {
        let root = """
            {"current_user_url": "https://api.github.com/user",
             "repository_search_url": "https://api.github.com/search/repositories?q={query}{&page,per_page,sort,order}",
             "user_url": "https://api.github.com/users/{user}",
             "emojis_url": "https://api.github.com/emojis",
             "rateLimitUrl": "https://API.github.com:443/rate_limit",
             "hub_url": "https://api.github.com/hub",
             "documentation_url": "https://docs.github.com/rest",
             "avatar_url": "https://avatars.githubusercontent.com/u/1?v=4",
             "html_url": "https://github.com/octocat",
             "id": 1, "login": "octocat", "email": "octocat@github.com", "node_id": "MDQ6VXNlcjE=",
             "bio": "see https://api.github.com/users for more", "site_admin": false,
             "plan": {"name": "pro", "collaborators_url": "https://api.github.com/plans/pro/collaborators"}}
            """
        let result = extract(root, url: "https://api.github.com/")
        #expect(result.links.map(\.rel) == ["current_user", "repository_search", "user", "emojis", "rateLimit", "hub", "collaborators"])
        #expect(result.links.allSatisfy { $0.format == .plainJSON })
        #expect(result.links.map(\.isTemplated) == [false, true, true, false, false, false, false])
        #expect(result.links(for: "current_user").first?.url == "https://api.github.com/user")
        #expect(result.links.first?.source.path == "/current_user_url")
        #expect(result.links.last?.isNested == true)
        #expect(result.links.last?.owner == "/plan")
        #expect(result.notes.isEmpty)
    }

    @Test func aDjangoRESTFrameworkRootAndListYieldTheirLinks() {
        let root = #"{"authors": "http://localhost:8000/authors/", "books": "http://localhost:8000/books/"}"#
        #expect(extract(root, url: "http://localhost:8000/").links.map(\.rel) == ["authors", "books"])

        let list = """
            {"count": 2, "next": "http://localhost:8000/books/?page=2", "previous": null,
             "results": [{"url": "http://localhost:8000/books/1/", "title": "Dune", "author": "http://localhost:8000/authors/7/"},
                         {"url": "/books/2/", "title": "Emma", "isbn": "0141439580"}]}
            """
        let result = extract(list, url: "http://localhost:8000/books/")
        #expect(result.links.map(\.rel) == ["next", "self", "author", "self"])
        #expect(result.links.map(\.url) == [
            "http://localhost:8000/books/?page=2", "http://localhost:8000/books/1/", "http://localhost:8000/authors/7/", "http://localhost:8000/books/2/",
        ])
        #expect(result.links.map(\.isNested) == [false, true, true, true])
        #expect(result.links.map(\.source.path) == ["/next", "/results/0/url", "/results/0/author", "/results/1/url"])
    }

    @Test func hrefObjectsTakeTheirRelFromTheirKey() {
        let body = #"{"author": {"href": "/people/1", "name": "Ann"}, "pages": {"next": {"href": "/p?page=2"}}}"#
        let result = extract(body, url: "http://example.com/books/1")
        #expect(result.links.map(\.rel) == ["author", "next"])
    }

    @Test func halWithoutLinksIsAFormatShapeFindingAndItsURLFieldsAreStillFollowed() {
        let body = #"{"name": "shop", "orders_url": "http://example.com/orders"}"#
        let result = extract(body, contentType: "application/hal+json")
        #expect(result.messages == ["the document is served as HAL but has no _links: write its links (at least self) under _links"])
        #expect(result.links.map(\.rel) == ["orders"])
    }

    @Test func aJSONAPIRootWhoseDataIsAMapOfURLsKeepsItsFindingAndItsLinks() {
        let body = #"{"data": {"articles": "http://example.com/articles", "people": "http://example.com/people"}}"#
        let result = extract(body, contentType: "application/vnd.api+json")
        #expect(!result.notes.isEmpty, "the JSON:API shape finding stays")
        #expect(result.links.filter { $0.format == .plainJSON }.map(\.rel) == ["articles", "people"])
    }

    @Test func linksAFormatAlreadyReadAreNotReadAgain() {
        let body = """
            {"_links": {"self": {"href": "/orders/1"}, "broken": [[{"href": "/n"}]]},
             "links": [{"rel": "pay", "href": "/orders/1/pay"}, {"href": "/no-rel"}],
             "customer_url": "/customers/9"}
            """
        let result = extract(body, url: "http://example.com/orders/1")
        #expect(result.links.map(\.rel) == ["self", "pay", "customer"])
    }

    @Test func hostileValuesAreNotLinksAndEverythingIsBounded() {
        let huge = String(repeating: "a", count: 10 << 20)
        let body = """
            {"next": "javascript:alert(1)", "prev": "data:text/html,hi", "link": "//evil.example/x",
             "first": "http://evil.example/page/1", "x_url": "mailto:a@example.com", "y_url": "not a url",
             "z_url": "/\(huge)", "bad_url": "http://example.com/a{b", "ok_url": "http://example.com/ok"}
            """
        let result = extract(body)
        #expect(result.links.map(\.rel) == ["bad", "ok"])
        #expect(result.links.first?.url == nil, "an unbalanced template is never fetched")

        let many = "{" + (0..<100_000).map { "\"f\($0)_url\": \"/r/\($0)\"" }.joined(separator: ",") + "}"
        let bounded = extract(many, limits: LinkExtractor.Limits(maximumLinks: 1_000))
        #expect(bounded.links.count == 1_000)
        #expect(bounded.isTruncated)
    }
}

extension LinkExtraction {
    fileprivate func links(for rel: String) -> [Link] { links.filter { $0.rel == rel } }
}

/// The plain-JSON fixtures, crawled in memory: every URL field on the API's origin is followed,
/// and nothing else is requested.
@Suite struct PlainJSONFixtureCrawlTests {
    private func requests(crawling folder: String, variables: [String: String] = [:]) async throws -> [String] {
        let loaded = StubLoader().load([Repository.path("stubs/\(folder)")])
        var options = CrawlOptions(root: try #require(URL(string: "http://127.0.0.1:8080/")))
        for (name, value) in variables { options.variables[name] = .string(value) }
        let fetcher = StubSetFetcher(stubs: loaded.stubSet)
        _ = await Crawler(fetcher: fetcher, options: options).run()
        return fetcher.responder.journal.all.map { "\($0.request.method) \($0.url.absoluteString.replacingOccurrences(of: "http://127.0.0.1:8080", with: ""))" }.sorted()
    }

    @Test func theDRFRootIsWalkedCompletely() async throws {
        #expect(try await requests(crawling: "drf-root") == [
            "GET /", "GET /authors/", "GET /authors/1/", "GET /authors/2/", "GET /books/", "GET /books/1/", "GET /books/2/", "GET /books/?page=2",
        ])
    }

    @Test func theGitHubRootIsWalkedAndItsTemplatesExpandOnlyWithValues() async throws {
        #expect(try await requests(crawling: "github-root") == ["GET /", "GET /emojis", "GET /hub", "GET /rate_limit", "GET /user"])
        let withValues = try await requests(crawling: "github-root", variables: ["org": "apicheck"])
        #expect(withValues.contains("GET /orgs/apicheck"))
    }
}
