/// A node of the report's tree: an element, text, isolated text or embedded JSON data.
///
/// Every way in takes untrusted input only where it is escaped for its context; markup comes only
/// from ``HTMLTag`` and ``HTMLAttribute``, so a crawled value can never become a tag or a script.
///
/// ```swift
/// let row: HTMLNode = .element(.tr, [.class("defect")], [
///     .element(.td, [], [.text(finding.message)]),
///     .element(.td, [], [.element(.a, [.href(url)], [.isolated(url)])]),
/// ])
/// ```
public struct HTMLNode: Sendable {
    indirect enum Kind: Sendable {
        case element(HTMLTag, [HTMLAttribute], [HTMLNode])
        case text(String)
        case isolated(String)
        case json(id: HTMLToken, json: String)
        case group([HTMLNode])
    }

    let kind: Kind

    /// An element. A void element (`br`, `hr`, `input`) takes no children.
    public static func element(_ tag: HTMLTag, _ attributes: [HTMLAttribute] = [], _ children: [HTMLNode] = []) -> HTMLNode {
        precondition(!tag.isVoid || children.isEmpty, "HTMLNode: <\(tag.rawValue)> is a void element and takes no children")
        return HTMLNode(kind: .element(tag, attributes, children))
    }

    /// Text, escaped: any string.
    public static func text(_ text: String) -> HTMLNode {
        HTMLNode(kind: .text(text))
    }

    /// Untrusted text in `<bdi>`, so right-to-left characters in it (U+202E in a URL) reorder only
    /// the text itself, never the words around it.
    public static func isolated(_ text: String) -> HTMLNode {
        HTMLNode(kind: .isolated(text))
    }

    /// Already serialized JSON as `<script type="application/json" id="…">`, for the report's
    /// script to read with `JSON.parse(element.textContent)`. Not executed, so not in the CSP.
    public static func json(id: HTMLToken, _ serializedJSON: String) -> HTMLNode {
        HTMLNode(kind: .json(id: id, json: serializedJSON))
    }

    /// Several nodes side by side, without an element around them.
    public static func group(_ nodes: [HTMLNode]) -> HTMLNode {
        HTMLNode(kind: .group(nodes))
    }

    /// Writes the node and its children.
    public func render<Output: TextOutputStream>(into output: inout Output) {
        switch kind {
        case .element(let tag, let attributes, let children):
            output.write("<")
            output.write(tag.rawValue)
            for attribute in attributes { attribute.render(into: &output) }
            output.write(">")
            guard !tag.isVoid else { return }
            for child in children { child.render(into: &output) }
            output.write("</")
            output.write(tag.rawValue)
            output.write(">")
        case .text(let text):
            HTMLEscaping.writeText(text, into: &output)
        case .isolated(let text):
            output.write("<bdi>")
            HTMLEscaping.writeText(text, into: &output)
            output.write("</bdi>")
        case .json(let id, let json):
            output.write("<script type=\"application/json\"")
            HTMLAttribute.id(id).render(into: &output)
            output.write(">")
            HTMLEscaping.writeJSON(json, into: &output)
            output.write("</script>")
        case .group(let nodes):
            for node in nodes { node.render(into: &output) }
        }
    }

    /// The node as a string.
    public func render() -> String {
        var output = ""
        render(into: &output)
        return output
    }
}
