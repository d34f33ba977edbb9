import APICheckJSON

/// HAL (`_links`, `curies`, `_embedded`), HAL-FORMS (`_templates`) and link arrays under
/// `_links` or `links`, anywhere in a JSON document.
extension JSONLinkWalker {
    /// Walks `node` (the current node) and everything under it. Any object may carry `_links`,
    /// `_templates` and `_embedded` (HAL), or a `links` link array (PayPal); objects below the
    /// root are other resources (`isNested`), as AcmeFlix's `movies[]` are. CURIEs declared on
    /// a resource apply to it and to everything inside it.
    mutating func walkHAL(_ node: JSONNode, depth: Int, curies: [String: String], nested: Bool) {
        guard depth <= collector.limits.maximumDepth else { return }
        switch node.kind {
        case .object(let members):
            var linksNode: JSONNode?
            var embeddedNode: JSONNode?
            var templatesNode: JSONNode?
            for member in members {
                switch member.key {
                case "_links" where linksNode == nil: linksNode = member.value
                case "_embedded" where embeddedNode == nil: embeddedNode = member.value
                case "_templates" where templatesNode == nil: templatesNode = member.value
                default: break
                }
            }
            let owner = pointer
            var curies = curies
            if let linksNode {
                push("_links")
                for (name, href) in readCuries(linksNode) where curies[name] != nil || curies.count < Self.maximumCuries {
                    curies[name] = href
                }
                halLinks(linksNode, owner: owner, nested: nested, curies: curies)
                pop()
            }
            if let templatesNode {
                push("_templates")
                halForms(templatesNode, owner: owner, nested: nested, selfHref: Self.selfHref(in: linksNode))
                pop()
            }
            if let embeddedNode {
                push("_embedded")
                embedded(embeddedNode, depth: depth + 1, curies: curies)
                pop()
            }
            for member in members where member.key != "_links" && member.key != "_embedded" && member.key != "_templates" {
                push(member.key)
                if member.key == "links", Self.isLinkArray(member.value) {
                    linkArray(member.value, format: .linkArray, owner: owner, nested: nested)
                } else {
                    walkHAL(member.value, depth: depth + 1, curies: curies, nested: true)
                }
                pop()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                push(index)
                walkHAL(element, depth: depth + 1, curies: curies, nested: true)
                pop()
            }
        default:
            break
        }
    }

    /// `_links` (the current node): an object keyed by rel (HAL) or an array of link objects.
    private mutating func halLinks(_ node: JSONNode, owner: String, nested: Bool, curies: [String: String]) {
        switch node.kind {
        case .object(let members):
            for member in members {
                push(member.key)
                halRel(member.key, member.value, owner: owner, nested: nested, curies: curies)
                pop()
            }
        case .array:
            linkArray(node, format: .linkArray, owner: owner, nested: nested)
        case .null:
            shape(.hal, node, "'_links' is null: write an object keyed by rel, or leave it out")
        default:
            shape(.hal, node, "'_links' must be an object keyed by rel (or an array of link objects), found \(node.typeName)")
        }
    }

