import APICheckJSON

/// Walks a parsed JSON body and collects its links, keeping the JSON pointer of where it is.
///
/// Every walk is one pass over the tree (each node visited at most once), stops at the link
/// limit, and never goes deeper than the parser allowed.
struct JSONLinkWalker {
    var collector: LinkCollector
    /// The reference tokens of the node being looked at, unescaped.
    private var tokens: [String] = []

    init(collector: LinkCollector) {
        self.collector = collector
    }

    var base: String { collector.base }
    var pointer: String { JSONPointer.boundedPointer(tokens) }

    mutating func push(_ key: String) { tokens.append(key) }
    mutating func push(_ index: Int) { tokens.append(String(index)) }
    mutating func pop() { tokens.removeLast() }

    func source(_ node: JSONNode) -> LinkSource {
        .jsonPointer(pointer, line: node.position.line, column: node.position.column)
    }

    mutating func shape(_ format: LinkFormat, _ node: JSONNode, _ message: String) {
        collector.shape(format, source(node), message)
    }

    // MARK: Members

    /// The string member `key`, noting a value of another type (`null` counts as absent).
    mutating func string(_ node: JSONNode, _ key: String, _ format: LinkFormat) -> String? {
        guard let member = node[key] else { return nil }
        switch member.kind {
        case .string(let text):
            return text
        case .null:
            return nil
        default:
            push(key)
            shape(format, member, "'\(key)' must be a string, found \(member.typeName)")
            pop()
            return nil
        }
    }

    /// The boolean member `key`, noting a value of another type.
    mutating func bool(_ node: JSONNode, _ key: String, _ format: LinkFormat) -> Bool? {
        guard let member = node[key] else { return nil }
        switch member.kind {
        case .bool(let flag):
            return flag
        case .null:
            return nil
        default:
            push(key)
            shape(format, member, "'\(key)' must be true or false, found \(member.typeName)")
            pop()
            return nil
        }
    }

    /// The attributes every link-object format shares, read from `node`.
    struct Attributes {
        var type: String?
        var title: String?
        var name: String?
        var deprecation: String?
        var profile: String?
        var hreflang: String?
        var method: String?
        var parameters: [LinkParameter] = []
    }

    mutating func attributes(_ node: JSONNode, _ format: LinkFormat) -> Attributes {
        var attributes = Attributes()
        attributes.type = string(node, "type", format)
        attributes.title = string(node, "title", format)
        attributes.name = string(node, "name", format)
        attributes.deprecation = string(node, "deprecation", format)
        attributes.profile = string(node, "profile", format)
        attributes.hreflang = string(node, "hreflang", format)
        attributes.method = string(node, "method", format)
        if let parameters = node["parameters"] {
            push("parameters")
            attributes.parameters = linkParameters(parameters, format)
            pop()
        }
        return attributes
    }

    /// `{"name": value, …}`, `["name", …]` or `[{"name": …, "value": …}, …]`.
    private mutating func linkParameters(_ node: JSONNode, _ format: LinkFormat) -> [LinkParameter] {
        switch node.kind {
        case .object(let members):
            return members.map { LinkParameter(name: $0.key, value: $0.value.value) }
        case .array(let elements):
            var parameters: [LinkParameter] = []
            for (index, element) in elements.enumerated() {
                switch element.kind {
                case .string(let name):
                    parameters.append(LinkParameter(name: name))
                case .object:
                    if case .string(let name)? = element["name"]?.kind {
                        parameters.append(LinkParameter(name: name, value: element["value"]?.value))
                        continue
                    }
                    fallthrough
                default:
                    push(index)
                    shape(format, element, "a parameter must be a name or an object with a string 'name', found \(element.typeName)")
                    pop()
                }
            }
            return parameters
        case .null:
            return []
        default:
            shape(format, node, "'parameters' must be an object or an array, found \(node.typeName)")
            return []
        }
    }

    // MARK: Links

