import APICheckJSON
import Synchronization

/// Validators for pieces of the schema, compiled by the engine on first use and kept: one
/// `oneOf` branch, a `not`, a `pattern`. The generator checks a candidate against them where it
/// is made, instead of regenerating the whole instance when one deep branch went wrong.
final class SubschemaProbes: Sendable {
    private let cache = Mutex<[String: JSONSchema?]>([:])
    private let registry: JSONSchemaRegistry
    private let options: JSONSchemaOptions

    init(registry: JSONSchemaRegistry, options: JSONSchemaOptions) {
        self.registry = registry
        self.options = options
    }

    /// Whether `value` matches the subschema at `site`; nil when no validator could be made for it
    /// (the final whole-instance validation still decides).
    func matches(_ value: JSONValue, _ site: SchemaSite) -> Bool? {
        if case .bool(let constant) = site.schema { return constant }
        return validator("site:" + site.identity) { () throws(JSONSchemaError) in
            let reference = site.absoluteLocation(in: registry)
            return try JSONSchema(.object([JSONMember("$ref", .string(reference))]), baseURI: "urn:apicheck:generator:probe", registry: registry, options: options)
        }?.isValid(value)
    }

    /// Whether `string` matches the ECMA-262 `pattern` (unanchored), as the engine decides it.
    func matches(_ string: String, pattern: String) -> Bool? {
        validator("pattern:" + pattern) { () throws(JSONSchemaError) in
            try JSONSchema(.object([JSONMember("pattern", .string(pattern))]), registry: registry, options: options)
        }?.isValid(.string(string))
    }

    /// Whether `string` passes `format` with format assertion on.
    func matches(_ string: String, format: String) -> Bool? {
        var asserting = options
        asserting.formatAssertion = true
        return validator("format:" + format) { () throws(JSONSchemaError) in
            try JSONSchema(.object([JSONMember("format", .string(format))]), registry: registry, options: asserting)
        }?.isValid(.string(string))
    }

    private func validator(_ key: String, _ make: () throws(JSONSchemaError) -> JSONSchema) -> JSONSchema? {
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let made = try? make()
        cache.withLock { $0[key] = made }
        return made
    }
}
