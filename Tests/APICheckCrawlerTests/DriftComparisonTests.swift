import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// `apicheck verify`'s comparison of a stub's response with the live API's: status, type, links
/// and headers here, JSON shape in DriftComparisonTests+Shape.swift.
@Suite struct DriftComparisonTests {
    static let url = "https://shop.example.test/products/p-1001"

    /// The body of stubs/hal-shop/products/p-1001.json.
    static let product = """
        {
          "id": "p-1001",
          "name": "Cast-iron skillet, 26 cm",
          "summary": "Pre-seasoned cast iron for stove, oven and campfire.",
          "price": {"amount": "39.90", "currency": "EUR"},
          "stock": 14,
          "_links": {
            "self": {"href": "/products/p-1001"},
            "curies": [
              {
                "name": "shop",
                "href": "https://docs.example.test/rels/{rel}",
                "templated": true
              }
            ],
            "collection": {"href": "/products"},
            "shop:category": [
              {"href": "/categories/kitchen", "title": "Kitchen"},
              {"href": "/categories/outdoor", "title": "Outdoor"}
            ],
            "shop:manufacturer": {"href": "/manufacturers/m-12", "title": "Hearth & Anvil"},
            "image": {"href": "/images/p-1001.jpg", "type": "image/jpeg"}
          }
        }
        """

    static func response(
        _ body: String, status: Int = 200, type: String? = "application/hal+json", headers: [HTTPHeader] = [], truncated: Bool = false
    ) -> FetchedResponse {
        let typeHeader = type.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []
        return FetchedResponse(status: status, headers: typeHeader + headers, body: Data(body.utf8), isTruncated: truncated)
    }

    static func drifts(
        _ stub: FetchedResponse, _ live: FetchedResponse, method: String = "GET", options: DriftOptions = DriftOptions()
    ) -> [Drift] {
        DriftComparison.compare(expected: stub, live: live, url: url, method: method, options: options)
    }

    /// `text` with each replacement made; a replacement that finds nothing fails the test, so a
    /// seeded change cannot silently not happen.
    static func edited(_ text: String, _ replacements: KeyValuePairs<String, String>, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        var result = text
        for (old, new) in replacements {
            #expect(result.contains(old), "'\(old)' is not in the text", sourceLocation: sourceLocation)
            result = result.replacingOccurrences(of: old, with: new)
        }
        return result
    }

    // MARK: Whole responses

    @Test func identicalResponsesHaveNoDrift() {
        let headers = [HTTPHeader(name: "Cache-Control", value: "max-age=60")]
        let options = DriftOptions(compareValues: true, comparedHeaders: ["Cache-Control", "X-Absent"])
        #expect(Self.drifts(Self.response(Self.product, headers: headers), Self.response(Self.product, headers: headers), options: options) == [])
    }

