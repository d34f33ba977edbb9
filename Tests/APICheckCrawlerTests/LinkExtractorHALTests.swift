import APICheckCrawler
import APICheckHypermedia
import APICheckVerifier
import Testing

@Suite struct LinkExtractorHALTests {
    private let orders = """
        {
          "_links": {
            "self": { "href": "/orders" },
            "curies": [{ "name": "ea", "href": "http://example.com/docs/rels/{rel}", "templated": true }],
            "next": { "href": "/orders?page=2" },
            "ea:find": { "href": "/orders{?id}", "templated": true },
            "ea:admin": [
              { "href": "/admins/2", "title": "Fred" },
              { "href": "/admins/5", "title": "Kate" }
            ],
            "search": {
              "href": "/search/{term}", "templated": true, "type": "application/hal+json",
              "deprecation": "https://example.com/deprecated", "name": "s", "profile": "https://example.com/profile",
              "hreflang": "en"
            }
          },
          "currentlyProcessing": 14,
          "_embedded": {
            "ea:order": [
              {
                "_links": {
                  "self": { "href": "/orders/123" },
                  "ea:basket": { "href": "/baskets/98712" },
                  "ea:customer": { "href": "/customers/7809" }
                },
                "total": 30.00
              },
              { "_links": { "self": { "href": "/orders/124" } } }
            ]
          }
        }
        """

