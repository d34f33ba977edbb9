/// A JSON value that keeps object members in document order and numbers as written.
///
/// Foundation's `JSONSerialization` loses both, and a stub's body must come out the way its
/// author wrote it. Equality is structural; numbers compare by value (`1.0 == 1`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's lexeme as it appeared in the source (always valid JSON number syntax).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member `key` of an object (the first, if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Resolves an RFC 6901 JSON Pointer (`""` is the whole value, `/a/0/b` walks down).
    ///
    /// The pointer is read by Unicode scalars, as the RFC says, not by `Character`s: a `/` followed
    /// by a combining mark is still a separator (`/\u{301}x` names the key `\u{301}x`).
    public func value(at pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.unicodeScalars.first == "/" else { return nil }
        var current = self
        for token in JSONPointer.tokens(of: pointer) {
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = Int(token), index >= 0, index < elements.count, String(index) == token else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A number lexeme as exact decimal digits and a power of ten (`1.50e+3` → `15e2`), so that
    /// equality is exact: no rounding through `Double`, no infinities, and exponents of any size
    /// (`1e99999999999999999999` is not `1`).
    static func canonicalNumber(_ lexeme: String) -> String {
        var bytes = Substring(lexeme).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent: Substring = "0"
        // One less per digit after the point, one more per trailing zero dropped: at most the
        // lexeme's length, while the written exponent may have any number of digits.
        var shift = 0
        var afterPoint = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponent = Substring(bytes[bytes.index(after: index)...])
                break
            } else {
                digits.append(byte)
                if afterPoint { shift -= 1 }
            }
            index = bytes.index(after: index)
        }
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        guard !digits.isEmpty else { return "0" }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            shift += 1
        }
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e" + decimalSum(exponent, shift)
    }

    /// `text`, an exponent as written (optional sign, decimal digits), plus `delta`, exactly in
    /// decimal: in `Int` arithmetic when it fits, else digit by digit.
    static func decimalSum(_ text: Substring, _ delta: Int) -> String {
        if let value = Int(text), case (let sum, false) = value.addingReportingOverflow(delta) { return String(sum) }
        let negative = text.first == "-"
        let zero = UInt8(ascii: "0")
        let magnitude = Array(text.utf8.filter { $0 >= zero && $0 <= UInt8(ascii: "9") }.drop { $0 == zero })
        let other = Array(String(delta.magnitude).utf8)
        // Here the magnitude is past `Int`'s range, so larger than |delta|: taking |delta| away
        // leaves its sign as it is, and no borrow is left at the end (`carry > 0` below stops
        // even on a lexeme without exponent digits, which the parser never makes).
        let adding = (delta < 0) == negative
        var result: [UInt8] = []
        var carry = 0
        var i = magnitude.count - 1
        var j = other.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let a = i >= 0 ? Int(magnitude[i] - zero) : 0
            let b = j >= 0 ? Int(other[j] - zero) : 0
            var digit = (adding ? a + b : a - b) + carry
            carry = 0
            if digit >= 10 {
                digit -= 10
                carry = 1
            } else if digit < 0 {
                digit += 10
                carry = -1
            }
            result.append(zero + UInt8(digit))
            i -= 1
            j -= 1
        }
        while result.count > 1, result.last == zero { result.removeLast() }
        return (negative && result != [zero] ? "-" : "") + String(decoding: result.reversed(), as: UTF8.self)
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || canonicalNumber(a) == canonicalNumber(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let lexeme): hasher.combine(Self.canonicalNumber(lexeme))
        case .string(let value): hasher.combine(value)
        case .array(let elements): hasher.combine(elements)
        case .object(let members): hasher.combine(members)
        }
    }
}

/// One `"key": value` of an object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    /// An object from members in the order given.
    public static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember($0.key, $0.value) })
    }

    /// A number from a `Double`, written the shortest way that round-trips.
    public static func number(_ value: Double) -> JSONValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(value.isFinite ? "\(value)" : "0")
    }
}
