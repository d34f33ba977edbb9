import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier
import Testing

/// RFC 8288 `Link` headers, through the extractor.
@Suite struct LinkHeaderTests {
    private let base = "https://api.example.com/items?page=1"

    @Test func parsesTrickyQuoting() throws {
        let headers = [
            HTTPHeader(name: "Link", value: #"<https://api.example.com/items?page=2>; rel="next", <https://api.example.com/items?page=5>; rel="last""#),
            HTTPHeader(
                name: "link",
                value: #"</terms;v=2,3>; rel="terms-of-service"; title="Terms; see \"fine, print\""; type="text/html", <http://example.org/>; rel="start http://example.net/relation/other""#),
            HTTPHeader(name: "LINK", value: #"<chapter2>; rel=next; anchor="/book/1/", bad, <x>; title*=UTF-8'de'n%c3%a4chstes; rel=Previous; rel=ignored"#),
            HTTPHeader(name: "Link", value: #"<y>; type="a/b",<z>;rel=self;,<https://x>; rel="unterminated"#),
        ]
        let result = extract("", url: base, headers: headers)
        #expect(result.formats == [.linkHeader])
        #expect(result.links.map(\.rel) == [
            "next", "last", "terms-of-service", "start", "http://example.net/relation/other", "next", "previous", "self",
        ])
        #expect(result.links.map(\.source.path) == [
            "Link header #1", "Link header #2", "Link header #3", "Link header #4", "Link header #4", "Link header #5",
            "Link header #7", "Link header #9",
        ])
        let terms = result.links[2]
        #expect(terms.href == "/terms;v=2,3")
        #expect(terms.url == "https://api.example.com/terms;v=2,3")
        #expect(terms.title == #"Terms; see "fine, print""#)
        #expect(terms.type == "text/html")

        let chapter = result.links[5]
        #expect(chapter.context == "https://api.example.com/book/1/")
        #expect(chapter.url == "https://api.example.com/chapter2")  // targets resolve against the base, not the anchor
        #expect(chapter.isNested)
        #expect(!result.links[0].isNested)
        #expect(result.links[6].title == nil)  // title* is ignored
        #expect(result.links[6].url == "https://api.example.com/x")

        #expect(result.messages == [
            "the link value cannot be read: expected '<' to start a link, found 'b' at offset 41",
            "the link to <y> has no rel",
            "the link value cannot be read: the quoted value of 'rel' at offset 47 is never closed",
        ])
        #expect(result.notes.map(\.source.path) == ["Link header #6", "Link header #8", "Link header #10"])
        #expect(result.notes.allSatisfy { $0.format == .linkHeader })
    }

    @Test func headerLinksComeBeforeBodyLinks() {
        let result = extract(
            #"{"_links": {"self": {"href": "/items"}}}"#, url: base,
            headers: [HTTPHeader(name: "Link", value: "</items?page=2>; rel=next")])
        #expect(result.links.map(\.format) == [.linkHeader, .hal])
        #expect(result.formats == [.linkHeader, .hal])
    }

    @Test(arguments: [
        "<", "<<<<", ">", ";;;", ",,,", "<a>;", "<a>; =x", "<a>; rel", "<a> junk", "\"<a>\"", "<a>; rel=\"\\", "\u{0}\u{1}<\u{FFFF}>",
        String(repeating: "<a>; rel=\"x,", count: 1000),
    ])
    func garbageGivesNotesNotCrashes(value: String) {
        let result = extract("", url: base, headers: [HTTPHeader(name: "Link", value: value)])
        #expect(result.links.count + result.notes.count <= value.utf8.count)
    }

    @Test func anchorsThatDoNotResolveAreNoted() {
        let result = extract("", url: base, headers: [HTTPHeader(name: "Link", value: #"<a>; rel=x; anchor="{bad}""#)])
        #expect(result.links.isEmpty)
        #expect(result.messages == ["the anchor '{bad}' is not a URI reference that resolves"])
    }
}
