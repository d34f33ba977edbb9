import APICheckJSON

extension SchemaConstraints {
    /// `anyOf`, `oneOf`, `not`, `if`/`then`/`else` and an OpenAPI `discriminator`: kept as choices
    /// for the builder to fold in and subschemas to check, since they do not merge.
    mutating func addCombinators(_ site: SchemaSite, _ env: GenerationEnvironment) {
        let tagged = addDiscriminator(site, env)
        let anyBranches = site.elements("anyOf")
        if !anyBranches.isEmpty, !tagged {
            if env.isTarget(site, "anyOf") { violating = true; mustNotMatch += anyBranches } else { anyOf.append(anyBranches) }
        }
        let oneBranches = site.elements("oneOf")
        if !oneBranches.isEmpty, !tagged {
            if env.isTarget(site, "oneOf") { violating = true; mustNotMatch += oneBranches } else { oneOf.append(oneBranches) }
        }
        if let negated = site.child("not") {
            if env.isTarget(site, "not") {
                violating = true
                anyOf.append([negated])  // folded in when choices are resolved
            } else {
                addNot(negated)
            }
        }
        if site.draft != .draft4, site.draft != .draft6, site.draft != .openAPI30, let ifSite = site.child("if") {
            let thenSite = site.child("then"), elseSite = site.child("else")
            if thenSite != nil || elseSite != nil { conditionals.append(Conditional(ifSite: ifSite, thenSite: thenSite, elseSite: elseSite)) }
        }
    }

    /// `not` of a lone type, enum/const or single required name becomes a plain restriction;
    /// anything else is checked after generating.
    private mutating func addNot(_ negated: SchemaSite) {
        guard case .object(let members) = negated.schema, members.count == 1, let only = members.first else {
            if negated.schema == .bool(true) { contradictionAt(negated.path, "not: true rejects every value") }
            if negated.schema != .bool(false) { mustNotMatch.append(negated) }
            return
        }
        switch (only.key, only.value) {
        case ("type", .string(let name)) where name != "number" && name != "integer":
            kinds.subtract(JSONKind.kinds(forTypeName: name))
        case ("const", let value): excluded.append(value)
        case ("enum", .array(let values)): excluded += values
        case ("required", .array(let names)) where names.count == 1:
            if case .string(let name) = names[0] { forbidden.insert(name) } else { mustNotMatch.append(negated) }
        default: mustNotMatch.append(negated)
        }
    }
}