    @Test func idsAndHostsInHrefsAreNotDrift() {
        let live = Self.edited(Self.product, [
            "p-1001": "p-2002", "\"/products\"": "\"https://api.shop.example/products\"", "m-12": "m-99", "kitchen": "garden",
        ])
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [])
    }

    /// Five drifts seeded into a real stub body and a real status: exactly those are reported.
    @Test func realisticHALDocumentWithSeededDrifts() {
        let live = Self.edited(Self.product, [
            "\"collection\": {\"href\": \"/products\"},": "",  // a removed rel
            "\"type\": \"image/jpeg\"": "\"type\": \"image/webp\"",  // a changed declared type
            "\"stock\": 14": "\"stock\": \"14\"",  // a number turned string
            "\"self\": {\"href\": \"/products/p-1001\"},": "\"self\": {\"href\": \"/products/p-1001\"}, \"shop:reviews\": {\"href\": \"/products/p-1001/reviews\"},",
        ])
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [
            Drift(rule: .driftLinks, message: "rel 'collection' is advertised by the stub but not by the live API", expected: "/products", pointer: "collection"),
            Drift(
                rule: .driftLinks, message: "rel 'image' declares image/jpeg in the stub, image/webp in the live API", expected: "image/jpeg",
                actual: "image/webp", pointer: "image"),
            Drift(
                rule: .driftLinks, message: "rel 'shop:reviews' is advertised by the live API but not by the stub", actual: "/products/p-1001/reviews",
                pointer: "shop:reviews"),
            Drift(rule: .driftShape, message: "/stock was number, is now string", expected: "number", actual: "string", pointer: "/stock"),
        ])
        let problem = #"{"type": "https://shop.example.test/problems/not-found", "title": "Not Found", "status": 404}"#
        #expect(Self.drifts(Self.response(Self.product), Self.response(problem, status: 404, type: "application/problem+json")) == [
            Drift(rule: .driftStatus, message: "the stub answers 200, the live API 404 (client error)", expected: "200", actual: "404")
        ])
    }

    // MARK: drift-status

    @Test func statusChangeSaysWhetherTheClassChanged() {
        #expect(Self.drifts(Self.response("{}", status: 200), Self.response("{}", status: 404)).map(\.message) == [
            "the stub answers 200, the live API 404 (client error)"
        ])
        #expect(Self.drifts(Self.response("{}", status: 200), Self.response(#"{"id": 1}"#, status: 201)) == [
            Drift(rule: .driftStatus, message: "the stub answers 200, the live API 201 (both success)", expected: "200", actual: "201"),
            // Same class: the bodies are still compared.
            Drift(rule: .driftShape, message: "/id is in the live response but not in the stub", actual: "number", pointer: "/id"),
        ])
        #expect(Self.drifts(Self.response("", status: 302), Self.response("", status: 503)).map(\.message) == [
            "the stub answers 302, the live API 503 (server error)"
        ])
    }

    // MARK: drift-type

    @Test func typeChangeIsDrift() {
        #expect(Self.drifts(Self.response(Self.product), Self.response(Self.product, type: "application/json")) == [
            Drift(
                rule: .driftType, message: "the stub answers application/hal+json, the live API application/json", expected: "application/hal+json",
                actual: "application/json")
        ])
    }

    @Test func charsetAndCaseAreNotDriftButProfileIs() {
        let body = #"{"id": 1}"#
        let stub = Self.response(body, type: "application/json; charset=utf-8")
        #expect(Self.drifts(stub, Self.response(body, type: "Application/JSON;charset=\"ISO-8859-1\"")) == [])
        #expect(Self.drifts(stub, Self.response(body, type: "application/json")) == [])

        let profiled = Self.response(body, type: #"application/json; profile="https://shop.example.test/v1""#)
        let otherProfile = #"application/json; profile="https://shop.example.test/v2""#
        #expect(Self.drifts(profiled, Self.response(body, type: otherProfile)).map(\.rule) == [.driftType])
        // Added or removed on either side is drift too (type-matches alone is one-sided).
        #expect(Self.drifts(stub, profiled).map(\.rule) == [.driftType])
        #expect(Self.drifts(profiled, stub).map(\.rule) == [.driftType])
    }

    @Test func missingOrUnparsableContentType() {
        #expect(Self.drifts(Self.response("{}", type: "application/json"), Self.response("{}", type: nil)) == [
            Drift(rule: .driftType, message: "the stub answers application/json, the live API sends no Content-Type", expected: "application/json")
        ])
        #expect(Self.drifts(Self.response("{}", type: nil), Self.response("{}", type: "application/json")).map(\.message) == [
            "the stub sends no Content-Type, the live API answers application/json"
        ])
        #expect(Self.drifts(Self.response("{}", type: nil), Self.response("{}", type: nil)) == [])
        // Not a media type: compared as text.
        #expect(Self.drifts(Self.response("{}", type: "json please"), Self.response("{}", type: " json please ")) == [])
        #expect(Self.drifts(Self.response("{}", type: "json please"), Self.response("{}", type: "JSON please")).map(\.rule) == [.driftType])
    }

    // MARK: drift-links

    static let controls = """
        {"_links": {
          "self": {"href": "/products/p-1001"},
          "edit": {"href": "/products/p-1001", "method": "PUT"},
          "image": {"href": "/images/p-1001.jpg", "type": "image/jpeg"},
          "search": {"href": "/products{?q}", "templated": true}
        }}
        """

    @Test func changedMethodTypeAndTemplatingOfARel() {
        let live = Self.edited(Self.controls, [
            "\"PUT\"": "\"PATCH\"", "image/jpeg": "image/png", "\"/products{?q}\", \"templated\": true": "\"/products?q=skillet\"",
        ])
        #expect(Self.drifts(Self.response(Self.controls), Self.response(live)) == [
            Drift(rule: .driftLinks, message: "rel 'edit' has method PUT in the stub, PATCH in the live API", expected: "PUT", actual: "PATCH", pointer: "edit"),
            Drift(
                rule: .driftLinks, message: "rel 'image' declares image/jpeg in the stub, image/png in the live API", expected: "image/jpeg",
                actual: "image/png", pointer: "image"),
            Drift(
                rule: .driftLinks, message: "rel 'search' is templated in the stub, not templated in the live API", expected: "templated",
                actual: "not templated", pointer: "search"),
        ])
    }

    @Test func aDeclaredTypeComparesAsAMediaType() {
        let live = Self.edited(Self.controls, ["image/jpeg": "Image/JPEG; q=0.9"])
        #expect(Self.drifts(Self.response(Self.controls), Self.response(live)) == [])
        let typeless = Self.edited(Self.controls, [", \"type\": \"image/jpeg\"": ""])
        #expect(Self.drifts(Self.response(Self.controls), Self.response(typeless)).map(\.message) == [
            "rel 'image' declares image/jpeg in the stub, no type in the live API"
        ])
    }

    @Test func removedAndNewRelsAreSortedByRel() {
        let live = Self.edited(Self.controls, [
            "\"edit\": {\"href\": \"/products/p-1001\", \"method\": \"PUT\"},": "\"alternate\": {\"href\": \"/p/1\"}, \"zoom\": {\"href\": \"/z\"},"
        ])
        #expect(Self.drifts(Self.response(Self.controls), Self.response(live)).map(\.message) == [
            "rel 'alternate' is advertised by the live API but not by the stub",
            "rel 'edit' is advertised by the stub but not by the live API",
            "rel 'zoom' is advertised by the live API but not by the stub",
        ])
    }

    @Test func howOftenARelAppearsIsNotDrift() {
        let live = Self.edited(Self.product, [#"{"href": "/categories/kitchen", "title": "Kitchen"},"#: ""])
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [])
    }

    @Test func linkHeadersCountAndBodiesNeedNotBeJSON() {
        let next = HTTPHeader(name: "Link", value: #"<https://shop.example.test/items?page=2>; rel="next""#)
        let otherPage = HTTPHeader(name: "link", value: #"</items?page=9>; rel="next""#)
        let stub = Self.response("<html>page 1</html>", type: "text/html", headers: [next])
        #expect(Self.drifts(stub, Self.response("<html>another page</html>", type: "text/html", headers: [otherPage])) == [])
        #expect(Self.drifts(stub, Self.response("<html>page 1</html>", type: "text/html")) == [
            Drift(
                rule: .driftLinks, message: "rel 'next' is advertised by the stub but not by the live API",
                expected: "https://shop.example.test/items?page=2", pointer: "next")
        ])
    }

    /// The rels of embedded resources are compared only where the live API has such resources.
    @Test func anEmptyListLiveIsNotAPileOfMissingRels() {
        let page = """
            {"_links": {"self": {"href": "/products"}},
             "_embedded": {"products": [
               {"id": "p-1", "_links": {"self": {"href": "/products/p-1"}, "basket": {"href": "/basket?add=p-1", "method": "POST"}}},
               {"id": "p-2", "_links": {"self": {"href": "/products/p-2"}, "basket": {"href": "/basket?add=p-2", "method": "POST"}}}
             ]}}
            """
        let empty = #"{"_links": {"self": {"href": "/products"}}, "_embedded": {"products": []}}"#
        #expect(Self.drifts(Self.response(page), Self.response(empty)) == [])
        #expect(Self.drifts(Self.response(empty), Self.response(page)) == [])
        let changed = Self.edited(page, ["\"POST\"": "\"PUT\""])
        #expect(Self.drifts(Self.response(page), Self.response(changed)).map(\.message) == [
            "rel 'basket' has method POST in the stub, PUT in the live API"
        ])
    }

    // MARK: drift-header

    @Test func onlyComparedHeadersAreCompared() {
        let stub = Self.response("{}", headers: [
            HTTPHeader(name: "Cache-Control", value: "max-age=60"), HTTPHeader(name: "X-Api-Version", value: "3"),
            HTTPHeader(name: "Date", value: "Mon, 03 Mar 2025 10:00:00 GMT"), HTTPHeader(name: "Vary", value: "Accept"),
        ])
        let live = Self.response("{}", headers: [
            HTTPHeader(name: "cache-control", value: "no-store"), HTTPHeader(name: "Date", value: "Tue, 04 Mar 2025 10:00:00 GMT"),
            HTTPHeader(name: "X-Trace", value: "abc"), HTTPHeader(name: "vary", value: "Accept"),
        ])
        let options = DriftOptions(comparedHeaders: ["CACHE-CONTROL", "x-api-version", "X-Trace", "Vary", "cache-control"])
        #expect(Self.drifts(stub, live, options: options) == [
            Drift(
                rule: .driftHeader, message: #"the header CACHE-CONTROL is "max-age=60" in the stub, "no-store" live"#, expected: "max-age=60",
                actual: "no-store", pointer: "CACHE-CONTROL"),
            Drift(
                rule: .driftHeader, message: #"the header x-api-version is sent by the stub ("3") but not by the live API"#, expected: "3",
                pointer: "x-api-version"),
            Drift(rule: .driftHeader, message: #"the header X-Trace is sent by the live API ("abc") but not by the stub"#, actual: "abc", pointer: "X-Trace"),
        ])
        #expect(Self.drifts(stub, live) == [])
    }

    @Test func repeatedHeaderFieldsCompareAsOneList() {
        let stub = Self.response("{}", headers: [HTTPHeader(name: "Vary", value: "Accept"), HTTPHeader(name: "Vary", value: "Origin")])
        let live = Self.response("{}", headers: [HTTPHeader(name: "Vary", value: "Accept, Origin")])
        #expect(Self.drifts(stub, live, options: DriftOptions(comparedHeaders: ["Vary"])) == [])
    }

    // MARK: What is not compared

    @Test func differentNonJSONBodiesAreNotDrift() {
        #expect(Self.drifts(Self.response("<p>hello</p>", type: "text/html"), Self.response("<p>bye", type: "text/html")) == [])
        #expect(Self.drifts(Self.response("\u{89}PNG", type: "image/png"), Self.response("", type: "image/png")) == [])
        // One side JSON, the other not, and neither says JSON: no shape to compare.
        #expect(Self.drifts(Self.response(#"{"a": 1}"#, type: nil), Self.response("a=1", type: nil)) == [])
    }

    /// A stub that declares and holds JSON, answered live with a body that does not parse: every
    /// client decoding it breaks, so it is drift, with the parser's reason.
    @Test func aLiveBodyThatStoppedBeingJSONIsDrift() {
        let drifts = Self.drifts(Self.response(#"{"a": 1}"#), Self.response(#"{"a": 1"#))
        #expect(drifts.map(\.rule) == [.driftShape])
        #expect(drifts.first?.message.hasPrefix("the stub's body is JSON, the live body is not: ") == true, "\(drifts)")
        #expect(drifts.first?.severity == nil, "a difference, at the rule's level")
    }

    @Test func truncatedOrHeadResponsesSkipBodyComparisons() {
        let cut = String(Self.product.prefix(200))
        // Not compared, and said so: a warning naming the flag that raises the limit.
        let cutDrifts = Self.drifts(Self.response(Self.product), Self.response(cut, truncated: true))
        #expect(cutDrifts.map(\.rule) == [.driftShape] && cutDrifts.allSatisfy { $0.severity == .warning && $0.message.contains("--max-body") }, "\(cutDrifts)")
        // Status and type are still compared.
        #expect(Self.drifts(Self.response(Self.product), Self.response(cut, type: "application/json", truncated: true)).map(\.rule) == [.driftType, .driftShape])
        #expect(Self.drifts(Self.response(Self.product), Self.response("", status: 200), method: "HEAD") == [])
    }
}
