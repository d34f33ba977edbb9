/// A position in a text document, 1-based, as compilers print it.
public struct XMLPosition: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// One attribute of an element, with where its name starts in the document.
public struct XMLAttribute: Sendable, Hashable {
    /// The local name (`owner` for `team:owner`).
    public var name: String
    public var value: String
    public var position: XMLPosition
    /// The namespace the attribute belongs to, if it has a prefix.
    public var namespaceURI: String?

    public init(name: String, value: String, position: XMLPosition, namespaceURI: String? = nil) {
        self.name = name
        self.value = value
        self.position = position
        self.namespaceURI = namespaceURI
    }
}

/// A node of a parsed document: an element or character data (text and CDATA sections merged).
public enum XMLNode: Sendable, Hashable {
    case element(XMLElement)
    case text(String)
}

/// An element of a parsed document, detached from libxml2: an immutable object that owns its data
/// (a class, so handing elements around costs a retain, not a deep copy).
///
/// Comments and processing instructions are dropped; entity references never appear because
/// documents that declare entities are refused (see ``XMLDocumentParser``).
public final class XMLElement: Sendable, Hashable, CustomStringConvertible {
    /// The local name, without prefix.
    public let name: String
    public let namespaceURI: String?
    public let attributes: [XMLAttribute]
    public let children: [XMLNode]
    /// Child elements, in document order.
    public let elements: [XMLElement]
    /// Where the start tag's `<` is.
    public let position: XMLPosition

    public init(
        name: String,
        namespaceURI: String? = nil,
        attributes: [XMLAttribute] = [],
        children: [XMLNode] = [],
        position: XMLPosition
    ) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.children = children
        self.elements = children.compactMap {
            if case .element(let element) = $0 { return element }
            return nil
        }
        self.position = position
    }

    /// The value of the attribute `name`, if present.
    /// Attributes in a namespace (`team:owner`) are someone else's and never answer here.
    public func attribute(_ name: String) -> String? {
        attributeNode(name)?.value
    }

    /// The attribute `name` with its position, if present.
    public func attributeNode(_ name: String) -> XMLAttribute? {
        attributes.first { $0.name == name && $0.namespaceURI == nil }
    }

    /// Child elements called `name`, in document order.
    public func elements(named name: String) -> [XMLElement] {
        elements.filter { $0.name == name }
    }

    /// The first child element called `name`.
    public func firstElement(named name: String) -> XMLElement? {
        elements.first { $0.name == name }
    }

    /// The concatenated character data of the direct children (text and CDATA).
    public var text: String {
        var result = ""
        for child in children {
            if case .text(let text) = child { result += text }
        }
        return result
    }

    public var description: String { "<\(name)> at \(position.line):\(position.column)" }

    public static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.namespaceURI == rhs.namespaceURI && lhs.attributes == rhs.attributes
                && lhs.children == rhs.children && lhs.position == rhs.position)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(position)
    }
}
