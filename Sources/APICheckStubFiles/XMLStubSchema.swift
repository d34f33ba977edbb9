import APICheckModel
import APICheckXML

/// The elements and attributes an XML stub file may use (PEWire-Control's, and APICheck's
/// additive extensions), checked once over the whole document before decoding: a name the format
/// does not know is reported with the closest known one (`request-methd` → `request-method`), so
/// a typo is never silently a stub without its header, latency or method.
///
/// Namespaced elements and attributes (`x:note`, `xmlns:x`) are someone else's and pass.
enum XMLStubSchema {
    struct Element {
        var attributes: Set<String> = []
        var children: Set<String> = []
    }

    static let elements: [String: Element] = [
        "http-responses": Element(children: ["http-response"]),
        "http-sequence": Element(attributes: ["after-last"], children: ["http-response"]),
        "http-response": Element(
            attributes: ["statusCode", "priority"],
            children: ["annotation", "request", "headers", "cookies", "body", "body-file", "body-template", "latency", "failure"]),
        "annotation": Element(attributes: ["name", "host", "port", "scheme", "uri-path", "request-method", "match-host", "priority", "example"]),
        "request": Element(children: ["query", "header", "body-json", "body-contains"]),
        "query": Element(attributes: ["name", "value"]),
        "header": Element(attributes: ["name", "value"]),
        "body-json": Element(attributes: ["path", "equals"]),
        "body-contains": Element(),
        "headers": Element(children: ["header"]),
        "cookies": Element(children: ["cookie"]),
        "cookie": Element(attributes: ["name", "value", "path", "domain", "secure", "expires", "max-age", "http-only", "httponly", "same-site"]),
        "body": Element(),
        "body-file": Element(attributes: ["path"]),
        "body-template": Element(attributes: ["path"], children: ["var"]),
        "var": Element(attributes: ["name", "value"]),
        "latency": Element(attributes: ["request", "response"]),
        "failure": Element(attributes: ["code"]),
    ]

    /// Reports every unknown element and attribute below `root` (whose own name the decoder
    /// checks); returns the unknown elements' names by their parent, for messages that explain a
    /// missing required element (`<anotation>` for `<annotation>`).
    static func check(_ root: XMLElement, context: inout StubFileContext) {
        visit(root, context: &context, depth: 0)
    }

    private static func isForeign(_ name: String) -> Bool { name.contains(":") || name == "xmlns" }

    private static func visit(_ element: XMLElement, context: inout StubFileContext, depth: Int) {
        guard depth < 64, let schema = elements[element.name] else { return }
        for attribute in element.attributes where !schema.attributes.contains(attribute.name)
            && attribute.namespaceURI == nil && !isForeign(attribute.name) {
            context.unknown(
                "attribute \(attribute.name) on <\(element.name)>", name: attribute.name, known: schema.attributes,
                at: context.location(attribute.position.line, attribute.position.column))
        }
        for child in element.elements {
            if child.namespaceURI != nil || isForeign(child.name) { continue }
            guard schema.children.contains(child.name) else {
                context.unknown(
                    "element <\(child.name)> in <\(element.name)>", name: child.name, known: schema.children, quote: { "<\($0)>" },
                    at: context.location(child.position.line, child.position.column))
                continue
            }
            visit(child, context: &context, depth: depth + 1)
        }
    }

    /// The unknown child of `element` that looks like a misspelling of `expected`, if any.
    static func misspelling(of expected: String, in element: XMLElement) -> XMLElement? {
        let known = elements[element.name]?.children ?? []
        return element.elements.first { !known.contains($0.name) && Suggestion.closest(to: $0.name, in: [expected]) == expected }
    }
}
