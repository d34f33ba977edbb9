import APICheckXML

/// Collects `<link href rel type title hreflang>` elements in any namespace (Atom, XHTML, none)
/// from a parsed XML document, with element paths such as `/feed/entry[2]/link[1]`.
///
/// `rel` defaults to `alternate`, as in Atom (RFC 4287 §4.2.7.2). `xml:base` is not applied:
/// relative hrefs resolve against the response URL.
struct XMLLinkWalker {
    var collector: LinkCollector
    /// `(local name, 1-based index among same-named siblings)` from the root down; the root has no index.
    private var steps: [(name: String, index: Int?)] = []
    private var reportedDepth = false

    init(collector: LinkCollector) {
        self.collector = collector
    }

    /// The element path, cut like ``JSONPointer/boundedPointer(_:tokenLimit:totalLimit:)`` in
    /// hostile documents.
    private var path: String {
        var result = ""
        for step in steps {
            result += "/" + step.name.excerpt(128)
            if let index = step.index { result += "[\(index)]" }
            if result.utf8.count > 1024 { return result.excerpt(1024) }
        }
        return result
    }

    mutating func walk(root: XMLElement) {
        steps = [(root.name, nil)]
        walk(root, depth: 0, nested: false)
    }

    private mutating func walk(_ element: XMLElement, depth: Int, nested: Bool) {
        guard depth <= collector.limits.maximumDepth else {
            if !reportedDepth {
                reportedDepth = true
                collector.note(
                    .limitReached, .warning, .xml, .xmlPath(path, line: element.position.line, column: element.position.column),
                    "elements nest deeper than \(collector.limits.maximumDepth) levels: links below here were not extracted")
            }
            return
        }
        var counts: [String: Int] = [:]
        let owner = path
        for child in element.elements {
            let index = counts[child.name, default: 0] + 1
            counts[child.name] = index
            steps.append((child.name, index))
            if child.name == "link" {
                link(child, owner: owner, nested: nested)
            } else {
                walk(child, depth: depth + 1, nested: true)
            }
            steps.removeLast()
        }
    }

    private mutating func link(_ element: XMLElement, owner: String, nested: Bool) {
        let source = LinkSource.xmlPath(path, line: element.position.line, column: element.position.column)
        guard let href = element.attribute("href") else {
            collector.shape(.xml, source, "the <link> element has no href attribute")
            return
        }
        let base = collector.base
        let target = Link.target(forHref: href, base: base)
        let rels = (element.attribute("rel") ?? "alternate").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        if rels.isEmpty {
            collector.shape(.xml, source, "the <link> element has an empty rel")
            return
        }
        for rel in rels {
            collector.add(Link(
                context: base, base: base, rel: String(rel), href: href, target: target, type: element.attribute("type"),
                title: element.attribute("title"), hreflang: element.attribute("hreflang"), format: .xml, source: source,
                owner: owner, isNested: nested))
        }
    }
}
