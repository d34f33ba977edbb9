import APICheckJSON

/// JSON:API (jsonapi.org, v1.1): top-level, resource, relationship and error `links`, pagination.
extension JSONLinkWalker {
    mutating func walkJSONAPI(_ root: JSONNode) {
        guard root.isObject else {
            shape(.jsonAPI, root, "a JSON:API document must be an object, found \(root.typeName)")
            return
        }
        if let links = root["links"] {
            push("links")
            jsonAPILinks(links, owner: "", nested: false, relationship: nil)
            pop()
        }
        if let data = root["data"] {
            push("data")
            switch data.kind {
            case .object:
                resource(data)
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    push(index)
                    resource(element)
                    pop()
                }
            case .null:
                break
            default:
                shape(.jsonAPI, data, "'data' must be a resource object, an array of them, or null; found \(data.typeName)")
            }
            pop()
        }
        if let included = root["included"] {
            push("included")
            if case .array(let elements) = included.kind {
                for (index, element) in elements.enumerated() {
                    push(index)
                    resource(element)
                    pop()
                }
            } else {
                shape(.jsonAPI, included, "'included' must be an array of resource objects, found \(included.typeName)")
            }
            pop()
        }
        if let errors = root["errors"]?.elements {
            push("errors")
            for (index, error) in errors.enumerated() {
                push(index)
                if let links = error["links"] {
                    let owner = pointer
                    push("links")
                    jsonAPILinks(links, owner: owner, nested: true, relationship: nil)
                    pop()
                }
                pop()
            }
            pop()
        }
    }

    /// A resource object (the current node): `type` and `id` required, `links`, `relationships`.
    private mutating func resource(_ node: JSONNode) {
        guard node.isObject else {
            shape(.jsonAPI, node, "a JSON:API resource object must be an object, found \(node.typeName)")
            return
        }
        let owner = pointer
        if node["type"]?.stringValue?.isEmpty != false {
            shape(.jsonAPI, node, "the JSON:API resource object has no string 'type'")
        }
        if node["id"]?.stringValue == nil && node["lid"]?.stringValue == nil {
            shape(.jsonAPI, node, "the JSON:API resource object has no string 'id'")
        }
        if let links = node["links"] {
            push("links")
            jsonAPILinks(links, owner: owner, nested: true, relationship: nil)
            pop()
        }
        guard let relationships = node["relationships"] else { return }
        push("relationships")
        defer { pop() }
        guard case .object(let members) = relationships.kind else {
            shape(.jsonAPI, relationships, "'relationships' must be an object, found \(relationships.typeName)")
            return
        }
        for member in members {
            push(member.key)
            defer { pop() }
            let relationship = member.value
            guard relationship.isObject else {
                shape(.jsonAPI, relationship, "relationship '\(member.key.excerpt())' must be an object, found \(relationship.typeName)")
                continue
            }
            if relationship["links"] == nil && relationship["data"] == nil && relationship["meta"] == nil {
                shape(.jsonAPI, relationship, "relationship '\(member.key.excerpt())' has none of 'links', 'data', 'meta'")
            }
            if let links = relationship["links"] {
                let relationshipOwner = pointer
                push("links")
                jsonAPILinks(links, owner: relationshipOwner, nested: true, relationship: member.key)
                pop()
            }
        }
    }

    /// A links object (the current node): members are URL strings, link objects, or `null`
    /// (allowed: pagination links that do not apply).
    private mutating func jsonAPILinks(_ node: JSONNode, owner: String, nested: Bool, relationship: String?) {
        guard case .object(let members) = node.kind else {
            shape(.jsonAPI, node, "JSON:API 'links' must be an object, found \(node.typeName)")
            return
        }
        for member in members {
            push(member.key)
            defer { pop() }
            switch member.value.kind {
            case .string(let href):
                stringLink(href, node: member.value, rel: member.key, format: .jsonAPI, owner: owner, nested: nested, name: relationship)
            case .object:
                // JSON:API 1.1 link objects may carry their own `rel`; the member name is the
                // link's name within the object.
                let rel = member.value["rel"]?.stringValue ?? member.key
                linkObject(member.value, rels: [(rel, nil)], format: .jsonAPI, owner: owner, nested: nested, name: relationship)
            case .null:
                break
            default:
                shape(.jsonAPI, member.value, "link '\(member.key.excerpt())' must be a URL string, a link object or null; found \(member.value.typeName)")
            }
        }
    }
}
