/// Why a JSON document could not be parsed.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: JSONPosition
    public var message: String

    public init(position: JSONPosition, message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position.line):\(position.column): \(message)" }
}

/// A strict RFC 8259 parser for untrusted input: UTF-8 only, bounded nesting, no trailing garbage.
public struct JSONParser {
    /// How deep arrays and objects may nest before the document is refused.
    public var maximumDepth: Int

    public init(maximumDepth: Int = 256) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a complete document.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONNode {
        var scanner = Scanner(bytes: bytes, maximumDepth: maximumDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {  // tolerate a UTF-8 BOM; it is not a column
            scanner.offset = 3
            scanner.lineStart = 3
        }
        scanner.skipWhitespace()
        let node = try scanner.parseValue(depth: 0)
        scanner.skipWhitespace()
        if scanner.offset < bytes.count {
            throw scanner.error("unexpected content after the JSON value")
        }
        return node
    }

    /// Parses a complete document, discarding positions.
    public func parseValue(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parse(bytes).value
    }
}

private struct Scanner {
    let bytes: [UInt8]
    let maximumDepth: Int
    var offset = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    var position: JSONPosition { JSONPosition(line: line, column: offset - lineStart + 1) }

    func error(_ message: String, at position: JSONPosition? = nil) -> JSONParseError {
        JSONParseError(position: position ?? self.position, message: message)
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0D:
                offset += 1
            case 0x0A:
                offset += 1
                line += 1
                lineStart = offset
            default:
                return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONNode {
        guard offset < bytes.count else { throw error("unexpected end of document, expected a value") }
        let start = position
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1, start: start)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1, start: start)
        case UInt8(ascii: "\""):
            return JSONNode(kind: .string(try parseString()), position: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(kind: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(kind: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(kind: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(kind: .number(try parseNumber()), position: start)
        default:
            throw error("unexpected character \(describe(bytes[offset])), expected a value")
        }
    }

    private mutating func parseObject(depth: Int, start: JSONPosition) throws(JSONParseError) -> JSONNode {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return JSONNode(kind: .object(members), position: start)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw error(offset < bytes.count ? "expected a quoted member name" : "unexpected end of document inside an object")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
            offset += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of document inside an object") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return JSONNode(kind: .object(members), position: start)
            }
            throw error("expected ',' or '}' in object, found \(describe(bytes[offset]))")
        }
    }

    private mutating func parseArray(depth: Int, start: JSONPosition) throws(JSONParseError) -> JSONNode {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return JSONNode(kind: .array(elements), position: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of document inside an array") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return JSONNode(kind: .array(elements), position: start)
            }
            throw error("expected ',' or ']' in array, found \(describe(bytes[offset]))")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            offset + count <= bytes.count && bytes[offset..<(offset + count)].elementsEqual(expected)
        }
        guard matches else { throw error("invalid literal, expected \(literal)") }
        offset += count
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number: expected a digit") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw error("invalid number: leading zero") }
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number: expected a digit after '.'") }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number: expected an exponent") }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        offset += 1  // opening quote
        var buffer: [UInt8] = []
        var runStart = offset
        while true {
            guard offset < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                break
            }
            if byte < 0x20 {
                throw error("control character \(describe(byte)) in string (escape it)")
            }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: bytes[runStart..<offset])
                try parseEscape(into: &buffer)
                runStart = offset
                continue
            }
            offset += 1
        }
        guard let string = String(validating: buffer, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: start)
        }
        return string
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        offset += 1
        guard offset < bytes.count else { throw error("unterminated escape sequence") }
        let escaped = bytes[offset]
        offset += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                offset += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw error("invalid escape sequence \\\(describe(escaped))")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            offset += 1
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }
}
