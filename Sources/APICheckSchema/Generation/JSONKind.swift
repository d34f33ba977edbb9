import APICheckJSON

/// The JSON types as the generator chooses among them; `number` is split so that "a number that
/// is not an integer" (violating `"type": "integer"`) can be asked for.
enum JSONKind: Int, CaseIterable, Sendable, Hashable, Comparable {
    case null, boolean, integer, fraction, string, array, object

    static func < (a: JSONKind, b: JSONKind) -> Bool { a.rawValue < b.rawValue }

    /// The kinds a `type` name admits.
    static func kinds(forTypeName name: String) -> Set<JSONKind> {
        switch name {
        case "null": return [.null]
        case "boolean": return [.boolean]
        case "integer": return [.integer]
        case "number": return [.integer, .fraction]
        case "string": return [.string]
        case "array": return [.array]
        case "object": return [.object]
        default: return Set(JSONKind.allCases)
        }
    }

    /// The kind of a value, for filtering `enum` candidates by type.
    static func of(_ value: JSONValue) -> JSONKind {
        switch value {
        case .null: return .null
        case .bool: return .boolean
        case .number(let lexeme): return DecimalLexeme.isInteger(lexeme) ? .integer : .fraction
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }
}
