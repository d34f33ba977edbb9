import APICheckJSON

/// `type`: a set of JSON types as bits (`integer` is a number whose value is integral).
final class TypeKeyword: AssertionKeyword, @unchecked Sendable {
    static let null: UInt8 = 1, boolean: UInt8 = 2, object: UInt8 = 4, array: UInt8 = 8
    static let number: UInt8 = 16, string: UInt8 = 32, integer: UInt8 = 64
    static let names: [(String, UInt8)] = [
        ("null", null), ("boolean", boolean), ("object", object), ("array", array), ("number", number), ("string", string), ("integer", integer),
    ]

    let keyword = "type"
    override var reportedKeyword: String { keyword }
    let allowed: UInt8
    let written: [String]
    /// Draft 4: an integer is written without a fraction or exponent (`1.0` is not one).
    let integersAsWritten: Bool

    init(allowed: UInt8, written: [String], integersAsWritten: Bool = false) {
        self.allowed = allowed
        self.written = written
        self.integersAsWritten = integersAsWritten
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        switch instance {
        case .null: return allowed & Self.null != 0
        case .bool: return allowed & Self.boolean != 0
        case .object: return allowed & Self.object != 0
        case .array: return allowed & Self.array != 0
        case .string: return allowed & Self.string != 0
        case .number(let lexeme):
            if allowed & Self.number != 0 { return true }
            guard allowed & Self.integer != 0 else { return false }
            return integersAsWritten ? NumberFacts.isWrittenAsInteger(lexeme) : NumberFacts.isIntegral(lexeme)
        }
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        let expected = written.map { name -> String in
            switch name {
            case "null": return "null"
            case "integer", "object", "array": return "an " + name
            default: return "a " + name
            }
        }
        return "expected \(expected.joined(separator: " or ")), found \(instance.schemaTypeDescription)"
    }
}

/// The `false` schema (and `not: {}`-like impossibilities): nothing is valid.
final class FalseSchemaKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword: String
    override var reportedKeyword: String { keyword }
    init(keyword: String = "") { self.keyword = keyword }
    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool { false }
    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String { "no value is allowed here" }
}
