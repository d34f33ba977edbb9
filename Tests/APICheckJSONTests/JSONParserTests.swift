import APICheckJSON
import Testing

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONNode {
        try JSONParser().parse(Array(text.utf8))
    }

    @Test func keepsMemberOrderAndNumberLexemes() throws {
        let text = #"{"z":1,"a":[true,false,null],"m":{"x":"y"},"n":-1.50e+3,"s":"\u00e9\n\"\\\/"}"#
        let value = try parse(text).value
        guard case .object(let members) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m", "n", "s"])
        #expect(value["n"] == .number("-1.50e+3"))
        #expect(value["s"] == .string("é\n\"\\/"))
        #expect(JSONWriter().string(value) == #"{"z":1,"a":[true,false,null],"m":{"x":"y"},"n":-1.50e+3,"s":"é\n\"\\/"}"#)
    }

    @Test func prettyStyleIndents() throws {
        let value = try parse(#"{"a":[1,{}],"b":[]}"#).value
        #expect(JSONWriter(style: .pretty).string(value) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
    }

    @Test func positionsOfValuesAndKeys() throws {
        let node = try parse("{\n  \"a\": [1,\n    \"x\"]\n}")
        #expect(node.position == JSONPosition(line: 1, column: 1))
        let member = try #require(node.members?.first)
        #expect(member.keyPosition == JSONPosition(line: 2, column: 3))
        guard case .array(let elements) = member.value.kind else {
            Issue.record("expected an array")
            return
        }
        #expect(elements[1].position == JSONPosition(line: 3, column: 5))
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8),
        ("{\n  \"a\" 1}", 2, 7),
        ("[1, 2", 1, 6),
        ("[01]", 1, 3),
        ("{\"a\":tru}", 1, 6),
        ("\"tab\there\"", 1, 5),
        ("{} x", 1, 4),
        ("", 1, 1),
    ])
    func syntaxErrorsHavePositions(text: String, line: Int, column: Int) {
        let error = #expect(throws: JSONParseError.self) { try parse(text) }
        #expect(error?.position == JSONPosition(line: line, column: column), "\(String(describing: error))")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSONParser(maximumDepth: 64).parse(Array(deep.utf8)) }
        #expect(error?.message.contains("nesting") == true)
    }

    @Test func invalidUTF8InAStringIsRejected() {
        let bytes = Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
        #expect(error?.message.contains("UTF-8") == true)
    }

    @Test func surrogatePairsDecodeAndLoneSurrogatesFail() throws {
        #expect(try parse(#""\ud83c\udfac""#).value == .string("🎬"))
        #expect(throws: JSONParseError.self) { try parse(#""\ud83c""#) }
    }

    @Test func jsonPointerWalksObjectsAndArraysWithEscapes() throws {
        let value = try parse(#"{"a/b":{"m~n":[10,20]},"":5}"#).value
        #expect(value.value(at: "/a~1b/m~0n/1") == .number("20"))
        #expect(value.value(at: "/") == .number("5"))
        #expect(value.value(at: "") == value)
        #expect(value.value(at: "/a~1b/m~0n/01") == nil)
        #expect(value.value(at: "/missing") == nil)
        #expect(value.value(at: "nope") == nil)
    }

    /// Found by `scripts/fuzz json` (Fuzz/Corpus/json keeps the input): pointers were split by
    /// `Character`, so a key starting with a combining mark (U+0D40 here) joined the `/` before it
    /// and was never found, and `~0`/`~1` followed by one were not unescaped.
    @Test func jsonPointersAreReadByUnicodeScalars() throws {
        let value = try parse(#"{"\u0d40@\f{":"\u00e15","":"\u1615","a":{"\u0301b":[1,2]},"~\u0301":3}"#).value
        #expect(value.value(at: "/\u{0D40}@\u{0C}{") == .string("\u{E1}5"))
        #expect(value.value(at: "/a/\u{301}b/1") == .number("2"))
        #expect(value.value(at: "/~0\u{301}") == .number("3"))
        #expect(value.value(at: "\u{301}/a") == nil)
    }

    @Test func numbersCompareByExactValue() {
        #expect(JSONValue.number("1.0") == .number("1"))
        #expect(JSONValue.number("1.50e+3") == .number("1500"))
        #expect(JSONValue.number("-0.0") == .number("0"))
        #expect(JSONValue.number("1.5") != .number("1"))
        #expect(JSONValue.number("9007199254740993") != .number("9007199254740992"), "beyond Double's precision")
        #expect(JSONValue.number("1e400") != .number("5e999"), "both overflow Double")
        #expect(Set([JSONValue.number("2"), .number("2.00"), .number("20e-1")]).count == 1)
    }

    /// Found by `scripts/fuzz json` (Fuzz/Corpus/json keeps the input): comparing or hashing a
    /// number whose exponent does not fit in an `Int` once its digits are counted trapped on
    /// overflow, and an exponent past `Int`'s range was read as 0 (`1e99999999999999999999` was 1).
    @Test func hugeExponentsCompareExactlyWithoutTrapping() throws {
        let parsed = try parse("10e9223372036854775807").value
        #expect(parsed == .number("1e9223372036854775808"))
        #expect(parsed.hashValue == JSONValue.number("100e9223372036854775806").hashValue)
        #expect(parsed != .number("1e9223372036854775807"))
        #expect(JSONValue.number("0.1e-9223372036854775808") == .number("1e-9223372036854775809"))
        #expect(JSONValue.number("1e99999999999999999999") != .number("1"))
        #expect(JSONValue.number("1e99999999999999999999") == .number("0.01e100000000000000000001"))
        #expect(JSONValue.number("-2.5E+00000000000000000000000003") == .number("-2500"))
    }
}
