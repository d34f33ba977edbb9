import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// drift-shape: JSON pointers and their types, arrays merged under `*`.
extension DriftComparisonTests {
    static func shapeDrifts(_ stub: String, _ live: String, options: DriftOptions = DriftOptions()) -> [Drift] {
        drifts(response(stub, type: "application/json"), response(live, type: "application/json"), options: options)
    }

    static func shape(_ pointer: String, _ message: String, expected: String? = nil, actual: String? = nil) -> Drift {
        Drift(rule: .driftShape, message: message, expected: expected, actual: actual, pointer: pointer)
    }

    @Test func aNumberTurnedString() {
        let live = Self.edited(Self.product, ["\"stock\": 14": "\"stock\": \"14\""])
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [Self.shape("/stock", "/stock was number, is now string", expected: "number", actual: "string")])
    }

    @Test func aNewField() {
        let live = Self.edited(Self.product, ["\"stock\": 14,": "\"stock\": 14, \"weight\": {\"grams\": 3200},"])
        // The new object is one drift, not one per member.
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [
            Self.shape("/weight", "/weight is in the live response but not in the stub", actual: "object")
        ])
    }

    @Test func aRemovedField() {
        let live = Self.edited(Self.product, ["\"summary\": \"Pre-seasoned cast iron for stove, oven and campfire.\",": ""])
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [
            Self.shape("/summary", "/summary is in the stub but not in the live response", expected: "string")
        ])
    }

    @Test func aFieldTurnedNull() {
        let live = Self.edited(Self.product, [#""price": {"amount": "39.90", "currency": "EUR"}"#: #""price": null"#])
        // Its members are not reported again: the type change says it.
        #expect(Self.drifts(Self.response(Self.product), Self.response(live)) == [Self.shape("/price", "/price was object, is now null", expected: "object", actual: "null")])
        #expect(Self.shapeDrifts(#"{"a": null}"#, #"{"a": 1}"#) == [Self.shape("/a", "/a was null, is now number", expected: "null", actual: "number")])
    }

    @Test func arrayElementsAreMergedUnderAStar() {
        let stub = #"{"items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}]}"#
        #expect(Self.shapeDrifts(stub, #"{"items": [{"id": 7, "tags": ["x", "y"]}]}"#) == [])
        #expect(Self.shapeDrifts(stub, #"{"items": [{"id": 1, "tags": ["a"]}, {"id": "2", "tags": [3]}]}"#) == [
            Self.shape("/items/*/id", "/items/*/id was number, is now string or number", expected: "number", actual: "string or number"),
            Self.shape("/items/*/tags/*", "/items/*/tags/* was string, is now string or number", expected: "string", actual: "string or number"),
        ])
        // One element with a null field makes the field nullable.
        #expect(Self.shapeDrifts(stub, #"{"items": [{"id": 1, "tags": ["a"]}, {"id": null, "tags": ["b"]}]}"#).map(\.message) == [
            "/items/*/id was number, is now number or null"
        ])
        #expect(Self.shapeDrifts(stub, #"{"items": [{"id": 1, "tags": ["a"], "sku": "s"}]}"#).map(\.message) == [
            "/items/*/sku is in the live response but not in the stub"
        ])
    }

    @Test func anEmptyArrayMatchesAnyElementShape() {
        #expect(Self.shapeDrifts(#"{"items": []}"#, #"{"items": [{"id": 1}]}"#) == [])
        #expect(Self.shapeDrifts(#"{"items": [{"id": 1}]}"#, #"{"items": []}"#) == [])
        #expect(Self.shapeDrifts(#"[]"#, #"[[1, {"a": null}]]"#) == [])
        #expect(Self.shapeDrifts(#"{"items": []}"#, #"{"items": {}}"#).map(\.message) == ["/items was array, is now object"])
    }

    @Test func theWholeDocumentAndEscapedKeys() {
        #expect(Self.shapeDrifts(#"{"a": 1}"#, #"[1]"#).map(\.message) == ["the document was object, is now array"])
        #expect(Self.shapeDrifts(#"{"a/b": 1, "c~d": true}"#, #"{"a/b": "1", "c~d": false}"#).map(\.pointer) == ["/a~1b"])
        #expect(Self.shapeDrifts(#"{"a/b": 1, "c~d": true}"#, #"{"a/b": 1, "c~d": null}"#).map(\.pointer) == ["/c~0d"])
    }

    @Test func ignoredPointersAndWhatLiesBelowThem() {
        let stub = """
            {"updatedAt": "2025-03-01", "items": [{"id": 1, "etag": "a", "audit": {"by": "x"}}],
             "meta": {"trace": {"id": 1}}, "_links": {"next": {"href": "/p/2"}}}
            """
        let live = """
            {"updatedAt": 1740787200, "items": [{"id": 1, "etag": 7, "audit": {"at": 3}}],
             "meta": {"span": "s"}, "_links": {}}
            """
        #expect(Self.shapeDrifts(stub, live).map(\.message) == [
            "rel 'next' is advertised by the stub but not by the live API",
            "/items/*/audit/at is in the live response but not in the stub",
            "/items/*/audit/by is in the stub but not in the live response",
            "/items/*/etag was string, is now number",
            "/meta/span is in the live response but not in the stub",
            "/meta/trace is in the stub but not in the live response",
            "/updatedAt was string, is now number",
        ])
        let options = DriftOptions(compareValues: true, ignoredPointers: ["/updatedAt", "/items/*/etag", "/*/*/audit", "/meta", "/_links/next"])
        #expect(Self.shapeDrifts(stub, live, options: options) == [])
        // A concrete index ignores that element's values, not part of every element's shape.
        let concrete = DriftOptions(ignoredPointers: ["/items/0/etag"])
        #expect(Self.shapeDrifts(#"{"items": [{"etag": "a"}]}"#, #"{"items": [{"etag": 7}]}"#, options: concrete).map(\.pointer) == ["/items/*/etag"])
        // The empty pointer is the whole body, its links included.
        #expect(Self.shapeDrifts(stub, live, options: DriftOptions(ignoredPointers: [""])) == [])
    }

    @Test func ignorePatternsMustBePointers() {
        #expect(DriftOptions.problem(inIgnorePattern: "/items/*/etag") == nil)
        #expect(DriftOptions.problem(inIgnorePattern: "") == nil)
        #expect(DriftOptions.problem(inIgnorePattern: "/a~1b/~0") == nil)
        #expect(DriftOptions.problem(inIgnorePattern: "items/etag")?.contains("is not a JSON pointer") == true)
        #expect(DriftOptions.problem(inIgnorePattern: "/a~2") != nil)
    }

    @Test func valuesAreComparedOnlyWhenAsked() {
        let stub = #"{"name": "Anvil", "weight": 1.0, "tags": ["a", "b"], "ok": true, "n": null, "id": 1, "_links": {"self": {"href": "/p/1"}}}"#
        let live = #"{"name": "Hammer", "weight": 1, "tags": ["a", "c", "d"], "ok": false, "n": null, "id": "1", "_links": {"self": {"href": "/p/2"}}}"#
        #expect(Self.shapeDrifts(stub, live).map(\.message) == ["/id was number, is now string"])
        // Concrete pointers; numbers by value (1.0 is 1); hrefs never (ids legitimately differ).
        #expect(Self.shapeDrifts(stub, live, options: DriftOptions(compareValues: true)) == [
            Self.shape("/id", "/id was number, is now string", expected: "number", actual: "string"),
            Self.shape("/name", #"/name was "Anvil", is now "Hammer""#, expected: #""Anvil""#, actual: #""Hammer""#),
            Self.shape("/ok", "/ok was true, is now false", expected: "true", actual: "false"),
            Self.shape("/tags/1", #"/tags/1 was "b", is now "c""#, expected: #""b""#, actual: #""c""#),
        ])
    }

    @Test func atMostFiftyShapeDriftsAndACount() {
        let keys = (0..<120).map { String(format: "k%03d", $0) }
        let live = "{" + keys.map { "\"\($0)\": 0" }.joined(separator: ", ") + "}"
        let found = Self.shapeDrifts("{}", live)
        #expect(found.count == 51)
        #expect(found.prefix(50).map(\.pointer) == keys.prefix(50).map { "/" + $0 })
        #expect(found.last == Drift(rule: .driftShape, message: "… and 70 more shape differences"))
        // The fifty kept are the first by pointer, whatever order they were found in.
        let reversed = "{" + keys.reversed().map { "\"\($0)\": \"s\"" }.joined(separator: ", ") + "}"
        #expect(Self.shapeDrifts(live, reversed).prefix(50).map(\.pointer) == keys.prefix(50).map { "/" + $0 })
    }

    @Test func nestingBelowTheDepthBoundIsNotCompared() {
        func nested(_ depth: Int, _ leaf: String) -> String { String(repeating: "[", count: depth) + leaf + String(repeating: "]", count: depth) }
        #expect(Self.shapeDrifts(nested(100, "1"), nested(100, "\"1\"")) == [])
        #expect(Self.shapeDrifts(nested(10, "1"), nested(10, "\"1\"")).map(\.pointer) == ["/" + Array(repeating: "*", count: 10).joined(separator: "/")])
    }

    @Test func hugeBodiesAreNotShapeCompared() {
        let huge = #"{"pad": ""# + String(repeating: "x", count: DriftComparison.maximumShapeBodyBytes) + #""}"#
        #expect(Self.shapeDrifts(huge, #"{"pad": 1}"#) == [])
    }
}
