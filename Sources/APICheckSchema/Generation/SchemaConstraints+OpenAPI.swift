import APICheckJSON

extension SchemaConstraints {
    /// One way through an OpenAPI `discriminator`: the branch and a site fixing the property.
    struct Tagged {
        var branch: SchemaSite
        var tag: SchemaSite
    }

    /// OpenAPI 3.0 `discriminator` beside `oneOf`/`anyOf`: the engine validates only the branch
    /// the property names (through `mapping`, else the last segment of the branch's `$ref`), so
    /// each choice is a branch plus that property fixed to one of its names. Returns false when
    /// the site has no discriminator.
    mutating func addDiscriminator(_ site: SchemaSite, _ env: GenerationEnvironment) -> Bool {
        guard site.draft == .openAPI30, case .string(let propertyName)? = site.schema["discriminator"]?["propertyName"] else { return false }
        let combinator = site.schema["oneOf"] != nil ? "oneOf" : (site.schema["anyOf"] != nil ? "anyOf" : nil)
        guard let combinator else { return true }
        let branches = site.elements(combinator)
        var names: [(name: String, branch: Int)] = []
        func bind(_ name: String, _ branch: Int) {
            names.removeAll { $0.name == name }
            names.append((name, branch))
        }
        var targets: [String?] = []
        for (index, branch) in branches.enumerated() {
            guard case .string(let reference)? = branch.schema["$ref"] else { targets.append(nil); continue }
            targets.append(env.registry.resolve(reference, against: site.baseURI).map { $0.baseURI + "#" + $0.pointer })
            let name = Self.implicitName(reference)
            if !names.contains(where: { $0.name == name }) { names.append((name, index)) }
        }
        if case .object(let mapping)? = site.schema["discriminator"]?["mapping"] {
            for entry in mapping {
                guard case .string(let target) = entry.value else { continue }
                if !target.contains("/"), !target.contains("#"), let known = names.first(where: { $0.name == target }) {
                    bind(entry.key, known.branch)
                } else if let resolved = env.registry.resolve(target, against: site.baseURI),
                    let index = targets.firstIndex(of: resolved.baseURI + "#" + resolved.pointer)
                {
                    bind(entry.key, index)
                } else {
                    names.removeAll { $0.name == entry.key }  // a schema outside the branches: not generated
                }
            }
        }
        let options = names.map { entry in
            let tag = SchemaSite(
                schema: .object([
                    JSONMember("required", [.string(propertyName)]),
                    JSONMember("properties", .object([JSONMember(propertyName, .object([JSONMember("const", .string(entry.name))]))])),
                ]),
                baseURI: site.baseURI, pointer: site.pointer + "/discriminator", path: site.path + "/discriminator", draft: site.draft, hops: site.hops, trail: site.trail, recursion: site.recursion, scope: site.scope)
            return Tagged(branch: branches[entry.branch], tag: tag)
        }
        if options.isEmpty { contradictionAt(site.path + "/discriminator", "the discriminator names no branch") }
        discriminated.append(options)
        return true
    }

    /// `#/components/schemas/Cat` → `Cat`; `cat.json` → `cat` (as the engine names branches).
    static func implicitName(_ reference: String) -> String {
        var name = Substring(reference)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let hash = name.lastIndex(of: "#") { name = name[name.index(after: hash)...] }
        for suffix in [".json", ".yaml", ".yml"] where name.hasSuffix(suffix) { name = name.dropLast(suffix.count) }
        return String(name)
    }

    /// OpenAPI 3.0 with a direction: `readOnly` properties are absent from requests and
    /// `writeOnly` ones from responses, and not required there (as the engine checks them).
    static func directionForbidden(_ site: SchemaSite, _ env: GenerationEnvironment) -> Set<String> {
        guard site.draft == .openAPI30, let direction = env.options.openAPIDirection else { return [] }
        let flag = direction == .request ? "readOnly" : "writeOnly"
        var result: Set<String> = []
        for (name, property) in site.members("properties") {
            var schema = property.schema
            if case .string(let reference)? = schema["$ref"], let target = env.registry.resolve(reference, against: site.baseURI) {
                schema = target.schema
            }
            if schema[flag] == .bool(true) { result.insert(name) }
        }
        return result
    }
}
