import APICheckJSON

/// The result of `JSONSchema.validate`: JSON Schema's "basic" output format (a flat list of
/// failing keywords, draft 2020-12 §12.4.2).
public struct JSONSchemaOutput: Sendable, Hashable {
    /// Whether the instance is valid.
    public var valid: Bool
    /// Every failing keyword, in evaluation order; empty when `valid`.
    public var errors: [Unit]

    /// One failing keyword.
    public struct Unit: Sendable, Hashable {
        /// The path of keywords that led here, through `$ref`s: `/properties/year/$ref/type`.
        public var keywordLocation: String
        /// Where the keyword is written: the schema resource's URI and a pointer in it.
        public var absoluteKeywordLocation: String?
        /// A JSON pointer to the failing part of the instance: `/movies/3/year`.
        public var instanceLocation: String
        /// What was expected and what came: `expected an integer, found a string`.
        public var error: String
        /// The failing keyword: `type`.
        public var keyword: String

        /// A unit as the validator reports it.
        public init(keywordLocation: String, absoluteKeywordLocation: String?, instanceLocation: String, error: String, keyword: String) {
            self.keywordLocation = keywordLocation
            self.absoluteKeywordLocation = absoluteKeywordLocation
            self.instanceLocation = instanceLocation
            self.error = error
            self.keyword = keyword
        }
    }

    /// An output from its parts.
    public init(valid: Bool, errors: [Unit]) {
        self.valid = valid
        self.errors = errors
    }

    /// `{"valid": …, "errors": [{"keywordLocation", "absoluteKeywordLocation", "instanceLocation", "error"}]}`.
    public var json: JSONValue {
        var members = [JSONMember("valid", .bool(valid))]
        if !valid {
            members.append(JSONMember("errors", .array(errors.map { unit in
                var fields = [JSONMember("keywordLocation", .string(unit.keywordLocation))]
                if let absolute = unit.absoluteKeywordLocation { fields.append(JSONMember("absoluteKeywordLocation", .string(absolute))) }
                fields.append(JSONMember("instanceLocation", .string(unit.instanceLocation)))
                fields.append(JSONMember("error", .string(unit.error)))
                return .object(fields)
            })))
        }
        return .object(members)
    }
}
