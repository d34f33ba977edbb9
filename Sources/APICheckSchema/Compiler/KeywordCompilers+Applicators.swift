import APICheckJSON

/// Keywords that apply subschemas, and the references.
extension KeywordCompilers {
    static let allOf: KeywordCompile = { compiler, site in
        [.keyword(AllOfKeyword(schemas: try schemaArray(&compiler, site, inPlace: true)))]
    }

    static let anyOf: KeywordCompile = { compiler, site in
        [.keyword(AnyOfKeyword(schemas: try schemaArray(&compiler, site, inPlace: true)))]
    }

    static let oneOf: KeywordCompile = { compiler, site in
        [.keyword(OneOfKeyword(schemas: try schemaArray(&compiler, site, inPlace: true)))]
    }

    static let not: KeywordCompile = { compiler, site in
        [.keyword(NotKeyword(schema: try compiler.subschema(site, [], site.value, inPlace: true)))]
    }

    /// `if` with its `then` and `else` (which mean nothing alone).
    static let conditional: KeywordCompile = { compiler, site in
        let condition = try compiler.subschema(site, [], site.value, inPlace: true)
        var then: SchemaNode? = nil
        var otherwise: SchemaNode? = nil
        if let value = site.sibling("then") {
            var thenSite = site
            thenSite.select("then", value)
            then = try compiler.subschema(thenSite, [], value, inPlace: true)
        }
        if let value = site.sibling("else") {
            var elseSite = site
            elseSite.select("else", value)
            otherwise = try compiler.subschema(elseSite, [], value, inPlace: true)
        }
        return [.keyword(ConditionalKeyword(condition: condition, then: then, otherwise: otherwise))]
    }

    static func schemaMap(_ compiler: inout SchemaCompiler, _ site: KeywordSite, inPlace: Bool) throws -> [(String, SchemaNode)] {
        guard case .object(let entries) = site.value else { throw compiler.invalid(site, "\"\(site.keyword)\" must be an object of schemas") }
        var result: [(String, SchemaNode)] = []
        for entry in entries { result.append((entry.key, try compiler.subschema(site, [entry.key], entry.value, inPlace: inPlace))) }
        return result
    }

    static let properties: KeywordCompile = { compiler, site in
        let entries = try schemaMap(&compiler, site, inPlace: false)
        if entries.isEmpty { return [] }
        return [.keyword(PropertiesKeyword(names: entries.map(\.0), schemas: entries.map(\.1)))]
    }

    static let patternProperties: KeywordCompile = { compiler, site in
        let entries = try schemaMap(&compiler, site, inPlace: false)
        if entries.isEmpty { return [] }
        var patterns: [(source: String, regex: ECMARegex, schema: SchemaNode)] = []
        for (source, schema) in entries {
            patterns.append((source, try regex(&compiler, site, source, key: source), schema))
        }
        return [.keyword(PatternPropertiesKeyword(patterns: patterns))]
    }

    static let additionalProperties: KeywordCompile = { compiler, site in
        var known: [String] = []
        if case .object(let entries)? = site.sibling("properties") { known = entries.map(\.key) }
        var patterns: [ECMARegex] = []
        if case .object(let entries)? = site.sibling("patternProperties") {
            for entry in entries { patterns.append(try regex(&compiler, site, entry.key)) }
        }
        // `true` validates nothing but still marks every member evaluated.
        if case .bool(true) = site.value { return [.keyword(EvaluatesAllKeyword(properties: true))] }
        let schema: SchemaNode? = if case .bool(false) = site.value { nil } else { try compiler.subschema(site, [], site.value, inPlace: false) }
        return [.keyword(AdditionalPropertiesKeyword(known: known, patterns: patterns, schema: schema))]
    }

    static let propertyNames: KeywordCompile = { compiler, site in
        [.keyword(PropertyNamesKeyword(schema: try compiler.subschema(site, [], site.value, inPlace: false)))]
    }

    static let dependentSchemas: KeywordCompile = { compiler, site in
        let entries = try schemaMap(&compiler, site, inPlace: true)
        return [.keyword(DependentSchemasKeyword(keyword: "dependentSchemas", dependencies: entries.map { (name: $0.0, schema: $0.1) }))]
    }

    /// Draft 4-7 `dependencies`: arrays of names and schemas in one map.
    static let dependencies: KeywordCompile = { compiler, site in
        guard case .object(let entries) = site.value else { throw compiler.invalid(site, "\"dependencies\" must be an object") }
        var names: [(name: String, required: [String])] = []
        var schemas: [(name: String, schema: SchemaNode)] = []
        for entry in entries {
            if case .array = entry.value {
                names.append((entry.key, try stringArray(compiler, site, entry.value)))
            } else {
                schemas.append((entry.key, try compiler.subschema(site, [entry.key], entry.value, inPlace: true)))
            }
        }
        var result: [CompiledKeyword] = []
        if !names.isEmpty { result.append(.keyword(DependentRequiredKeyword(keyword: "dependencies", dependencies: names))) }
        if !schemas.isEmpty { result.append(.keyword(DependentSchemasKeyword(keyword: "dependencies", dependencies: schemas))) }
        return result
    }

    // MARK: Arrays

