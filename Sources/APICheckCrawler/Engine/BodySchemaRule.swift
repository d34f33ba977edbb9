import APICheckJSON
import APICheckSchema

/// The `body-schema` rule: a pure function of an answer's body and the profile its types name,
/// evaluated once per answer as it arrives (not in the link rules), so it can move unchanged.
///
/// Each problem is one violation at the body's JSON pointer. Errors a deeper one explains are
/// left out (a failing `properties` because its `year` failed), and so are the branches of a
/// failing `anyOf`/`oneOf`/`not` (the combinator's own error says what was expected): what is
/// left reads like Python jsonschema's most relevant errors.
public enum BodySchemaRule {
    /// One problem with a body.
    public struct Violation: Sendable, Hashable {
        /// Where in the body: a JSON pointer (`""` is the whole body).
        public var instanceLocation: String
        /// The schema's keyword, through `$ref`s, as `schemaName#pointer` (stable across machines).
        public var keyword: String
        /// What is wrong, for people.
        public var error: String
    }

    /// The most a body reports; a body that breaks its profile everywhere is one finding per
    /// failing keyword up to this, enough to act on.
    public static let maximumViolationsPerBody = 20

    /// The violations of `body` against `profile`; a body that is not JSON has none here (its
    /// type's rule, `type-matches`, reports that).
    public static func violations(of body: [UInt8], profile: MediaTypeProfile, maximumDepth: Int = 256) -> [Violation] {
        guard let instance = try? JSONParser(maximumDepth: maximumDepth).parseValue(body) else { return [] }
        return violations(of: instance, profile: profile)
    }

    public static func violations(of instance: JSONValue, profile: MediaTypeProfile) -> [Violation] {
        guard !profile.schema.isValid(instance) else { return [] }
        let units = relevant(profile.schema.validate(instance).errors)
        return units.prefix(maximumViolationsPerBody).map { unit in
            Violation(instanceLocation: unit.instanceLocation, keyword: "\(profile.schemaName)#\(unit.keywordLocation)", error: unit.error)
        }
    }

    /// Keywords whose failure only says that a subschema failed.
    private static let containers: Set<String> = [
        "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "additionalItems", "$ref",
        "$dynamicRef", "$recursiveRef", "allOf", "dependentSchemas", "dependencies", "then", "else", "propertyNames",
        "unevaluatedProperties", "unevaluatedItems", "contains", "discriminator",
    ]
    /// Combinators whose branches' errors are noise once the combinator failed.
    private static let alternatives: Set<String> = ["anyOf", "oneOf", "not"]

    /// The units a person should read: no container explained by a deeper error, no branch of a
    /// failed alternative; in the engine's order, without repeats.
    public static func relevant(_ units: [JSONSchemaOutput.Unit]) -> [JSONSchemaOutput.Unit] {
        let alternativeLocations = units.filter { alternatives.contains($0.keyword) }.map(\.keywordLocation)
        var seen = Set<String>()
        return units.filter { unit in
            let location = unit.keywordLocation
            if alternativeLocations.contains(where: { location.count > $0.count && location.hasPrefix($0 + "/") }) { return false }
            if containers.contains(unit.keyword), units.contains(where: { $0.keywordLocation.count > location.count && $0.keywordLocation.hasPrefix(location + "/") }) {
                return false
            }
            return seen.insert(unit.instanceLocation + "\u{0}" + location).inserted
        }
    }
}