    /// Adds one link per rel for the link object `node` (the current node), which must have a
    /// string `href`. `templatedFlag`: the format has HAL's `templated` member. `name` and `title`
    /// replace the object's own.
    mutating func linkObject(
        _ node: JSONNode, rels: [(rel: String, compact: String?)], format: LinkFormat, owner: String, nested: Bool,
        templatedFlag: Bool = false, name: String? = nil, title: String? = nil
    ) {
        var relNames: String { rels.map { "'\(($0.compact ?? $0.rel).excerpt())'" }.joined(separator: ", ") }
        guard let hrefNode = node["href"] else {
            let what =
                switch format {
                case .hal: "HAL link object"
                case .sirenLink: "Siren link"
                case .linkArray: "link"
                default: "\(format) link"
                }
            shape(format, node, "the \(what) for rel \(relNames) has no href")
            return
        }
        guard case .string(let href) = hrefNode.kind else {
            push("href")
            shape(format, hrefNode, "the href of rel \(relNames) must be a string, found \(hrefNode.typeName)")
            pop()
            return
        }
        let templated = templatedFlag ? (bool(node, "templated", format) ?? false) : false
        if templatedFlag, !templated, URITemplate.looksTemplated(href) {
            shape(format, node, "the href of rel \(relNames) contains a URI template but 'templated' is not true")
        }
        let attributes = attributes(node, format)
        let target = Link.target(forHref: href, base: base, templated: templated)
        for (rel, compact) in rels {
            collector.add(Link(
                context: base, base: base, rel: rel, compactRel: compact, href: href, target: target,
                method: attributes.method ?? "GET", type: attributes.type, title: title ?? attributes.title, name: name ?? attributes.name,
                deprecation: attributes.deprecation, profile: attributes.profile, hreflang: attributes.hreflang,
                parameters: attributes.parameters, format: format, source: source(node), owner: owner, isNested: nested))
        }
    }

    /// Adds a link whose href is a bare string (the current node).
    mutating func stringLink(
        _ href: String, node: JSONNode, rel: String, compact: String? = nil, format: LinkFormat, owner: String, nested: Bool,
        name: String? = nil
    ) {
        collector.add(Link(
            context: base, base: base, rel: rel, compactRel: compact, href: href,
            target: Link.target(forHref: href, base: base), name: name, format: format, source: source(node),
            owner: owner, isNested: nested))
    }

    /// Whether `node` is an array of link objects (`[{rel, href, …}]`): at least one element is
    /// an object with a string `href` and a `rel`.
    static func isLinkArray(_ node: JSONNode) -> Bool {
        guard case .array(let elements) = node.kind else { return false }
        return elements.contains { element in
            guard case .string? = element["href"]?.kind else { return false }
            return element["rel"] != nil
        }
    }

    /// The array of link objects `node` (the current node), AcmeFlix and PayPal style.
    mutating func linkArray(_ node: JSONNode, format: LinkFormat, owner: String, nested: Bool) {
        guard case .array(let elements) = node.kind else { return }
        for (index, element) in elements.enumerated() {
            push(index)
            defer { pop() }
            guard case .object = element.kind else {
                shape(format, element, "a link must be an object, found \(element.typeName)")
                continue
            }
            guard let rels = rels(element, format) else { continue }
            linkObject(element, rels: rels.map { ($0, nil) }, format: format, owner: owner, nested: nested)
        }
    }

    /// The `rel` of a link object: a string, or an array of strings (Siren style, where a plain
    /// string is accepted but noted).
    mutating func rels(_ element: JSONNode, _ format: LinkFormat) -> [String]? {
        guard let relNode = element["rel"] else {
            shape(format, element, "the link has no rel")
            return nil
        }
        switch relNode.kind {
        case .string(let rel) where !rel.isEmpty:
            if format == .sirenLink {
                push("rel")
                shape(format, relNode, "a Siren rel must be an array of strings, found a string")
                pop()
            }
            return [rel]
        case .array(let items):
            let rels = items.compactMap { item -> String? in
                if case .string(let rel) = item.kind, !rel.isEmpty { return rel }
                return nil
            }
            if rels.count != items.count || rels.isEmpty {
                push("rel")
                shape(format, relNode, "every rel must be a non-empty string")
                pop()
            }
            return rels.isEmpty ? nil : rels
        default:
            push("rel")
            shape(format, relNode, "the rel must be a non-empty string, found \(relNode.kind.isEmptyString ? "an empty string" : relNode.typeName)")
            pop()
            return nil
        }
    }
}

extension JSONNode.Kind {
    var isEmptyString: Bool {
        if case .string(let text) = self { return text.isEmpty }
        return false
    }
}