    /// Draft 4 - 2019-09 `items`: one schema for all items, or one per position followed by
    /// `additionalItems`.
    static let legacyItems: KeywordCompile = { compiler, site in
        switch site.value {
        case .array(let elements):
            var result: [CompiledKeyword] = []
            var schemas: [SchemaNode] = []
            for (index, element) in elements.enumerated() { schemas.append(try compiler.subschema(site, [String(index)], element, inPlace: false)) }
            result.append(.keyword(PrefixItemsKeyword(keyword: "items", schemas: schemas)))
            if let additional = site.sibling("additionalItems") {
                var additionalSite = site
                additionalSite.select("additionalItems", additional)
                if case .bool(true) = additional { return result + [.keyword(EvaluatesAllKeyword(properties: false))] }
                let schema = try compiler.subschema(additionalSite, [], additional, inPlace: false)
                result.append(.keyword(ItemsFromKeyword(keyword: "additionalItems", start: elements.count, schema: schema)))
            }
            return result
        default:
            return [.keyword(ItemsFromKeyword(keyword: "items", start: 0, schema: try compiler.subschema(site, [], site.value, inPlace: false)))]
        }
    }

    static let prefixItems: KeywordCompile = { compiler, site in
        [.keyword(PrefixItemsKeyword(keyword: "prefixItems", schemas: try schemaArray(&compiler, site, inPlace: false)))]
    }

    /// 2020-12 `items`: the items after `prefixItems`.
    static let items: KeywordCompile = { compiler, site in
        var start = 0
        if case .array(let prefix)? = site.sibling("prefixItems") { start = prefix.count }
        return [.keyword(ItemsFromKeyword(keyword: "items", start: start, schema: try compiler.subschema(site, [], site.value, inPlace: false)))]
    }

    static let legacyContains: KeywordCompile = { compiler, site in
        [.keyword(ContainsKeyword(schema: try compiler.subschema(site, [], site.value, inPlace: false), minimum: 1, maximum: nil, annotatesItems: false))]
    }

    static func containsKeyword(_ compiler: inout SchemaCompiler, _ site: KeywordSite, annotates: Bool) throws -> [CompiledKeyword] {
        var minimum = 1
        var maximum: Int? = nil
        if let value = site.sibling("minContains") {
            var countSite = site
            countSite.select("minContains", value)
            minimum = try nonNegativeInteger(compiler, countSite)
        }
        if let value = site.sibling("maxContains") {
            var countSite = site
            countSite.select("maxContains", value)
            maximum = try nonNegativeInteger(compiler, countSite)
        }
        let schema = try compiler.subschema(site, [], site.value, inPlace: false)
        return [.keyword(ContainsKeyword(schema: schema, minimum: minimum, maximum: maximum, annotatesItems: annotates))]
    }

    static let contains: KeywordCompile = { compiler, site in try containsKeyword(&compiler, site, annotates: false) }
    static let containsAnnotating: KeywordCompile = { compiler, site in try containsKeyword(&compiler, site, annotates: true) }

    // MARK: Unevaluated

    static let unevaluatedProperties: KeywordCompile = { compiler, site in
        let schema: SchemaNode? = if case .bool(false) = site.value { nil } else { try compiler.subschema(site, [], site.value, inPlace: false) }
        return [.unevaluated(UnevaluatedPropertiesKeyword(schema: schema))]
    }

    static let unevaluatedItems: KeywordCompile = { compiler, site in
        let schema: SchemaNode? = if case .bool(false) = site.value { nil } else { try compiler.subschema(site, [], site.value, inPlace: false) }
        return [.unevaluated(UnevaluatedItemsKeyword(schema: schema))]
    }

    // MARK: References

    static let ref: KeywordCompile = { compiler, site in
        guard case .string(let reference) = site.value else { throw compiler.invalid(site, "\"$ref\" must be a string") }
        let (index, resource, _) = try compiler.reference(site, reference)
        return [.keyword(RefKeyword(keyword: "$ref", target: index, targetResource: resource))]
    }

    static let dynamicRef: KeywordCompile = { compiler, site in
        guard case .string(let reference) = site.value else { throw compiler.invalid(site, "\"$dynamicRef\" must be a string") }
        let (index, _, target) = try compiler.reference(site, reference, recordEdge: false)
        let fragment = URIReference.fragment(of: reference) ?? ""
        var mode = DynamicRefKeyword.Mode.none
        if !fragment.isEmpty, !fragment.hasPrefix("/"), case .string(fragment)? = target.value["$dynamicAnchor"] {
            mode = .dynamicAnchor(fragment)
            compiler.noteDynamicScope()
        }
        return [.keyword(DynamicRefKeyword(keyword: "$dynamicRef", target: index, mode: mode))]
    }

    static let recursiveRef: KeywordCompile = { compiler, site in
        guard case .string(let reference) = site.value else { throw compiler.invalid(site, "\"$recursiveRef\" must be a string") }
        let (index, _, target) = try compiler.reference(site, reference, recordEdge: false)
        var mode = DynamicRefKeyword.Mode.none
        if case .bool(true)? = target.value["$recursiveAnchor"] {
            mode = .recursive
            compiler.noteDynamicScope()
        }
        return [.keyword(DynamicRefKeyword(keyword: "$recursiveRef", target: index, mode: mode))]
    }
}
