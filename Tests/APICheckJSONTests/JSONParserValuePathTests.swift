import APICheckJSON
import Testing

/// `parseValue` builds `JSONValue`s directly (no `JSONNode` tree in between); it must accept and
/// refuse exactly what `parse` does, with the same errors, from an array, a slice or a buffer.
@Suite struct JSONParserValuePathTests {
    static let documents: [String] = [
        #"{"z":1,"a":[true,false,null],"m":{"x":"y"},"n":-1.50e+3,"s":"\u00e9\n\"\\\/"}"#,
        "{\n  \"a\": [1,\n    \"x\"]\n}", "  \r\n [ ] ", "[[[[[[[[[[1]]]]]]]]]]", "\u{FEFF}{\"bom\":1}",
        #""\ud83c\udfac""#, "\"é café 🎬\"", #""ascii, then \u00e9scaped and é raw""#,
        "[-0, 0.5e-3, 1E+9, -12.75, 10e9223372036854775807]", #"{"k":"v","k":"w","":{}}"#,
        // refused
        "{\"a\":1,}", "{\n  \"a\" 1}", "[1, 2", "[01]", "{\"a\":tru}", "\"tab\there\"", "{} x", "",
        #""\ud83c""#, #""\udc00x""#, #"["\u12"]"#, #"["\x"]"#, "[1,]", "{1:2}", "-", "1.", "1e", "[\"abc",
        "\"\\", "\u{FEFF}", "{\"a\":[}", "nul", "[true false]",
    ]

    private func outcome<T>(_ body: () throws(JSONParseError) -> T) -> Result<T, JSONParseError> {
        do throws(JSONParseError) { return .success(try body()) } catch { return .failure(error) }
    }

    @Test(arguments: documents)
    func directValuesMatchTheNodeTree(text: String) {
        let bytes = Array(text.utf8)
        let viaNode = outcome { () throws(JSONParseError) in try JSONParser().parse(bytes).value }
        let direct = outcome { () throws(JSONParseError) in try JSONParser().parseValue(bytes) }
        #expect(viaNode == direct)
    }

    @Test func invalidUTF8IsRefusedWithOrWithoutEscapes() {
        for bytes in [
            Array("[\"".utf8) + [0xC3, 0x28] + Array("\"]".utf8),
            Array("[\"\\n".utf8) + [0xC3, 0x28] + Array("\"]".utf8),
            Array("[\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8),  // a UTF-16 surrogate written as UTF-8
            Array("[\"".utf8) + [0xC3] + Array("\\u0041\"]".utf8),  // a sequence cut by an escape
        ] {
            let error = #expect(throws: JSONParseError.self) { try JSONParser().parseValue(bytes) }
            #expect(error == JSONParseError(position: JSONPosition(line: 1, column: 2), message: "string is not valid UTF-8"))
        }
    }

    @Test func eachLineOfAJSONLinesBufferParsesInPlace() throws {
        let lines = Array("{\"a\":1}\n[\"x\", \"\\u00e9\"]\n{\"bad\" 2}\n".utf8)
        let slices = lines.split(separator: UInt8(ascii: "\n"))
        #expect(try JSONParser().parseValue(slices[0]) == .object(["a": 1]))
        #expect(try JSONParser().parseValue(slices[1]) == ["x", "é"])
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parseValue(slices[2]) }
        #expect(error?.position == JSONPosition(line: 1, column: 8), "positions count from the slice's start")
        let fromBuffer = try lines.withUnsafeBufferPointer { buffer in
            try JSONParser().parseValue(UnsafeBufferPointer(rebasing: buffer[8..<23]))
        }
        #expect(fromBuffer == ["x", "é"])
    }

    @Test func anEmptyBufferIsAnErrorNotACrash() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parseValue(UnsafeBufferPointer<UInt8>(start: nil, count: 0)) }
        #expect(error?.position == JSONPosition(line: 1, column: 1))
    }

    @Test func nestingIsBoundedOnTheDirectPathToo() {
        let deep = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let error = #expect(throws: JSONParseError.self) { try JSONParser(maximumDepth: 64).parseValue(deep) }
        #expect(error?.message == "nesting deeper than 64 levels")
        #expect(throws: Never.self) { try JSONParser(maximumDepth: 64).parseValue(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)) }
    }

    @Test func largeContainersKeepEveryElementInOrder() throws {
        let count = 10_000
        let text = "[" + (0..<count).map { "{\"i\":\($0),\"s\":\"v\($0)\"}" }.joined(separator: ",") + "]"
        guard case .array(let elements) = try JSONParser().parseValue(Array(text.utf8)) else {
            Issue.record("expected an array")
            return
        }
        #expect(elements.count == count)
        #expect(elements[count - 1] == .object(["i": .number("\(count - 1)"), "s": .string("v\(count - 1)")]))
    }
}