    /// The value of one rel in a HAL `_links` object (the current node).
    private mutating func halRel(_ rel: String, _ node: JSONNode, owner: String, nested: Bool, curies: [String: String]) {
        let (full, compact) = rel == "curies" ? (rel, nil) : Self.expand(rel, curies: curies)
        switch node.kind {
        case .object:
            linkObject(node, rels: [(full, compact)], format: .hal, owner: owner, nested: nested, templatedFlag: true)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                push(index)
                halRel(rel, element, owner: owner, nested: nested, curies: curies, inArray: true)
                pop()
            }
        case .string(let href):
            shape(.hal, node, "rel '\(rel.excerpt())' is a bare string href (as drf-hal-json writes): HAL link objects are {\"href\": …}")
            stringLink(href, node: node, rel: full, compact: compact, format: .hal, owner: owner, nested: nested)
        case .null:
            shape(.hal, node, "rel '\(rel.excerpt())' is a null link: leave the rel out instead")
        default:
            shape(.hal, node, "rel '\(rel.excerpt())' must be a link object or an array of them, found \(node.typeName)")
        }
    }

    /// An element of a rel's array: like a rel's value, but arrays do not nest.
    private mutating func halRel(
        _ rel: String, _ node: JSONNode, owner: String, nested: Bool, curies: [String: String], inArray: Bool
    ) {
        if case .array = node.kind {
            shape(.hal, node, "rel '\(rel.excerpt())' has an array inside its array: write link objects")
            return
        }
        halRel(rel, node, owner: owner, nested: nested, curies: curies)
    }

    /// At most this many CURIEs are in scope: each resource that declares its own copies the
    /// table it inherits, so the table must stay small whatever a document declares.
    static var maximumCuries: Int { 32 }

    /// `(name, href)` of the `curies` in a `_links` object, in document order.
    private func readCuries(_ links: JSONNode) -> [(String, String)] {
        guard let curies = links["curies"] else { return [] }
        let elements = curies.elements ?? [curies]
        return elements.prefix(Self.maximumCuries).compactMap { element in
            guard let name = element["name"]?.stringValue, let href = element["href"]?.stringValue else { return nil }
            return (name, href)
        }
    }

    /// `acme:widgets` → (the CURIE's href with `{rel}` = `widgets`, `acme:widgets`) when `acme`
    /// is a declared CURIE; otherwise the rel unchanged.
    static func expand(_ rel: String, curies: [String: String]) -> (String, String?) {
        guard !curies.isEmpty, let colon = rel.firstIndex(of: ":") else { return (rel, nil) }
        let prefix = String(rel[..<colon])
        let reference = String(rel[rel.index(after: colon)...])
        guard let href = curies[prefix], let template = try? URITemplate(href),
            let expanded = try? template.expand(["rel": .string(reference)])
        else { return (rel, nil) }
        return (expanded, rel)
    }

    /// `_embedded` (the current node): an object whose members are resources or arrays of them.
    private mutating func embedded(_ node: JSONNode, depth: Int, curies: [String: String]) {
        guard case .object(let members) = node.kind else {
            shape(.hal, node, "'_embedded' must be an object keyed by rel, found \(node.typeName)")
            walkHAL(node, depth: depth, curies: curies, nested: true)
            return
        }
        for member in members {
            push(member.key)
            defer { pop() }
            switch member.value.kind {
            case .object:
                walkHAL(member.value, depth: depth + 1, curies: curies, nested: true)
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    push(index)
                    if element.isObject {
                        walkHAL(element, depth: depth + 2, curies: curies, nested: true)
                    } else {
                        shape(.hal, element, "an embedded '\(member.key.excerpt())' resource must be an object, found \(element.typeName)")
                    }
                    pop()
                }
            case .null:
                shape(.hal, member.value, "embedded '\(member.key.excerpt())' is null: leave it out instead")
            default:
                shape(.hal, member.value, "embedded '\(member.key.excerpt())' must be a resource object or an array of them, found \(member.value.typeName)")
            }
        }
    }

    /// The href of the `self` link in a `_links` object or link array, if there is one.
    static func selfHref(in links: JSONNode?) -> String? {
        guard let links else { return nil }
        switch links.kind {
        case .object:
            guard let link = links["self"] else { return nil }
            if let href = link.stringValue { return href }
            return (link.elements?.first ?? link)["href"]?.stringValue
        case .array(let elements):
            return elements.first { $0["rel"]?.stringValue == "self" }?["href"]?.stringValue
        default:
            return nil
        }
    }

    /// HAL-FORMS `_templates` (the current node): one link per template, its target defaulting to
    /// the resource's `self` (or, for the document itself, the response URL).
    private mutating func halForms(_ node: JSONNode, owner: String, nested: Bool, selfHref: String?) {
        guard case .object(let members) = node.kind else {
            shape(.halForms, node, "'_templates' must be an object keyed by template name, found \(node.typeName)")
            return
        }
        for member in members {
            push(member.key)
            defer { pop() }
            let template = member.value
            guard template.isObject else {
                shape(.halForms, template, "HAL-FORMS template '\(member.key.excerpt())' must be an object, found \(template.typeName)")
                continue
            }
            let method = string(template, "method", .halForms)
            if method == nil {
                shape(.halForms, template, "HAL-FORMS template '\(member.key.excerpt())' has no method")
            }
            let title = string(template, "title", .halForms)
            let contentType = string(template, "contentType", .halForms) ?? "application/json"
            var fields: [FormField] = []
            if let properties = template["properties"] {
                push("properties")
                fields = formFields(properties, format: .halForms, nameKey: "name", titleKey: "prompt")
                pop()
            }
            let href = string(template, "target", .halForms) ?? selfHref ?? (nested ? nil : "")
            let target: Link.Target
            if let href {
                target = Link.target(forHref: href, base: base)
            } else {
                shape(.halForms, template, "HAL-FORMS template '\(member.key.excerpt())' has no target and its resource has no self link")
                target = .unresolvable("the HAL-FORMS template has no target and its resource has no self link")
            }
            collector.add(Link(
                context: base, base: base, rel: member.key, href: href ?? "", target: target, method: method ?? "GET",
                title: title, name: member.key, format: .halForms, source: source(template), owner: owner,
                isNested: nested, fields: fields, contentType: contentType))
        }
    }

    /// Form fields from an array of objects (the current node) named by `nameKey`.
    mutating func formFields(_ node: JSONNode, format: LinkFormat, nameKey: String, titleKey: String) -> [FormField] {
        guard case .array(let elements) = node.kind else {
            shape(format, node, "the fields must be an array, found \(node.typeName)")
            return []
        }
        var fields: [FormField] = []
        for (index, element) in elements.enumerated() {
            push(index)
            defer { pop() }
            guard element.isObject, let name = element[nameKey]?.stringValue else {
                shape(format, element, "a field must be an object with a string '\(nameKey)'")
                continue
            }
            var field = FormField(
                name: name, type: element["type"]?.stringValue, value: element["value"]?.value,
                isRequired: Self.isTrue(element["required"]), title: element[titleKey]?.stringValue)
            field.pattern = element["regex"]?.stringValue
            field.minimum = Self.numberLexeme(element["min"])
            field.maximum = Self.numberLexeme(element["max"])
            field.minimumLength = Self.count(element["minLength"])
            field.maximumLength = Self.count(element["maxLength"])
            field.isReadOnly = Self.isTrue(element["readOnly"])
            if let options = element["options"], options.isObject {
                field.options = Self.inlineOptions(options["inline"], valueField: options["valueField"]?.stringValue ?? "value")
                field.allowsSeveralOptions = (Self.count(options["maxItems"]) ?? 1) > 1
            }
            fields.append(field)
        }
        return fields
    }

    private static func isTrue(_ node: JSONNode?) -> Bool {
        if case .bool(true)? = node?.kind { true } else { false }
    }

    private static func numberLexeme(_ node: JSONNode?) -> String? {
        if case .number(let lexeme)? = node?.value { lexeme } else { nil }
    }

    /// A non-negative integer, as HAL-FORMS lengths and item counts are.
    private static func count(_ node: JSONNode?) -> Int? {
        guard let lexeme = numberLexeme(node), let value = Int(lexeme), value >= 0 else { return nil }
        return value
    }

    /// HAL-FORMS `options.inline`: plain values, or `{prompt, value}` objects (their `valueField`).
    private static func inlineOptions(_ node: JSONNode?, valueField: String) -> [JSONValue]? {
        guard case .array(let elements)? = node?.kind else { return nil }
        return elements.compactMap { element in element.isObject ? element[valueField]?.value : element.value }
    }
}
