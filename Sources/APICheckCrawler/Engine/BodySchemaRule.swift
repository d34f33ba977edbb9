import APICheckHypermedia
import APICheckJSON
import APICheckSchema

/// The `body-schema` rule: a pure function of an answer's body and the profile its types name,
/// evaluated once per answer as it arrives (not in the link rules), so it can move unchanged.
///
/// Each problem is one violation at the body's JSON pointer: the engine's relevant errors
/// (``APICheckSchema/JSONSchemaOutput/relevantErrors``), not every error of the basic output.
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
        let units = profile.schema.validate(instance).relevantErrors
        return units.prefix(maximumViolationsPerBody).map { unit in
            Violation(instanceLocation: unit.instanceLocation, keyword: "\(profile.schemaName)#\(unit.keywordLocation)", error: unit.error)
        }
    }
}