    @Test func halWithCuriesArraysTemplatesAndEmbedded() throws {
        let result = extract(orders, url: "http://example.com/orders?page=1", contentType: "application/hal+json")
        #expect(result.notes.isEmpty, "\(result.notes)")
        #expect(result.formats == [.hal])
        #expect(result.links.count == 11)
        #expect(result.links.map(\.rel) == [
            "self", "curies", "next", "http://example.com/docs/rels/find", "http://example.com/docs/rels/admin",
            "http://example.com/docs/rels/admin", "search", "self", "http://example.com/docs/rels/basket",
            "http://example.com/docs/rels/customer", "self",
        ])

        let own = try #require(result.links.first)
        #expect(own.url == "http://example.com/orders")
        #expect(own.context == "http://example.com/orders?page=1")
        #expect(own.source == .jsonPointer("/_links/self", line: 3, column: 13))
        #expect(own.owner == "")
        #expect(!own.isNested)
        #expect(own.method == "GET")
        #expect(own.format == .hal)

        let curies = try #require(result.links("curies").first)
        #expect(curies.name == "ea")
        #expect(curies.source.path == "/_links/curies/0")
        #expect(curies.resolve() == .needsVariables(["rel"]))

        let find = try #require(result.links("http://example.com/docs/rels/find").first)
        #expect(find.compactRel == "ea:find")
        #expect(find.isTemplated)
        #expect(find.resolve() == .url("http://example.com/orders"))
        #expect(find.resolve(with: ["id": "7"]) == .url("http://example.com/orders?id=7"))

        let admins = result.links("http://example.com/docs/rels/admin")
        #expect(admins.map(\.title) == ["Fred", "Kate"])
        #expect(admins.map(\.source.path) == ["/_links/ea:admin/0", "/_links/ea:admin/1"])
        #expect(admins.map(\.url) == ["http://example.com/admins/2", "http://example.com/admins/5"])

        let search = try #require(result.links("search").first)
        #expect(search.type == "application/hal+json")
        #expect(search.deprecation == "https://example.com/deprecated")
        #expect(search.name == "s")
        #expect(search.profile == "https://example.com/profile")
        #expect(search.hreflang == "en")
        #expect(search.resolve() == .needsVariables(["term"]))
        #expect(search.resolve(with: ["term": "a b/c"]) == .url("http://example.com/search/a%20b%2Fc"))

        let embedded = Array(result.links.suffix(4))
        #expect(embedded.allSatisfy { $0.isNested })
        #expect(embedded.map(\.owner) == ["/_embedded/ea:order/0", "/_embedded/ea:order/0", "/_embedded/ea:order/0", "/_embedded/ea:order/1"])
        #expect(embedded[0].source.path == "/_embedded/ea:order/0/_links/self")
        #expect(embedded[0].url == "http://example.com/orders/123")
        #expect(embedded[1].compactRel == "ea:basket")  // root CURIEs apply inside _embedded
        #expect(embedded[3].url == "http://example.com/orders/124")
    }

    @Test func detectsHALInPlainJSON() {
        let result = extract(orders, contentType: "application/json; charset=utf-8")
        #expect(result.links.count == 11)
        #expect(result.notes.isEmpty)
        let sniffed = extract(orders, contentType: nil)
        #expect(sniffed.links.count == 11)
    }

    @Test func shapeProblemsAreNotedAndBareStringsStillExtracted() throws {
        let document = """
            {"_links": {
              "self": "/x",
              "broken": {"title": "no href"},
              "gone": null,
              "num": 5,
              "tpl": {"href": "/a/{id}"},
              "bad": {"href": "/a/{id", "templated": true},
              "a/b~c": {"href": "/slash", "type": 7, "templated": "yes"},
              "nested": [[{"href": "/n"}]],
              "numeric": {"href": 12}
            },
             "_embedded": [ {"_links": {"self": {"href": "/e"}}} ]}
            """
        let result = extract(document, contentType: "application/hal+json")
        #expect(result.messages == [
            "rel 'self' is a bare string href (as drf-hal-json writes): HAL link objects are {\"href\": …}",
            "the HAL link object for rel 'broken' has no href",
            "rel 'gone' is a null link: leave the rel out instead",
            "rel 'num' must be a link object or an array of them, found a number",
            "the href of rel 'tpl' contains a URI template but 'templated' is not true",
            "'templated' must be true or false, found a string",
            "'type' must be a string, found a number",
            "rel 'nested' has an array inside its array: write link objects",
            "the href of rel 'numeric' must be a string, found a number",
            "'_embedded' must be an object keyed by rel, found an array",
        ])
        #expect(result.notes.map(\.source.path) == [
            "/_links/self", "/_links/broken", "/_links/gone", "/_links/num", "/_links/tpl", "/_links/a~1b~0c/templated",
            "/_links/a~1b~0c/type", "/_links/nested/0", "/_links/numeric/href", "/_embedded",
        ])
        #expect(result.notes.allSatisfy { $0.kind == .formatShape && $0.severity == .warning && $0.format == .hal })
        #expect(result.links.map(\.rel) == ["self", "tpl", "bad", "a/b~c", "self"])
        #expect(result.links[0].url == "http://example.com/x")
        #expect(result.links[1].isTemplated)  // never fetched as "/a/{id}"
        guard case .invalidTemplate(let error) = result.links[2].target else {
            Issue.record("'/a/{id' is not a valid template")
            return
        }
        #expect(error.offset == 3)
        #expect(result.links[3].source.path == "/_links/a~1b~0c")
        #expect(result.links[4].url == "http://example.com/e")
        #expect(result.links[4].isNested)
    }

    @Test func nullLinksAndEmbeddedShapes() {
        let document = #"{"_links": null, "_embedded": {"a": null, "b": 3, "c": [1, {"_links": {"self": {"href": "/c"}}}]}}"#
        let result = extract(document, contentType: "application/hal+json")
        #expect(result.messages == [
            "'_links' is null: write an object keyed by rel, or leave it out",
            "embedded 'a' is null: leave it out instead",
            "embedded 'b' must be a resource object or an array of them, found a number",
            "an embedded 'c' resource must be an object, found a number",
        ])
        #expect(result.links.map(\.source.path) == ["/_embedded/c/1/_links/self"])
    }

    @Test func localCuriesOverrideInheritedOnes() {
        let document = """
            {"_links": {"curies": [{"name": "x", "href": "http://a/{rel}", "templated": true}], "x:one": {"href": "/1"}},
             "_embedded": {"item": {"_links": {"curies": {"name": "x", "href": "http://b/rels#{rel}"}, "x:two": {"href": "/2"}, "y:three": {"href": "/3"}}}}}
            """
        let result = extract(document)
        #expect(result.links.map(\.rel) == ["curies", "http://a/one", "curies", "http://b/rels#two", "y:three"])
        #expect(result.links.map(\.compactRel) == [nil, "x:one", nil, "x:two", nil])
    }

    @Test func halForms() throws {
        let document = """
            {
              "_links": {"self": {"href": "http://api.example.org/tasks"}},
              "_templates": {
                "default": {
                  "title": "Create",
                  "method": "POST",
                  "contentType": "application/json",
                  "properties": [
                    {"name": "title", "required": true, "value": "", "prompt": "Title"},
                    {"name": "completed", "required": false, "value": "false", "prompt": "Completed", "type": "checkbox"},
                    {"prompt": "nameless"}
                  ]
                },
                "delete": {"method": "DELETE", "target": "/tasks/1"},
                "broken": {"target": "/x"},
                "odd": "nope"
              },
              "_embedded": {"tasks": [{"_templates": {"edit": {"method": "PUT"}}}]}
            }
            """
        let result = extract(document, url: "http://api.example.org/tasks", contentType: "application/prs.hal-forms+json")
        #expect(result.formats == [.hal, .halForms])
        let forms = result.links.filter { $0.format == .halForms }
        #expect(forms.map(\.rel) == ["default", "delete", "broken", "edit"])
        #expect(forms.map(\.method) == ["POST", "DELETE", "GET", "PUT"])
        #expect(forms.map(\.url) == ["http://api.example.org/tasks", "http://api.example.org/tasks/1", "http://api.example.org/x", nil])
        #expect(forms.map(\.contentType) == ["application/json", "application/json", "application/json", "application/json"])
        let create = forms[0]
        #expect(create.title == "Create")
        #expect(create.name == "default")
        #expect(create.fields.map(\.name) == ["title", "completed"])
        #expect(create.fields.map(\.isRequired) == [true, false])
        #expect(create.fields.map(\.title) == ["Title", "Completed"])
        #expect(create.fields[1].type == "checkbox")
        #expect(create.fields[1].value == .string("false"))
        #expect(create.source.path == "/_templates/default")
        #expect(result.messages == [
            "a field must be an object with a string 'name'",
            "HAL-FORMS template 'broken' has no method",
            "HAL-FORMS template 'odd' must be an object, found a string",
            "HAL-FORMS template 'edit' has no target and its resource has no self link",
        ])
        #expect(result.notes.map(\.format) == [.halForms, .halForms, .halForms, .halForms])
    }

    @Test func halFormsConstraintsAreKeptForProbing() throws {
        let document = """
            {
              "_links": {"self": {"href": "http://api.example.org/authors"}},
              "_templates": {"default": {"method": "POST", "properties": [
                {"name": "name", "required": true, "regex": "^[A-Za-z ]{1,80}$", "minLength": 1, "maxLength": 80},
                {"name": "born", "type": "number", "min": 1000, "max": 2100.5},
                {"name": "country", "options": {"inline": ["FR", {"prompt": "Britain", "value": "GB"}], "maxItems": 1}},
                {"name": "tags", "options": {"inline": [{"label": "A", "id": "a"}], "valueField": "id", "maxItems": 3}},
                {"name": "id", "readOnly": true, "min": "not a number", "maxLength": -1}
              ]}}
            }
            """
        let result = extract(document, url: "http://api.example.org/authors", contentType: "application/prs.hal-forms+json")
        let fields = try #require(result.links.first { $0.format == .halForms }).fields
        #expect(fields.map(\.name) == ["name", "born", "country", "tags", "id"])
        #expect(fields[0].pattern == "^[A-Za-z ]{1,80}$" && fields[0].minimumLength == 1 && fields[0].maximumLength == 80)
        #expect(fields[1].minimum == "1000" && fields[1].maximum == "2100.5")
        #expect(fields[2].options == [.string("FR"), .string("GB")] && !fields[2].allowsSeveralOptions)
        #expect(fields[3].options == [.string("a")] && fields[3].allowsSeveralOptions)
        #expect(fields[4].isReadOnly && fields[4].minimum == nil && fields[4].maximumLength == nil, "unusable constraints are dropped")
        #expect(fields[0].options == nil && !fields[0].isReadOnly)
    }

    @Test func linkArraysUnderLinksAnywhere() throws {
        // PayPal's shape: `links` arrays with vendor methods, at the root and inside objects.
        let document = """
            {"id": "PAY-1", "state": "created",
             "links": [
               {"href": "https://api.sandbox.paypal.com/v1/payments/payment/PAY-1", "rel": "self", "method": "GET"},
               {"href": "https://www.sandbox.paypal.com/cgi-bin/webscr?cmd=_express-checkout&token=EC-6", "rel": "approval_url", "method": "REDIRECT"},
               {"href": "https://api.sandbox.paypal.com/v1/payments/payment/PAY-1/execute", "rel": "execute", "method": "POST"},
               {"rel": "orphan"},
               {"href": "/no-rel"}
             ],
             "transactions": [{"related_resources": [{"sale": {"links": [{"href": "https://api.sandbox.paypal.com/v1/payments/sale/4", "rel": "refund", "method": "POST"}]}}]}],
             "tags": {"links": ["not", "links"]}}
            """
        let result = extract(document, url: "https://api.sandbox.paypal.com/v1/payments/payment")
        #expect(result.links.map(\.rel) == ["self", "approval_url", "execute", "refund"])
        #expect(result.links.map(\.method) == ["GET", "REDIRECT", "POST", "POST"])
        #expect(result.links.map(\.format) == [.linkArray, .linkArray, .linkArray, .linkArray])
        #expect(result.links[3].source.path == "/transactions/0/related_resources/0/sale/links/0")
        #expect(result.links[3].owner == "/transactions/0/related_resources/0/sale")
        #expect(result.links[3].isNested)
        #expect(!result.links[0].isNested)
        #expect(result.messages == ["the link for rel 'orphan' has no href", "the link has no rel"])
        #expect(result.notes.map(\.source.path) == ["/links/3", "/links/4"])
    }
}
