import APICheckJSON

/// OpenAPI 3.0's own keywords: `nullable`, `readOnly`/`writeOnly` with the request or response
/// direction (`JSONSchemaOptions.openAPIDirection`), and `discriminator`.
extension KeywordCompilers {
    /// `type` plus `null` when `nullable: true` (OpenAPI 3.0.3: only where `type` is given; an
    /// `enum` must still list `null` itself).
    static let openAPIType: KeywordCompile = { compiler, site in
        var nullable = false
        if case .bool(true)? = site.object["nullable"] { nullable = true }
        return [.keyword(try typeKeyword(compiler, site, addingNull: nullable))]
    }

    /// The property names a direction forbids: `readOnly` ones in a request, `writeOnly` ones in
    /// a response (following one `$ref` to the property's schema).
    static func forbiddenProperties(_ compiler: inout SchemaCompiler, _ site: KeywordSite) -> [String] {
        guard let direction = compiler.options.openAPIDirection, case .object(let entries)? = site.object["properties"] else { return [] }
        let flag = direction == .request ? "readOnly" : "writeOnly"
        var result: [String] = []
        for entry in entries {
            var schema = entry.value
            if case .string(let reference)? = schema["$ref"],
                let target = try? compiler.registry.lookup(URIReference.resolve(reference, against: site.baseURI), contextDraft: site.dialect.draft)
            {
                schema = target.value
            }
            if case .bool(true)? = schema[flag] { result.append(entry.key) }
        }
        return result
    }

    /// `required` without the properties the direction forbids.
    static let openAPIRequired: KeywordCompile = { compiler, site in
        let forbidden = forbiddenProperties(&compiler, site)
        let names = try stringArray(compiler, site, site.value).filter { !forbidden.contains($0) }
        return names.isEmpty ? [] : [.keyword(RequiredKeyword(names: names))]
    }

    /// `properties`, and the absence of the properties the direction forbids.
    static let openAPIProperties: KeywordCompile = { compiler, site in
        var result = try properties(&compiler, site)
        let forbidden = forbiddenProperties(&compiler, site)
        if !forbidden.isEmpty, let direction = compiler.options.openAPIDirection {
            result.append(.keyword(ForbiddenPropertiesKeyword(names: forbidden, direction: direction)))
        }
        return result
    }

    static func hasDiscriminator(_ site: KeywordSite) -> Bool {
        if case .string? = site.object["discriminator"]?["propertyName"] { return true }
        return false
    }

    /// `oneOf`, unless a `discriminator` chooses the branch.
    static let openAPIOneOf: KeywordCompile = { compiler, site in
        hasDiscriminator(site) ? [] : try oneOf(&compiler, site)
    }

    static let openAPIAnyOf: KeywordCompile = { compiler, site in
        hasDiscriminator(site) ? [] : try anyOf(&compiler, site)
    }

    /// `discriminator` beside `oneOf`/`anyOf`: the instance's `propertyName` member names the
    /// branch (through `mapping`, else by the last segment of a branch's `$ref`, as in
    /// `#/components/schemas/Cat`), and only that branch is validated. Without `oneOf`/`anyOf`
    /// it is an annotation.
    static let discriminator: KeywordCompile = { compiler, site in
        guard case .string(let propertyName)? = site.value["propertyName"] else {
            throw compiler.invalid(site, "\"discriminator\" needs a \"propertyName\" string")
        }
        let combinator = site.object["oneOf"] != nil ? "oneOf" : (site.object["anyOf"] != nil ? "anyOf" : nil)
        guard let combinator, case .array(let elements)? = site.object[combinator] else { return [] }
        var branchSite = site
        branchSite.select(combinator, .array(elements))
        var branches: [SchemaNode] = []
        var branchURIs: [String?] = []
        for (index, element) in elements.enumerated() {
            branches.append(try compiler.subschema(branchSite, [String(index)], element, inPlace: true))
            if case .string(let reference)? = element["$ref"] { branchURIs.append(URIReference.resolve(reference, against: site.baseURI)) } else { branchURIs.append(nil) }
        }
        var choices: [String: DiscriminatorKeyword.Choice] = [:]
        for (index, uri) in branchURIs.enumerated() {
            guard let uri else { continue }
            let name = DiscriminatorKeyword.implicitName(uri)
            if choices[name] == nil { choices[name] = .branch(index) }
        }
        if case .object(let mapping)? = site.value["mapping"] {
            for entry in mapping {
                guard case .string(let target) = entry.value else { throw compiler.invalid(site, "\"mapping\" values must be strings") }
                if !target.contains("/") && !target.contains("#"), let choice = choices[target] {
                    choices[entry.key] = choice
                    continue
                }
                let uri = URIReference.resolve(target, against: site.baseURI)
                if let index = branchURIs.firstIndex(of: uri) {
                    choices[entry.key] = .branch(index)
                } else {
                    var mappingSite = site
                    mappingSite.select("discriminator", site.value)
                    let (index, _, _) = try compiler.reference(mappingSite, target)
                    choices[entry.key] = .target(index)
                }
            }
        }
        return [.keyword(DiscriminatorKeyword(propertyName: propertyName, combinator: combinator, branches: branches, choices: choices))]
    }
}
