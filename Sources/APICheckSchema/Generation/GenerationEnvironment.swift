import APICheckJSON

/// What every step of one generator shares: where references lead, the bounds, probe validators,
/// and (for an invalid instance) the keyword to violate.
struct GenerationEnvironment: Sendable {
    let registry: JSONSchemaRegistry
    let rootDocument: JSONValue
    let rootBaseURI: String
    let options: JSONSchemaOptions
    let probes: SubschemaProbes
    /// The keyword location (evaluation path) to violate; nil for valid instances.
    var target: String?

    /// Rounds through the same `$ref` after which the builder takes the shortest branch (empty
    /// arrays, optional properties left out, null when allowed), so recursive schemas end.
    static let shortestBranchRecursion = 2
    /// Any `$ref` chain this long gets the shortest branch too.
    static let shortestBranchHops = 12
    /// `$ref` hops at which generation gives up: a recursion no branch ends.
    static let maximumHops = 40
    /// Instance nesting after which the builder takes the shortest branch, and where it gives up.
    static let shortestBranchDepth = 5
    static let maximumDepth = 48

    func isTarget(_ site: SchemaSite, _ keyword: String) -> Bool {
        guard let target else { return false }
        return target == site.path + "/" + JSONPointer.escape(keyword)
    }

    /// True when the violation target is at or below `path`: the instance must reach it.
    func routes(through path: String) -> Bool {
        guard let target else { return false }
        return target.hasPrefix(path + "/")
    }

    /// The site after an `$id` (`id` in draft 4) that starts a new resource: references inside
    /// it resolve against its URI.
    func enteringResource(_ site: SchemaSite) -> SchemaSite {
        var site = site
        if case .string(let uri)? = site.schema["$schema"], let draft = JSONSchemaDraft(metaSchemaURI: uri) { site.draft = draft }
        let idKeyword = site.draft == .draft4 ? "id" : "$id"
        if case .string(let id)? = site.schema[idKeyword], !id.hasPrefix("#"), !id.isEmpty, let resolved = registry.resolve(id, against: site.baseURI) {
            site.baseURI = resolved.baseURI
            site.draft = resolved.draft
        }
        if site.scope.last != site.baseURI { site.scope.append(site.baseURI) }
        return site
    }

    /// The subschema a `$ref` (or `$dynamicRef`, `$recursiveRef`) names.
    func resolve(_ reference: String, from site: SchemaSite, keyword: String) throws(JSONSchemaGenerationError) -> SchemaSite {
        let path = site.path + "/" + keyword
        guard site.hops < Self.maximumHops else {
            throw .budgetExceeded(at: path, "recursion through \(keyword) deeper than \(Self.maximumHops): no branch ends it")
        }
        if var resolved = registry.resolve(reference, against: site.baseURI) {
            if let dynamic = dynamicTarget(of: reference, keyword: keyword, initial: resolved, scope: site.scope) { resolved = dynamic }
            return followed(site, SchemaSite(schema: resolved.schema, baseURI: resolved.baseURI, pointer: resolved.pointer, path: path, draft: resolved.draft, hops: site.hops + 1))
        }
        // A pointer into the root document when the registry does not know the base (no $id).
        if reference.hasPrefix("#"), site.baseURI == rootBaseURI {
            let pointer = Self.percentDecode(String(reference.dropFirst()))
            if let value = rootDocument.value(at: pointer) {
                return followed(site, SchemaSite(schema: value, baseURI: rootBaseURI, pointer: pointer, path: path, draft: site.draft, hops: site.hops + 1))
            }
        }
        throw .unsatisfiable(at: path, "cannot resolve \(reference) against \(site.baseURI)")
    }

    /// Where a `$dynamicRef` to `#name` goes when its initial target has `$dynamicAnchor: name`
    /// (the outermost resource in the dynamic scope with that dynamic anchor), or a
    /// `$recursiveRef` whose target has `$recursiveAnchor: true` (the outermost such resource).
    private func dynamicTarget(
        of reference: String, keyword: String, initial: JSONSchemaRegistry.Resolved, scope: [String]
    ) -> JSONSchemaRegistry.Resolved? {
        switch keyword {
        case "$dynamicRef":
            guard let hash = reference.firstIndex(of: "#") else { return nil }
            let name = String(reference[reference.index(after: hash)...])
            guard !name.isEmpty, !name.hasPrefix("/"), initial.schema["$dynamicAnchor"] == .string(name) else { return nil }
            for base in scope {
                if let candidate = registry.resolve("#" + name, against: base), candidate.schema["$dynamicAnchor"] == .string(name) { return candidate }
            }
        case "$recursiveRef":
            guard initial.schema["$recursiveAnchor"] == .bool(true) else { return nil }
            for base in scope {
                if let candidate = registry.resolve(base, against: base), candidate.schema["$recursiveAnchor"] == .bool(true) { return candidate }
            }
        default:
            break
        }
        return nil
    }

    /// The target with the referring site's trail extended by it.
    private func followed(_ site: SchemaSite, _ target: SchemaSite) -> SchemaSite {
        var target = target
        target.trail = site.trail + [target.identity]
        target.scope = site.scope
        let repeats = target.trail.reduce(0) { $0 + ($1 == target.identity ? 1 : 0) }
        target.recursion = max(site.recursion, repeats - 1)
        return target
    }

    static func percentDecode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
