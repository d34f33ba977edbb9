import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier
import Testing

@Suite struct LinkExtractorFormatsTests {
    private let articles = """
        {
          "links": {
            "self": "http://example.com/articles?page[number]=3&page[size]=1",
            "first": "http://example.com/articles?page[number]=1&page[size]=1",
            "prev": "http://example.com/articles?page[number]=2&page[size]=1",
            "next": {"href": "http://example.com/articles?page[number]=4&page[size]=1", "title": "Next page", "type": "application/vnd.api+json"},
            "last": null
          },
          "data": [{
            "type": "articles",
            "id": "1",
            "attributes": {"title": "JSON:API paints my bikeshed!"},
            "relationships": {
              "author": {
                "links": {
                  "self": "http://example.com/articles/1/relationships/author",
                  "related": {"href": "http://example.com/articles/1/author", "rel": "author"}
                },
                "data": {"type": "people", "id": "9"}
              },
              "comments": {"data": []},
              "tags": {}
            },
            "links": {"self": "http://example.com/articles/1"}
          }, {"id": "2", "attributes": {}}],
          "included": [{"type": "people", "id": "9", "links": {"self": "/people/9"}}],
          "errors": [{"status": "404", "links": {"about": "/errors/404", "type": ["no"]}}]
        }
        """

