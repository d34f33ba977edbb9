import APICheckJSON

/// Siren (github.com/kevinswiber/siren): entity `links`, `actions`, and `entities` (embedded links
/// and embedded representations, recursively).
///
/// A Siren link has an array of rels; it becomes one ``Link`` per rel (same href, same source),
/// so that rel paths and the `duplicate-rel` rule see each relation on its own.
extension JSONLinkWalker {
    mutating func walkSiren(_ node: JSONNode, depth: Int, nested: Bool) {
        guard depth <= collector.limits.maximumDepth else { return }
        guard node.isObject else {
            shape(.sirenLink, node, "a Siren entity must be an object, found \(node.typeName)")
            return
        }
        let owner = pointer
        if let links = node["links"] {
            push("links")
            if case .array = links.kind {
                linkArray(links, format: .sirenLink, owner: owner, nested: nested)
            } else {
                shape(.sirenLink, links, "Siren 'links' must be an array, found \(links.typeName)")
            }
            pop()
        }
        if let actions = node["actions"] {
            push("actions")
            sirenActions(actions, owner: owner, nested: nested)
            pop()
        }
        guard let entities = node["entities"] else { return }
        push("entities")
        defer { pop() }
        guard case .array(let elements) = entities.kind else {
            shape(.sirenLink, entities, "Siren 'entities' must be an array, found \(entities.typeName)")
            return
        }
        for (index, entity) in elements.enumerated() {
            push(index)
            defer { pop() }
            guard entity.isObject else {
                shape(.sirenLink, entity, "a Siren sub-entity must be an object, found \(entity.typeName)")
                continue
            }
            if entity["href"] != nil {
                // An embedded link: a link from this entity to the sub-entity.
                guard let rels = rels(entity, .sirenLink) else { continue }
                linkObject(entity, rels: rels.map { ($0, nil) }, format: .sirenLink, owner: owner, nested: nested)
            } else {
                if entity["rel"] == nil {
                    shape(.sirenLink, entity, "a Siren sub-entity must have a 'rel'")
                }
                walkSiren(entity, depth: depth + 1, nested: true)
            }
        }
    }

    /// `actions` (the current node): `name` and `href` required, `method` defaults to GET and
    /// `type` to `application/x-www-form-urlencoded`.
    private mutating func sirenActions(_ node: JSONNode, owner: String, nested: Bool) {
        guard case .array(let actions) = node.kind else {
            shape(.sirenAction, node, "Siren 'actions' must be an array, found \(node.typeName)")
            return
        }
        for (index, action) in actions.enumerated() {
            push(index)
            defer { pop() }
            guard action.isObject else {
                shape(.sirenAction, action, "a Siren action must be an object, found \(action.typeName)")
                continue
            }
            let name = string(action, "name", .sirenAction)
            if name == nil {
                shape(.sirenAction, action, "the Siren action has no name")
            }
            guard let href = string(action, "href", .sirenAction) else {
                shape(.sirenAction, action, "the Siren action '\(name?.excerpt() ?? "#\(index)")' has no href")
                continue
            }
            var fields: [FormField] = []
            if let fieldsNode = action["fields"] {
                push("fields")
                fields = formFields(fieldsNode, format: .sirenAction, nameKey: "name", titleKey: "title")
                pop()
            }
            collector.add(Link(
                context: base, base: base, rel: name ?? "", href: href, target: Link.target(forHref: href, base: base),
                method: string(action, "method", .sirenAction) ?? "GET", title: string(action, "title", .sirenAction),
                name: name, format: .sirenAction, source: source(action), owner: owner, isNested: nested, fields: fields,
                contentType: string(action, "type", .sirenAction) ?? "application/x-www-form-urlencoded"))
        }
    }

    /// Whether an object looks like a Siren entity: sub-entities, actions with name and href,
    /// links whose rel is an array, or class and properties.
    static func looksLikeSiren(_ root: JSONNode) -> Bool {
        if root["entities"]?.elements != nil { return true }
        if let actions = root["actions"]?.elements, actions.contains(where: { $0["name"] != nil && $0["href"] != nil }) {
            return true
        }
        if let links = root["links"]?.elements, links.contains(where: { $0["rel"]?.elements != nil }) { return true }
        return root["class"]?.elements != nil && root["properties"]?.isObject == true
    }
}
