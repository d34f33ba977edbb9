import APICheckJSON

extension JSONSchemaDraft {
    /// Every keyword of this draft's table (all vocabularies, annotations included).
    package var keywordNames: Set<String> { Set(dialect.keywords.keys) }

    /// The members of `schema` and of every subschema in it (as this draft's keyword table
    /// shapes them; data such as `enum`, `const` or `default` is not walked) that are not
    /// keywords of this draft, in document order; `x-` extensions are left alone. A typo such as
    /// `requried` checks nothing, silently: `apicheck schema lint` reports these.
    package func unknownKeywords(in schema: JSONNode) -> [(name: String, position: JSONPosition)] {
        var found: [(name: String, position: JSONPosition)] = []
        walk(schema, depth: 0, into: &found)
        return found
    }

    private func walk(_ node: JSONNode, depth: Int, into found: inout [(name: String, position: JSONPosition)]) {
        guard depth < 256, let members = node.members else { return }
        let keywords = dialect.keywords
        for member in members {
            guard let definition = keywords[member.key] else {
                if !member.key.hasPrefix("x-") { found.append((member.key, member.keyPosition)) }
                continue
            }
            let value = member.value
            switch definition.shape {
            case .none:
                continue
            case .schema:
                walk(value, depth: depth + 1, into: &found)
            case .schemaArray, .schemaOrArray:
                if case .array(let elements) = value.kind {
                    for element in elements { walk(element, depth: depth + 1, into: &found) }
                } else if definition.shape == .schemaOrArray {
                    walk(value, depth: depth + 1, into: &found)
                }
            case .schemaMap, .schemaMapOrNames:
                for entry in value.members ?? [] where entry.value.members != nil { walk(entry.value, depth: depth + 1, into: &found) }
            }
        }
    }
}
