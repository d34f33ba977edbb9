import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier
import Testing

/// Untrusted responses give notes, never crashes, and stay within their bounds.
@Suite struct LinkExtractorHostileTests {
    @Test func deepNestingIsRefusedWithANote() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let result = extract(deep)
        #expect(result.links.isEmpty)
        #expect(result.notes.map(\.kind) == [.unreadableBody])
        #expect(result.messages.first?.contains("nesting deeper than 128 levels") == true)

        let deepXML = String(repeating: "<a>", count: 5_000) + String(repeating: "</a>", count: 5_000)
        let xml = extract(deepXML, contentType: "application/xml")
        #expect(xml.links.isEmpty)
        #expect(xml.notes.map(\.kind) == [.unreadableBody])

        // Within libxml2's bound but beyond the extractor's: the walk stops and says so.
        let nested = String(repeating: "<a>", count: 150) + "<link href='/x'/>" + String(repeating: "</a>", count: 150)
        let stopped = extract("<r><link href='/top'/>" + nested + "</r>", contentType: "application/xml")
        #expect(stopped.links.map(\.href) == ["/top"])
        #expect(stopped.notes.map(\.kind) == [.limitReached])
        #expect(stopped.notes.first?.source.path.hasPrefix("/r/a[1]/a[1]/") == true)
    }

    @Test func linksBelowTheDepthLimitAreFoundAndDeeperOnesAreNot() {
        var document = #"{"_links": {"self": {"href": "/deep"}}}"#
        for _ in 0..<60 { document = #"{"x": "# + document + "}" }
        #expect(extract(document).links.count == 1)
        let shallow = extract(document, limits: LinkExtractor.Limits(maximumDepth: 20))
        #expect(shallow.links.isEmpty)
        #expect(shallow.notes.map(\.kind) == [.unreadableBody])
    }

    @Test func aHundredThousandLinksStopAtTheLimit() throws {
        let items = (0..<100_000).map { #"{"href":"/i/\#($0)"}"# }.joined(separator: ",")
        let result = extract(#"{"_links": {"item": ["# + items + "]}}", contentType: "application/hal+json")
        #expect(result.links.count == 10_000)
        #expect(result.isTruncated)
        #expect(result.notes.map(\.kind) == [.limitReached])
        #expect(result.notes.first?.source.path == "/_links/item/10000")
        #expect(result.links.last?.url == "http://example.com/i/9999")

        let small = extract(#"{"_links": {"item": ["# + items + "]}}", limits: LinkExtractor.Limits(maximumLinks: 3))
        #expect(small.links.count == 3)
    }

    @Test func notesAreBoundedToo() {
        let bare = (0..<20_000).map { #""/b/\#($0)""# }.joined(separator: ",")
        let result = extract(#"{"_links": {"item": ["# + bare + "]}}")
        #expect(result.links.count == 10_000)
        #expect(result.notes.count == 1_002)  // 1,000 shape notes, the link limit, the count of the rest
        // Every link is looked at (the dropped ones are counted): all 20,000 bare strings are noted.
        #expect(result.notes.last?.message == "19000 more notes were left out (limit 1000)")
        #expect(result.notes[1_000].kind == .limitReached)
        #expect(result.notes[1_000].message == "10000 of the 20000 links in the response were not extracted (--max-links 10000): raise --max-links")
        #expect(result.droppedLinks == 10_000)
    }

    @Test(arguments: [
        "{\"_links\": {\"self\": {\"href\": \"/\u{FFFD}\"",  // truncated
        "{\"_links\": {\"self\": {\"href\": \"/x\"}}} trailing",
        "{\"_links\" {}}",
        "nul\u{0}l",
        "{",
    ])
    func malformedJSONGivesANote(body: String) {
        let result = extract(body)
        #expect(result.links.isEmpty)
        #expect(result.notes.map(\.kind) == [.unreadableBody])
        #expect(result.notes.first?.message.hasPrefix("no links were extracted: the body is not valid JSON (") == true)
    }

    @Test func invalidUTF8GivesANote() {
        let body: [UInt8] = Array(#"{"_links": {"self": {"href": "/"#.utf8) + [0xC3, 0x28] + Array(#""}}}"#.utf8)
        let result = LinkExtractor().extract(url: "http://example.com/", contentType: "application/hal+json", body: body)
        #expect(result.links.isEmpty)
        #expect(result.notes.first?.message.contains("not valid UTF-8") == true)
        let garbage = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        for type in ["application/json", "application/xml", "application/vnd.api+json", "text/plain"] {
            let noisy = LinkExtractor().extract(url: "http://example.com/", contentType: type, body: [UInt8(ascii: "{")] + garbage)
            #expect(noisy.links.isEmpty)
        }
    }

    @Test(arguments: [
        ("\"a string\"", "application/hal+json", "a HAL document must be a JSON object, found a string"),
        ("[1, 2]", "application/hal+json", "a HAL document must be a JSON object, found an array"),
        ("null", "application/vnd.api+json", "a JSON:API document must be an object, found null"),
        ("42", "application/vnd.siren+json", "a Siren entity must be an object, found a number"),
        ("[]", "application/vnd.collection+json", "a Collection+JSON document must be an object with a 'collection' object"),
        ("{\"collection\": []}", "application/vnd.collection+json", "a Collection+JSON document must be an object with a 'collection' object"),
    ])
    func nonObjectRootsGiveShapeNotes(body: String, type: String, message: String) {
        let result = extract(body, contentType: type)
        #expect(result.links.isEmpty)
        #expect(result.messages == [message])
        #expect(result.notes.first?.source.path == "")
    }

    @Test func plainJSONArraysAreWalkedQuietly() {
        let result = extract(#"[{"_links": [{"rel": "self", "href": "/a"}]}, 3, null]"#)
        #expect(result.notes.isEmpty)
        #expect(result.links.map(\.owner) == ["/0"])
        #expect(result.links.first?.isNested == true)
    }

    @Test func oversizedBodiesAndHeadersAreSkippedWithANote() {
        let limits = LinkExtractor.Limits(maximumBodyBytes: 10, maximumHeaderBytes: 10)
        let result = extract(
            #"{"_links": {"self": {"href": "/"}}}"#,
            headers: [HTTPHeader(name: "Link", value: "<https://example.com/long>; rel=next"), HTTPHeader(name: "Link", value: "<a>;rel=b")],
            limits: limits)
        #expect(result.links.map(\.rel) == ["b"])
        #expect(result.notes.map(\.kind) == [.limitReached, .limitReached])
        #expect(result.links.first?.source.path == "Link header #2")
    }

    @Test func xmlBombsAndExternalEntitiesAreRefused() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <feed><link href="&lol2;"/></feed>
            """
        let xxe = """
            <?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed><link href="&xxe;"/></feed>
            """
        for body in [bomb, xxe] {
            let result = extract(body, contentType: "application/atom+xml")
            #expect(result.links.isEmpty)
            #expect(result.notes.map(\.kind) == [.unreadableBody])
        }
    }

    @Test func manyXMLLinksStopAtTheLimit() {
        let feed = "<feed>" + String(repeating: "<entry><link href='/e'/></entry>", count: 20_000) + "</feed>"
        let result = extract(feed, contentType: "application/atom+xml")
        #expect(result.links.count == 10_000)
        #expect(result.isTruncated)
        #expect(result.links.last?.source.path == "/feed/entry[10000]/link[1]")
    }

    @Test func hostileHrefsAndTemplatesStayData() {
        let long = String(repeating: "{x}", count: 10_000)
        let document = #"{"_links": {"a": {"href": "\#(long)", "templated": true}, "b": {"href": "javascript:alert(1)"}, "c": {"href": "\u0000"}}}"#
        let result = extract(document)
        #expect(result.links.count == 3)
        guard case .invalidTemplate(let error) = result.links[0].target else {
            Issue.record("an over-long template must be refused")
            return
        }
        #expect(error.message.contains("over the limit"))
        #expect(result.links[1].url == "javascript:alert(1)")  // resolvable; the engine decides what it fetches
        guard case .unresolvable = result.links[2].target else {
            Issue.record("a NUL is not a URI")
            return
        }
    }

    @Test func longNamesDoNotInflatePathsOrMessages() {
        let key = String(repeating: "k/", count: 50_000)
        let bare = (0..<2_000).map { #""/b/\#($0)""# }.joined(separator: ",")
        let document = #"{"\#(key)": {"_links": {"\#(key)": ["# + bare + "]}}}"
        let result = extract(document)
        #expect(result.links.count == 2_000)
        #expect(result.links.allSatisfy { $0.source.path.utf8.count <= 1_030 && $0.owner.utf8.count <= 1_030 })
        #expect(result.notes.allSatisfy { $0.message.utf8.count < 300 && $0.source.path.utf8.count <= 1_030 })
        #expect(result.links.first?.source.path.hasPrefix("/k~1k~1") == true)
        #expect(result.links.first?.source.path.hasSuffix("…/0") == true)

        let element = String(repeating: "e", count: 10_000)
        let xml = extract("<\(element)><link rel='\(key)' href='/x'/></\(element)>", contentType: "application/xml")
        #expect(xml.links.first?.source.path == "/" + String(repeating: "e", count: 128) + "…/link[1]")
    }

    @Test func curieTablesAreBounded() {
        let curies = (0..<40).map { #"{"name": "c\#($0)", "href": "http://r/\#($0)/{rel}"}"# }.joined(separator: ",")
        let result = extract(#"{"_links": {"curies": ["# + curies + #"], "c0:a": {"href": "/a"}, "c39:b": {"href": "/b"}}}"#)
        #expect(result.links.suffix(2).map(\.rel) == ["http://r/0/a", "c39:b"])
    }
}
