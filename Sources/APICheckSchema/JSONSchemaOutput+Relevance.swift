extension JSONSchemaOutput {
    /// The errors a person should act on, as Python jsonschema's `best_match` picks them: in the
    /// order validation found them, without
    /// - a container explained by a deeper error (`properties` failed because `year` did),
    /// - the branches of a failed `anyOf`/`oneOf`/`not` (the combinator's own error says what was
    ///   expected; the branches' errors are each one reading of the value),
    /// - an unevaluated property or item whose own failure is already listed (a property whose
    ///   subschema failed yields no annotation, so 2020-12 also calls it unevaluated),
    /// - repeats of one error at one place.
    /// The full list stays in ``errors`` (the basic output format).
    public var relevantErrors: [Unit] {
        let alternatives = errors.filter { Self.alternatives.contains($0.keyword) }.map(\.keywordLocation)
        let explained = errors.filter { !Self.unevaluated.contains($0.keyword) }.map(\.instanceLocation)
        var seen = Set<String>()
        return errors.filter { unit in
            let location = unit.keywordLocation
            if alternatives.contains(where: { location.count > $0.count && location.hasPrefix($0 + "/") }) { return false }
            if Self.containers.contains(unit.keyword), errors.contains(where: { $0.keywordLocation.count > location.count && $0.keywordLocation.hasPrefix(location + "/") }) {
                return false
            }
            if Self.unevaluated.contains(unit.keyword),
                explained.contains(where: { $0 == unit.instanceLocation || $0.hasPrefix(unit.instanceLocation + "/") })
            {
                return false
            }
            return seen.insert(unit.instanceLocation + "\u{0}" + location).inserted
        }
    }

    /// Keywords whose failure only says that a subschema failed.
    private static let containers: Set<String> = [
        "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "additionalItems", "$ref",
        "$dynamicRef", "$recursiveRef", "allOf", "dependentSchemas", "dependencies", "then", "else", "propertyNames",
        "contains", "discriminator",
    ]
    private static let alternatives: Set<String> = ["anyOf", "oneOf", "not"]
    private static let unevaluated: Set<String> = ["unevaluatedProperties", "unevaluatedItems"]
}
