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
///
/// One scanner builds either tree: `parse` a `JSONNode` with positions (for messages about a
/// document a person wrote), `parseValue` a `JSONValue` directly (for bulk data: about 3× faster
/// than `parse(_:).value`, which builds everything twice). Both accept and refuse exactly the same
/// input, with the same errors.
public struct JSONParser {
    /// How deep arrays and objects may nest before the document is refused.
    public var maximumDepth: Int

    public init(maximumDepth: Int = 256) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a complete document.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONNode {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in try parse(buffer, building: NodeBuilder.self) }
    }

    /// Parses a complete document, discarding positions.
    public func parseValue(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in try parse(buffer, building: ValueBuilder.self) }
    }

    /// Parses a complete document held in part of a larger buffer, such as one line of a JSON
    /// Lines file, without copying it. Error positions count from the slice's start.
    public func parseValue(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in try parse(buffer, building: ValueBuilder.self) }
    }

    /// Parses a complete document in memory the caller owns (a mapped file, a read buffer).
    public func parseValue(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        try parse(bytes, building: ValueBuilder.self)
    }

    private func parse<Builder: JSONTreeBuilder>(
        _ bytes: UnsafeBufferPointer<UInt8>, building: Builder.Type
    ) throws(JSONParseError) -> Builder.Value {
        var scanner = Scanner<Builder>(bytes: bytes, maximumDepth: maximumDepth)
        defer { scanner.releasePending() }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {  // tolerate a UTF-8 BOM; it is not a column
            scanner.offset = 3
            scanner.lineStart = 3
        }
        scanner.skipWhitespace()
        let value = try scanner.parseValue(depth: 0)
        scanner.skipWhitespace()
        if scanner.offset < bytes.count {
            throw scanner.error("unexpected content after the JSON value")
        }
        return value
    }
}

/// What the scanner makes of each value: `JSONNode`s with positions or plain `JSONValue`s. The
/// scanner is generic over it and specialised, so the plain path computes no positions.
private protocol JSONTreeBuilder {
    associatedtype Value
    associatedtype Member
    static func null(at position: JSONPosition) -> Value
    static func bool(_ value: Bool, at position: JSONPosition) -> Value
    static func number(_ lexeme: String, at position: JSONPosition) -> Value
    static func string(_ value: String, at position: JSONPosition) -> Value
    static func array(_ elements: [Value], at position: JSONPosition) -> Value
    static func object(_ members: [Member], at position: JSONPosition) -> Value
    static func member(_ key: String, at position: JSONPosition, _ value: Value) -> Member
}

private enum NodeBuilder: JSONTreeBuilder {
    static func null(at position: JSONPosition) -> JSONNode { JSONNode(kind: .null, position: position) }
    static func bool(_ value: Bool, at position: JSONPosition) -> JSONNode { JSONNode(kind: .bool(value), position: position) }
    static func number(_ lexeme: String, at position: JSONPosition) -> JSONNode { JSONNode(kind: .number(lexeme), position: position) }
    static func string(_ value: String, at position: JSONPosition) -> JSONNode { JSONNode(kind: .string(value), position: position) }
    static func array(_ elements: [JSONNode], at position: JSONPosition) -> JSONNode { JSONNode(kind: .array(elements), position: position) }
    static func object(_ members: [JSONNode.Member], at position: JSONPosition) -> JSONNode {
        JSONNode(kind: .object(members), position: position)
    }
    static func member(_ key: String, at position: JSONPosition, _ value: JSONNode) -> JSONNode.Member {
        JSONNode.Member(key: key, keyPosition: position, value: value)
    }
}

private enum ValueBuilder: JSONTreeBuilder {
    static func null(at position: JSONPosition) -> JSONValue { .null }
    static func bool(_ value: Bool, at position: JSONPosition) -> JSONValue { .bool(value) }
    static func number(_ lexeme: String, at position: JSONPosition) -> JSONValue { .number(lexeme) }
    static func string(_ value: String, at position: JSONPosition) -> JSONValue { .string(value) }
    static func array(_ elements: [JSONValue], at position: JSONPosition) -> JSONValue { .array(elements) }
    static func object(_ members: [JSONMember], at position: JSONPosition) -> JSONValue { .object(members) }
    static func member(_ key: String, at position: JSONPosition, _ value: JSONValue) -> JSONMember { JSONMember(key, value) }
}

