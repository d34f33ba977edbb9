import APICheckJSON
import Testing

@Suite struct JSONPointerTests {
    @Test func escapesAndUnescapesReferenceTokens() {
        #expect(JSONPointer.escape("a/b~c") == "a~1b~0c")
        #expect(JSONPointer.unescape("a~1b~0c") == "a/b~c")
        // `~01` is `~1`, not `/`: `~1` is replaced first (RFC 6901 §4).
        #expect(JSONPointer.unescape("~01") == "~1")
        #expect(JSONPointer.unescape("~2~") == "~2~")
    }

    @Test func splitsPointersIntoTokens() {
        #expect(JSONPointer.tokens(of: "") == [])
        #expect(JSONPointer.tokens(of: "/") == [""])
        #expect(JSONPointer.tokens(of: "/_links/a~1b/0") == ["_links", "a/b", "0"])
        #expect(JSONPointer.tokens(of: "//x") == ["", "x"])
        // By Unicode scalar: a `/` followed by a combining mark still separates.
        #expect(JSONPointer.tokens(of: "/\u{301}x/y") == ["\u{301}x", "y"])
    }

    @Test func tokensRoundTripThroughPointers() {
        let tokens = ["", "a/b", "~", "~1", "é", "0"]
        #expect(JSONPointer.tokens(of: JSONPointer.pointer(tokens)) == tokens)
        let document = JSONValue.object([JSONMember("a/b", .array([.string("x")]))])
        #expect(document.value(at: JSONPointer.pointer(["a/b", "0"])) == .string("x"))
    }
}
