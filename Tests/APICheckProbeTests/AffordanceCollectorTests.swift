import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
@testable import APICheckProbe
import Testing

/// What the probe collects from a crawl: writes, GET forms, templated reads, DELETEs, and the
/// affordances formats state in bodies.
@Suite struct AffordanceCollectorTests {
    static let base = "http://api.test/authors"

    static func link(
        _ rel: String, _ href: String, method: String = "GET", format: LinkFormat = .halForms, fields: [FormField] = [], contentType: String? = nil,
        parameters: [LinkParameter] = []
    ) -> Link {
        Link(
            context: base, base: base, rel: rel, href: href, target: Link.target(forHref: href, base: base, templated: href.contains("{")), method: method,
            parameters: parameters, format: format, source: .jsonPointer("/_templates/\(rel)"), fields: fields, contentType: contentType)
    }

    static func resource(_ url: String = base, path: RelPath = ["authors"], links: [Link], body: String? = nil, contentType: String? = nil) -> CrawledResource {
        CrawledResource(
            url: url, status: 200, contentType: contentType, relPath: path, links: links.map { ($0, path.appending($0.rel)) },
            body: body.map { Array($0.utf8) })
    }

    @Test func formsBecomeWritesAndSearchesTemplatedLinksReadsAndDeletesAreRemembered() {
        let collector = AffordanceCollector()
        let name = FormField(name: "name", value: .string("Ada"), isRequired: true, pattern: "^[A-Z][a-z]+$")
        collector.crawled(Self.resource(links: [
            Self.link("default", "/authors", method: "POST", fields: [name], contentType: "application/json"),
            Self.link("search", "/authors", method: "GET", fields: [FormField(name: "size", minimum: "1", maximum: "100")]),
            Self.link("author", "/authors/{id}", format: .hal),
            Self.link("remove", "/authors/1", method: "DELETE"),
            Self.link("self", "/authors", format: .hal),
        ]))
        let writes = collector.writes
        #expect(writes.map(\.name) == ["POST default (HAL-FORMS)", "GET search (HAL-FORMS)"])
        #expect(writes.map(\.kind) == [.write, .queryForm])
        #expect(writes[0].target == "http://api.test/authors" && writes[0].requestContentType == "application/json")
        #expect(writes[0].examples == [.object([JSONMember("name", .string("Ada"))])], "the form's own values are tried first")
        #expect(writes[0].place == "root → authors → default" && writes[0].sourcePointer == "/_templates/default")
        #expect(collector.reads.map(\.target) == ["http://api.test/authors/{id}"])
        #expect(collector.advertisesDelete(on: "http://api.test/authors/1"))
        #expect(!collector.advertisesDelete(on: "http://api.test/authors/2"))
        #expect(collector.fetched.map(\.url) == [Self.base])
    }

    @Test func aFormEveryItemRepeatsIsProbedOnce() {
        let collector = AffordanceCollector()
        for id in 1...3 {
            collector.crawled(Self.resource(
                "http://api.test/authors/\(id)", path: ["authors", "items[\(id)]"],
                links: [Self.link("edit", "/authors/\(id)", method: "PUT", fields: [FormField(name: "name")])]))
        }
        #expect(collector.writes.count == 1)
        #expect(collector.writes.first?.target == "http://api.test/authors/1")
        #expect(collector.fetched.count == 3)
    }

    @Test func aJSONAPICollectionTakesAPostOfItsTypeWithTheAttributesItsItemsHave() throws {
        let body = #"{"links": {"self": "/reviews"}, "data": [{"type": "reviews", "id": "1", "attributes": {"rating": 4, "text": "Good", "score": 0.5}}]}"#
        let collector = AffordanceCollector()
        collector.crawled(Self.resource("http://api.test/reviews", path: ["reviews"], links: [], body: body, contentType: "application/vnd.api+json"))
        let write = try #require(collector.writes.first)
        #expect(write.target == "http://api.test/reviews" && write.method == "POST" && write.format == "JSON:API")
        #expect(write.bodyShape == .jsonAPIResource(type: "reviews"))
        #expect(write.responseType == "application/vnd.api+json")
        #expect(write.bodySchema?["properties"]?["rating"] == .object([JSONMember("type", .string("integer"))]))
        #expect(write.bodySchema?["properties"]?["score"] == .object([JSONMember("type", .string("number"))]))
    }

    @Test func aCollectionJSONTemplateIsAPostToTheCollection() throws {
        let body = #"{"collection": {"href": "/friends", "template": {"data": [{"name": "email", "value": "", "prompt": "Email"}, {"name": "full-name", "value": "Ada"}]}}}"#
        let collector = AffordanceCollector()
        collector.crawled(Self.resource("http://api.test/friends", path: [], links: [], body: body, contentType: "application/vnd.collection+json"))
        let write = try #require(collector.writes.first)
        #expect(write.target == "http://api.test/friends" && write.rel == "template" && write.bodyShape == .collectionJSONTemplate)
        #expect(write.examples == [.object([JSONMember("full-name", .string("Ada"))])])
        #expect(write.requestContentType == "application/vnd.collection+json")
    }

    @Test func bodiesAreShapedAsTheirFormatSaysAndFormEncodedWhenDeclared() {
        let flat = JSONValue.object([JSONMember("email", .string("a@b.c")), JSONMember("age", .number("7"))])
        #expect(JSONWriter().string(ProbeBody.shaped(flat, .collectionJSONTemplate))
            == #"{"template":{"data":[{"name":"email","value":"a@b.c"},{"name":"age","value":7}]}}"#)
        #expect(JSONWriter().string(ProbeBody.shaped(flat, .jsonAPIResource(type: "people")))
            == #"{"data":{"type":"people","attributes":{"email":"a@b.c","age":7}}}"#)
        #expect(ProbeBody.encode(flat, as: "application/x-www-form-urlencoded") == "email=a%40b.c&age=7")
        #expect(QueryForm.url("http://api.test/books", with: .object([JSONMember("size", .number("-1"))])) == "http://api.test/books?size=-1")
    }
}
