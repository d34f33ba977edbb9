extension JSONSchemaOutput {
    /// The errors a person should act on, as Python jsonschema's `best_match` picks them: in the
    /// order validation found them, without
    /// - a container explained by a deeper error (`properties` failed because `year` did),
    /// - the branches of a failed `anyOf`/`oneOf`/`not` (the combinator's own error says what was
    ///   expected; the branches' errors are each one reading of the value),
    /// - an unevaluated property or item of an object or array that has another error (a subschema
    ///   that failed there yields no annotations, so 2020-12 calls every member it evaluated
    ///   unevaluated too: `"name" is not allowed` beside the `personId` that failed; a genuinely
    ///   unexpected member shows once the other error is fixed),
    /// - repeats of one error at one place.
    /// The full list stays in ``errors`` (the basic output format).
    ///
    /// Linear in the number of errors times the depth of their locations: each question is a
    /// set lookup of a location's prefixes, not a scan of every other error.
    public var relevantErrors: [Unit] {
        // Keyword locations of failed combinators whose branches are left out.
        var alternatives = Set<String>()
        // Every proper prefix (cut before a "/") of some error's keyword location: a container
        // at one of these has a deeper error that explains it.
        var explainedContainers = Set<String>()
        // Instance locations with an error that is not about unevaluated members, and their
        // prefixes: an unevaluated member at one of these is already explained.
        var explainedInstances = Set<String>()
        for unit in errors {
            if Self.alternatives.contains(unit.keyword) { alternatives.insert(unit.keywordLocation) }
            Self.forEachProperPrefix(of: unit.keywordLocation) { explainedContainers.insert($0) }
            if !Self.unevaluated.contains(unit.keyword) {
                explainedInstances.insert(unit.instanceLocation)
                Self.forEachProperPrefix(of: unit.instanceLocation) { explainedInstances.insert($0) }
            }
        }
        var seen = Set<String>()
        return errors.filter { unit in
            let location = unit.keywordLocation
            if !alternatives.isEmpty {
                var inBranch = false
                Self.forEachProperPrefix(of: location) { prefix in
                    if !inBranch && alternatives.contains(prefix) { inBranch = true }
                }
                if inBranch { return false }
            }
            if Self.containers.contains(unit.keyword), explainedContainers.contains(location) { return false }
            if Self.unevaluated.contains(unit.keyword),
                explainedInstances.contains(unit.instanceLocation) || explainedInstances.contains(Self.parent(of: unit.instanceLocation))
            {
                return false
            }
            return seen.insert(unit.instanceLocation + "\u{0}" + location).inserted
        }
    }

    /// The pointer of the object or array holding the member at `pointer` (`/a/b` → `/a`).
    private static func parent(of pointer: String) -> String {
        guard let slash = pointer.utf8.lastIndex(of: UInt8(ascii: "/")) else { return pointer }
        return String(pointer[pointer.startIndex..<slash])
    }

    /// Calls `body` with each prefix of a JSON pointer that ends right before one of its "/"
    /// (`/a/b` → `""`, `/a`): exactly the strings `p` for which `pointer.hasPrefix(p + "/")`.
    private static func forEachProperPrefix(of pointer: String, _ body: (String) -> Void) {
        let utf8 = pointer.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") { body(String(pointer[pointer.startIndex..<index])) }
            index = utf8.index(after: index)
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
