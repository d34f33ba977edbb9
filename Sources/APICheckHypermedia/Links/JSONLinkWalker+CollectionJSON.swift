import APICheckJSON
import APICheckModel

/// Collection+JSON (amundsen.com/media-types/collection): `collection.href`, `links`, `items`
/// (each item's `href` and `links`) and `queries`.
///
/// `collection.href` is the collection's own address: it becomes a `self` link. An item's
/// `href` becomes an `item` link of the collection. A query becomes a GET link whose target is
/// a query-only template built from its `data` names (`/search{?q,year}`), so it is checked with
/// whatever values are known, possibly none.
extension JSONLinkWalker {
    mutating func walkCollectionJSON(_ root: JSONNode) {
        guard let collection = root["collection"], collection.isObject else {
            shape(.collectionJSON, root, "a Collection+JSON document must be an object with a 'collection' object")
            return
        }
        push("collection")
        defer { pop() }
        let owner = pointer
        if let href = string(collection, "href", .collectionJSON) {
            push("href")
            stringLink(href, node: collection["href"] ?? collection, rel: "self", format: .collectionJSON, owner: owner, nested: false)
            pop()
        } else {
            shape(.collectionJSON, collection, "the collection has no href")
        }
        if let links = collection["links"] {
            push("links")
            collectionLinks(links, owner: owner, nested: false)
            pop()
        }
        if let items = collection["items"] {
            push("items")
            if case .array(let elements) = items.kind {
                for (index, item) in elements.enumerated() {
                    push(index)
                    collectionItem(item, collectionOwner: owner)
                    pop()
                }
            } else {
                shape(.collectionJSON, items, "'items' must be an array, found \(items.typeName)")
            }
            pop()
        }
        if let queries = collection["queries"] {
            push("queries")
            collectionQueries(queries, owner: owner)
            pop()
        }
    }

    private mutating func collectionItem(_ item: JSONNode, collectionOwner: String) {
        guard item.isObject else {
            shape(.collectionJSON, item, "an item must be an object, found \(item.typeName)")
            return
        }
        let itemOwner = pointer
        if let href = string(item, "href", .collectionJSON) {
            push("href")
            stringLink(href, node: item["href"] ?? item, rel: "item", format: .collectionJSON, owner: collectionOwner, nested: false)
            pop()
        } else {
            shape(.collectionJSON, item, "the item has no href")
        }
        if let links = item["links"] {
            push("links")
            collectionLinks(links, owner: itemOwner, nested: true)
            pop()
        }
    }

    /// `links` (the current node): `{href, rel, name?, prompt?, render?}` objects.
    private mutating func collectionLinks(_ node: JSONNode, owner: String, nested: Bool) {
        guard case .array(let elements) = node.kind else {
            shape(.collectionJSON, node, "'links' must be an array, found \(node.typeName)")
            return
        }
        for (index, element) in elements.enumerated() {
            push(index)
            defer { pop() }
            guard element.isObject else {
                shape(.collectionJSON, element, "a link must be an object, found \(element.typeName)")
                continue
            }
            guard let rels = rels(element, .collectionJSON) else { continue }
            linkObject(
                element, rels: rels.map { ($0, nil) }, format: .collectionJSON, owner: owner, nested: nested,
                title: element["prompt"]?.stringValue)
        }
    }

    /// `queries` (the current node): `{href, rel, name?, prompt?, data: [{name, value}]}`.
    private mutating func collectionQueries(_ node: JSONNode, owner: String) {
        guard case .array(let elements) = node.kind else {
            shape(.collectionJSON, node, "'queries' must be an array, found \(node.typeName)")
            return
        }
        for (index, query) in elements.enumerated() {
            push(index)
            defer { pop() }
            guard query.isObject else {
                shape(.collectionJSON, query, "a query must be an object, found \(query.typeName)")
                continue
            }
            guard let rels = rels(query, .collectionJSON) else { continue }
            guard let href = string(query, "href", .collectionJSON) else {
                shape(.collectionJSON, query, "the query has no href")
                continue
            }
            var fields: [FormField] = []
            if let data = query["data"] {
                push("data")
                fields = formFields(data, format: .collectionJSON, nameKey: "name", titleKey: "prompt")
                pop()
            }
            let parameters = fields.compactMap { field -> LinkParameter? in
                guard let value = field.value, value != .string("") else { return nil }
                return LinkParameter(name: field.name, value: value)
            }
            for rel in rels {
                collector.add(Link(
                    context: base, base: base, rel: rel, href: href, target: queryTarget(href, names: fields.map(\.name)),
                    title: query["prompt"]?.stringValue, name: query["name"]?.stringValue, parameters: parameters,
                    format: .collectionJSON, source: source(query), owner: owner, isNested: false, fields: fields))
            }
        }
    }

    /// `href{?a,b}` (or `{&a,b}` when the href has a query) as a template; the plain href when
    /// there are no names or they are not valid variable names.
    private func queryTarget(_ href: String, names: [String]) -> Link.Target {
        guard !names.isEmpty, !URITemplate.looksTemplated(href) else { return Link.target(forHref: href, base: base) }
        let expression = (href.contains("?") ? "{&" : "{?") + names.joined(separator: ",") + "}"
        guard let template = try? URITemplate(URLResolution.encodingNonASCII(href) + expression) else {
            return Link.target(forHref: href, base: base)
        }
        if let problem = URLResolution.problem(in: href) {
            return .unresolvable("'\(href.excerpt(200))' is not a valid URI reference: \(problem)")
        }
        return .template(template)
    }
}
