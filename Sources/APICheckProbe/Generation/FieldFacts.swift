import APICheckJSON

/// What a schema says of one place of the body (a top-level property, or the whole body), read
/// once so the edge-case catalog knows which kinds apply: JSON types, bounds, lengths, and
/// whether a `pattern`, `enum` or `format` is there to break. Only the property's own schema is
/// read (through local `$ref`s); whether a case breaks anything is still the validator's call.
struct FieldFacts {
    /// The property name; `nil` for the whole body.
    var name: String?
    var isRequired = false
    /// Declared JSON types (`integer` included as such); empty when any type is allowed.
    var types: Set<String> = []
    var minimum: String?
    var maximum: String?
    var exclusiveMinimum: String?
    var exclusiveMaximum: String?
    var minLength: Int?
    var maxLength: Int?
    var minItems: Int?
    var maxItems: Int?
    /// The JSON types `items` declares; empty when it declares none.
    var itemTypes: Set<String> = []
    var hasPattern = false
    var hasEnum = false
    var format: String?
    /// Where the property's schema sits in the document, for `invalidInstance(violating:)`.
    var pointer: String

    init(name: String?, schema: JSONValue, pointer: String, isRequired: Bool) {
        self.name = name
        self.pointer = pointer
        self.isRequired = isRequired
        switch schema["type"] {
        case .string(let type)?: types = [type]
        case .array(let list)?: types = Set(list.compactMap { if case .string(let type) = $0 { type } else { nil } })
        default: break
        }
        if case .array(let values)? = schema["enum"] {
            hasEnum = true
            if types.isEmpty { types = Set(values.map(FieldFacts.jsonType(of:))) }
        }
        if case .array? = schema["items"]?["enum"], types.isEmpty { types = ["array"] }
        minimum = Self.lexeme(schema["minimum"])
        maximum = Self.lexeme(schema["maximum"])
        exclusiveMinimum = Self.lexeme(schema["exclusiveMinimum"])
        exclusiveMaximum = Self.lexeme(schema["exclusiveMaximum"])
        minLength = Self.lexeme(schema["minLength"]).flatMap { Int($0) }
        maxLength = Self.lexeme(schema["maxLength"]).flatMap { Int($0) }
        minItems = Self.lexeme(schema["minItems"]).flatMap { Int($0) }
        maxItems = Self.lexeme(schema["maxItems"]).flatMap { Int($0) }
        switch schema["items"]?["type"] {
        case .string(let type)?: itemTypes = [type]
        case .array(let list)?: itemTypes = Set(list.compactMap { if case .string(let type) = $0 { type } else { nil } })
        default: break
        }
        if case .string? = schema["pattern"] { hasPattern = true }
        if case .string(let name)? = schema["format"] { format = name }
    }

    /// Whether the field takes values of `type` (`number` also when only `integer` is declared:
    /// the catalog's numbers are meant for both). No declared type takes everything.
    func accepts(_ type: String) -> Bool {
        types.isEmpty || types.contains(type) || (type == "number" && types.contains("integer"))
    }

    /// The kinds of value worth varying: declared types, or the base value's when none is declared.
    func kinds(base: JSONValue?) -> Set<String> {
        guard types.isEmpty else { return types.contains("integer") ? types.union(["number"]) : types }
        return base.map { [FieldFacts.jsonType(of: $0)] } ?? []
    }

    static func jsonType(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private static func lexeme(_ value: JSONValue?) -> String? {
        if case .number(let lexeme)? = value { lexeme } else { nil }
    }

    /// The schema at a local `$ref` (`#/$defs/Year`), followed a few hops; other references and
    /// schemas without one are returned as they are.
    static func resolvingLocalReferences(_ schema: JSONValue, in root: JSONValue) -> JSONValue {
        var current = schema
        for _ in 0..<8 {
            guard case .string(let reference)? = current["$ref"], reference.hasPrefix("#"),
                let target = root.value(at: String(reference.dropFirst()))
            else { return current }
            current = target
        }
        return current
    }
}
