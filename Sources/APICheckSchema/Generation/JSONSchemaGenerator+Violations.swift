import APICheckJSON

extension JSONSchemaGenerator {
    /// A keyword the generator knows how to negate, by evaluation path and (in the root
    /// document) by plain pointer.
    struct ViolationCandidate {
        var path: String
        var documentPointer: String?
    }

    /// Keywords whose negation is a constraint the builder can meet (see `SchemaConstraints`).
    private static let negatable: [String] = [
        "type", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "required", "minProperties", "maxProperties", "additionalProperties",
        "dependentRequired", "dependencies", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "not", "anyOf",
        "oneOf", "propertyNames", "items", "additionalItems",
    ]

    /// Keyword locations on the paths every valid instance goes through (properties, items,
    /// allOf, $ref), not inside a choice (anyOf/oneOf/if), whose negation the builder supports.
    func candidateViolations() -> [ViolationCandidate] {
        var found: [ViolationCandidate] = []
        var steps = 0
        walk(root, visited: [], into: &found, steps: &steps)
        return found
    }

    /// Subschemas visited while listing candidates, at most.
    static let maximumWalkSteps = 20_000

    private func walk(_ given: SchemaSite, visited: Set<String>, into found: inout [ViolationCandidate], steps: inout Int) {
        steps += 1
        guard case .object = given.schema, found.count < Self.maximumViolableKeywords, steps < Self.maximumWalkSteps, given.path.count < 2_000 else { return }
        let site = env.enteringResource(given)
        let schema = site.schema
        let legacy = [.draft4, .draft6, .draft7, .openAPI30].contains(site.draft)
        for keyword in ["$ref", "$dynamicRef", "$recursiveRef"] {
            guard case .string(let reference)? = schema[keyword] else { continue }
            if let target = try? env.resolve(reference, from: site, keyword: keyword), !visited.contains(target.identity) {
                walk(target, visited: visited.union([target.identity]), into: &found, steps: &steps)
            }
            if legacy && keyword == "$ref" { return }
        }
        let inRoot = site.baseURI == env.rootBaseURI
        for keyword in Self.negatable {
            guard let value = schema[keyword], Self.negatable(keyword, value, site) || (keyword == "format" && env.options.formatAssertion) else { continue }
            let escaped = JSONPointer.escape(keyword)
            found.append(ViolationCandidate(path: site.path + "/" + escaped, documentPointer: inRoot ? site.pointer + "/" + escaped : nil))
        }
        for (_, property) in site.members("properties") { walk(property, visited: visited, into: &found, steps: &steps) }
        for (_, property) in site.members("patternProperties") { walk(property, visited: visited, into: &found, steps: &steps) }
        if let additional = site.child("additionalProperties") { walk(additional, visited: visited, into: &found, steps: &steps) }
        for element in site.elements("prefixItems") where site.draft == .draft2020_12 { walk(element, visited: visited, into: &found, steps: &steps) }
        if case .array = schema["items"] {
            for element in site.elements("items") { walk(element, visited: visited, into: &found, steps: &steps) }
            if let rest = site.child("additionalItems") { walk(rest, visited: visited, into: &found, steps: &steps) }
        } else if let items = site.child("items") {
            walk(items, visited: visited, into: &found, steps: &steps)
        }
        for branch in site.elements("allOf") { walk(branch, visited: visited, into: &found, steps: &steps) }
    }

    /// Whether this keyword value has a negation at all (`minLength: 0` has none).
    private static func negatable(_ keyword: String, _ value: JSONValue, _ site: SchemaSite) -> Bool {
        let legacyExclusive = site.draft == .draft4 || site.draft == .openAPI30
        switch keyword {
        case "minLength", "minItems", "minProperties": return (SchemaConstraints.count(value) ?? 0) > 0
        case "maxLength", "maxItems", "maxProperties", "maxContains": return SchemaConstraints.count(value) != nil
        case "minimum", "maximum", "multipleOf": if case .number = value { return true } else { return false }
        case "exclusiveMinimum", "exclusiveMaximum": if case .number = value { return !legacyExclusive } else { return false }
        case "uniqueItems": return value == .bool(true)
        case "additionalProperties": return value == .bool(false)
        case "required": if case .array(let names) = value { return !names.isEmpty } else { return false }
        case "dependentRequired", "dependencies":
            guard case .object(let members) = value else { return false }
            return members.contains { if case .array(let names) = $0.value { !names.isEmpty } else { false } }
        case "format": return false
        case "contains": return site.draft != .draft4
        case "anyOf", "oneOf": if case .array(let branches) = value { return !branches.isEmpty } else { return false }
        case "items", "additionalItems": return value == .bool(false)
        case "minContains": return (SchemaConstraints.count(value) ?? 0) >= 2
        case "enum": if case .array = value { return true } else { return false }
        default: return true
        }
    }
}