    @Test func jsonAPIWithPagination() throws {
        let result = extract(articles, url: "http://example.com/articles?page[number]=3&page[size]=1", contentType: "application/vnd.api+json")
        #expect(result.formats == [.jsonAPI])
        #expect(result.links.map(\.rel) == ["self", "first", "prev", "next", "self", "self", "author", "self", "about"])
        #expect(result.links.prefix(4).allSatisfy { !$0.isNested && $0.owner == "" })
        let next = result.links[3]
        #expect(next.title == "Next page")
        #expect(next.type == "application/vnd.api+json")
        #expect(next.url == "http://example.com/articles?page[number]=4&page[size]=1")
        #expect(next.source.path == "/links/next")

        let resourceSelf = result.links[4]
        #expect(resourceSelf.owner == "/data/0")
        #expect(resourceSelf.isNested)
        let relationship = Array(result.links[5...6])
        #expect(relationship.map(\.name) == ["author", "author"])
        #expect(relationship.map(\.owner) == ["/data/0/relationships/author", "/data/0/relationships/author"])
        #expect(relationship.map(\.source.path) == ["/data/0/relationships/author/links/self", "/data/0/relationships/author/links/related"])
        #expect(result.links[7].url == "http://example.com/people/9")
        #expect(result.links[8].owner == "/errors/0")

        #expect(result.messages == [
            "relationship 'tags' has none of 'links', 'data', 'meta'",
            "the JSON:API resource object has no string 'type'",
            "link 'type' must be a URL string, a link object or null; found an array",
        ])
        #expect(result.notes.map(\.source.path) == ["/data/0/relationships/tags", "/data/1", "/errors/0/links/type"])
    }

    @Test func jsonAPIIsDetectedFromContent() {
        #expect(extract(articles).formats == [.jsonAPI])
        let shapes = extract(#"{"jsonapi": {"version": "1.1"}, "data": [{"type": "x"}], "links": ["x"]}"#)
        #expect(shapes.messages == [
            "JSON:API 'links' must be an object, found an array",
            "the JSON:API resource object has no string 'id'",
        ])
    }

    @Test func sirenLinksActionsAndEntities() throws {
        let order = """
            {
              "class": [ "order" ],
              "properties": { "orderNumber": 42, "itemCount": 3, "status": "pending" },
              "entities": [
                { "class": [ "items", "collection" ], "rel": [ "http://x.io/rels/order-items" ], "href": "http://api.x.io/orders/42/items" },
                {
                  "class": [ "info", "customer" ], "rel": [ "http://x.io/rels/customer" ],
                  "properties": { "customerId": "pj123", "name": "Peter Joseph" },
                  "links": [ { "rel": [ "self" ], "href": "http://api.x.io/customers/pj123" } ]
                },
                { "class": [ "orphan" ] },
                { "href": "/no-rel" }
              ],
              "actions": [
                {
                  "name": "add-item", "title": "Add Item", "method": "POST", "href": "http://api.x.io/orders/42/items",
                  "type": "application/json",
                  "fields": [
                    { "name": "orderNumber", "type": "hidden", "value": "42" },
                    { "name": "productCode", "type": "text" },
                    { "name": "quantity", "type": "number", "title": "How many" }
                  ]
                },
                { "name": "search", "href": "search" },
                { "title": "no name, no href" }
              ],
              "links": [
                { "rel": [ "self" ], "href": "http://api.x.io/orders/42" },
                { "rel": [ "previous", "prev" ], "href": "http://api.x.io/orders/41", "type": "application/vnd.siren+json", "title": "Previous" },
                { "rel": [ "next" ], "href": "http://api.x.io/orders/43" },
                { "rel": "up", "href": "http://api.x.io/orders" }
              ]
            }
            """
        let result = extract(order, url: "http://api.x.io/orders/42", contentType: "application/vnd.siren+json")
        #expect(result.formats == [.sirenLink, .sirenAction])
        #expect(result.links.map(\.rel) == [
            "self", "previous", "prev", "next", "up", "add-item", "search", "http://x.io/rels/order-items", "self",
        ])
        // One link per rel: the same href and source.
        #expect(result.links[1].url == result.links[2].url)
        #expect(result.links[1].source == result.links[2].source)
        #expect(result.links[2].title == "Previous")

        let add = result.links[5]
        #expect(add.format == .sirenAction)
        #expect(add.method == "POST")
        #expect(add.contentType == "application/json")
        #expect(add.title == "Add Item")
        #expect(add.fields.map(\.name) == ["orderNumber", "productCode", "quantity"])
        #expect(add.fields.map(\.type) == ["hidden", "text", "number"])
        #expect(add.fields[2].title == "How many")
        let search = result.links[6]
        #expect(search.method == "GET")
        #expect(search.contentType == "application/x-www-form-urlencoded")
        #expect(search.url == "http://api.x.io/orders/search")

        let embeddedLink = result.links[7]
        #expect(embeddedLink.format == .sirenLink)
        #expect(embeddedLink.owner == "")
        #expect(embeddedLink.source.path == "/entities/0")
        let customerSelf = result.links[8]
        #expect(customerSelf.isNested)
        #expect(customerSelf.owner == "/entities/1")
        #expect(customerSelf.url == "http://api.x.io/customers/pj123")

        #expect(result.messages == [
            "a Siren rel must be an array of strings, found a string",
            "the Siren action has no name",
            "the Siren action '#2' has no href",
            "a Siren sub-entity must have a 'rel'",
            "the link has no rel",
        ])
        #expect(extract(order, url: "http://api.x.io/orders/42").formats == [.sirenLink, .sirenAction])
    }

    @Test func collectionJSON() throws {
        let friends = """
            { "collection" :
              {
                "version" : "1.0",
                "href" : "http://example.org/friends/",
                "links" : [ {"rel" : "feed", "href" : "http://example.org/friends/rss", "prompt": "Feed"} ],
                "items" : [
                  {
                    "href" : "http://example.org/friends/jdoe",
                    "data" : [ {"name" : "full-name", "value" : "J. Doe", "prompt" : "Full Name"} ],
                    "links" : [
                      {"rel" : "blog", "href" : "http://examples.org/blogs/jdoe", "prompt" : "Blog"},
                      {"rel" : "avatar", "href" : "http://examples.org/images/jdoe", "prompt" : "Avatar", "render" : "image"}
                    ]
                  },
                  { "data": [] }
                ],
                "queries" : [
                  {"rel" : "search", "href" : "http://example.org/friends/search", "prompt" : "Search", "name": "s",
                   "data" : [ {"name" : "search", "value" : ""}, {"name": "limit", "value": "10"} ] },
                  {"rel" : "all", "href" : "http://example.org/friends/?all=1"}
                ],
                "template" : { "data" : [ {"name" : "full-name", "value" : "", "prompt" : "Full Name"} ] }
              }
            }
            """
        let result = extract(friends, url: "http://example.org/friends/", contentType: "application/vnd.collection+json")
        #expect(result.formats == [.collectionJSON])
        #expect(result.links.map(\.rel) == ["self", "feed", "item", "blog", "avatar", "search", "all"])
        #expect(result.links.map(\.source.path) == [
            "/collection/href", "/collection/links/0", "/collection/items/0/href", "/collection/items/0/links/0",
            "/collection/items/0/links/1", "/collection/queries/0", "/collection/queries/1",
        ])
        #expect(result.links.map(\.isNested) == [false, false, false, true, true, false, false])
        #expect(result.links[1].title == "Feed")
        #expect(result.links[4].owner == "/collection/items/0")

        let search = result.links[5]
        #expect(search.template?.source == "http://example.org/friends/search{?search,limit}")
        #expect(search.fields.map(\.name) == ["search", "limit"])
        #expect(search.title == "Search")
        #expect(search.name == "s")
        #expect(search.resolve() == .url("http://example.org/friends/search?limit=10"))
        #expect(search.resolve(with: ["search": "jdoe"]) == .url("http://example.org/friends/search?search=jdoe&limit=10"))
        #expect(result.links[6].url == "http://example.org/friends/?all=1")
        #expect(result.messages == ["the item has no href"])
        #expect(extract(friends, url: "http://example.org/friends/").formats == [.collectionJSON])
    }

    @Test func atomFeed() throws {
        let feed = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title>Example Feed</title>
              <link href="http://example.org/feed/" rel="self"/>
              <link href="http://example.org/"/>
              <entry>
                <title>One</title>
                <link href="/2003/12/13/atom03" type="text/html"/>
              </entry>
              <entry>
                <title>Two</title>
                <link rel="edit" href="entries/2"/>
                <link rel="enclosure" type="audio/mpeg" href="http://example.org/audio/ph34r_my_podcast.mp3" title="Podcast" hreflang="en"/>
                <link rel="related"/>
              </entry>
            </feed>
            """
        let result = extract(feed, url: "http://example.org/feed/", contentType: "application/atom+xml")
        #expect(result.formats == [.xml])
        #expect(result.links.map(\.rel) == ["self", "alternate", "alternate", "edit", "enclosure"])
        #expect(result.links.map(\.source.path) == [
            "/feed/link[1]", "/feed/link[2]", "/feed/entry[1]/link[1]", "/feed/entry[2]/link[1]", "/feed/entry[2]/link[2]",
        ])
        #expect(result.links.map(\.url) == [
            "http://example.org/feed/", "http://example.org/", "http://example.org/2003/12/13/atom03",
            "http://example.org/feed/entries/2", "http://example.org/audio/ph34r_my_podcast.mp3",
        ])
        #expect(result.links.map(\.owner) == ["/feed", "/feed", "/feed/entry[1]", "/feed/entry[2]", "/feed/entry[2]"])
        #expect(result.links.map(\.isNested) == [false, false, true, true, true])
        #expect(result.links[0].source.line == 4)
        let enclosure = result.links[4]
        #expect(enclosure.type == "audio/mpeg")
        #expect(enclosure.title == "Podcast")
        #expect(enclosure.hreflang == "en")
        #expect(result.messages == ["the <link> element has no href attribute"])
        #expect(result.notes.first?.source.path == "/feed/entry[2]/link[3]")
        // Sniffed without a type, and found in any namespace.
        #expect(extract(feed, url: "http://example.org/feed/", contentType: nil).links.count == 5)
        let other = extract(#"<r:root xmlns:r="urn:x"><r:item><r:link rel="next prev" href="/n"/></r:item></r:root>"#, contentType: "text/xml")
        #expect(other.links.map(\.rel) == ["next", "prev"])
        #expect(other.links.map(\.source.path) == ["/root/item[1]/link[1]", "/root/item[1]/link[1]"])
    }

    @Test func otherTypesHaveNoBodyLinks() {
        #expect(extract(#"{"_links": {"self": {"href": "/"}}}"#, contentType: "text/html").links.isEmpty)
        #expect(extract(#"{"_links": {"self": {"href": "/"}}}"#, contentType: "text/plain").links.count == 1)
        #expect(extract("plain text", contentType: nil).links.isEmpty)
        #expect(extract("", contentType: "application/json").notes.isEmpty)
    }
}