private struct Scanner<Builder: JSONTreeBuilder> {
    /// Read through `bytes[offset]` after an `offset < bytes.count` test: an unsafe buffer's
    /// subscript is not checked again in optimised builds.
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var offset = 0
    var line = 1
    var lineStart = 0
    /// The elements and members of the containers being read, innermost last: a finished container
    /// takes its own off the top into an array of exactly its size, instead of growing one array per
    /// container by doubling.
    var pendingValues = PendingStack<Builder.Value>()
    var pendingMembers = PendingStack<Builder.Member>()

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func releasePending() {
        pendingValues.release()
        pendingMembers.release()
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

    mutating func parseValue(depth: Int) throws(JSONParseError) -> Builder.Value {
        guard offset < bytes.count else { throw error("unexpected end of document, expected a value") }
        let start = position
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1, start: start)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1, start: start)
        case UInt8(ascii: "\""):
            return Builder.string(try parseString(), at: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return Builder.bool(true, at: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return Builder.bool(false, at: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return Builder.null(at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return Builder.number(try parseNumber(), at: start)
        default:
            throw error("unexpected character \(describe(bytes[offset])), expected a value")
        }
    }

    private mutating func parseObject(depth: Int, start: JSONPosition) throws(JSONParseError) -> Builder.Value {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return Builder.object([], at: start)
        }
        let base = pendingMembers.count
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
            pendingMembers.push(Builder.member(key, at: keyPosition, value))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of document inside an object") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                let members = pendingMembers.pop(from: base)
                return Builder.object(members, at: start)
            }
            throw error("expected ',' or '}' in object, found \(describe(bytes[offset]))")
        }
    }

    private mutating func parseArray(depth: Int, start: JSONPosition) throws(JSONParseError) -> Builder.Value {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return Builder.array([], at: start)
        }
        let base = pendingValues.count
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            pendingValues.push(element)
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of document inside an array") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                let elements = pendingValues.pop(from: base)
                return Builder.array(elements, at: start)
            }
            throw error("expected ',' or ']' in array, found \(describe(bytes[offset]))")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            guard offset + count <= bytes.count else { return false }
            for index in 0..<count where bytes[offset + index] != expected[index] { return false }
            return true
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
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// Most strings have no escapes: those become a `String` straight from the input bytes, and
    /// pure ASCII skips UTF-8 validation. Any UTF-8 error is reported only at the closing quote,
    /// after control characters, as the escaped path does.
    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        offset += 1  // opening quote
        let runStart = offset
        var allBits: UInt8 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<offset])
                offset += 1
                if allBits < 0x80 { return String(decoding: run, as: UTF8.self) }
                guard let string = String(validating: run, as: UTF8.self) else {
                    throw error("string is not valid UTF-8", at: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(runStart: runStart, start: start) }
            if byte < 0x20 {
                throw error("control character \(describe(byte)) in string (escape it)")
            }
            allBits |= byte
            offset += 1
        }
        throw error("unterminated string", at: start)
    }

    /// The rest of a string from its first backslash, decoded into a buffer.
    private mutating func parseEscapedString(runStart firstRunStart: Int, start: JSONPosition) throws(JSONParseError) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(offset - firstRunStart + 16)
        var runStart = firstRunStart
        while true {
            guard offset < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                offset += 1
                break
            }
            if byte < 0x20 {
                throw error("control character \(describe(byte)) in string (escape it)")
            }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
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
            buffer.append(contentsOf: UTF8.encode(unicode)!)
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

/// The scanner's stack of finished elements of unfinished containers. Elements are moved, not
/// copied, into each container's array when it closes: no reference counting traffic per element.
/// Its owner calls `release()` once, whether parsing finished or threw.
private struct PendingStack<Element> {
    private var storage: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (storage! + count).initialize(to: element)
        count += 1
    }

    /// The elements from `start` to the top, as an array of exactly that size; they leave the stack.
    mutating func pop(from start: Int) -> [Element] {
        let popped = count - start
        let elements = [Element](unsafeUninitializedCapacity: popped) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: storage! + start, count: popped)
            initialized = popped
        }
        count = start
        return elements
    }

    mutating func release() {
        storage?.deinitialize(count: count)
        storage?.deallocate()
        storage = nil
        count = 0
        capacity = 0
    }

    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage {
            newStorage.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = newStorage
        capacity = newCapacity
    }
}
