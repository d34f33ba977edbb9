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
    public var name: String
    public var value: String
    public var position: XMLPosition
}

/// A node of a parsed document: an element or character data (text and CDATA sections merged).
public enum XMLNode: Sendable, Hashable {
    case element(XMLElement)
    case text(String)
}

/// An element of a parsed document, detached from libxml2: a plain value that owns its data.
///
/// Comments and processing instructions are dropped; entity references never appear because
/// documents that declare entities are refused (see ``XMLDocumentParser``).
public struct XMLElement: Sendable, Hashable {
    /// The local name, without prefix.
    public var name: String
    public var namespaceURI: String?
    public var attributes: [XMLAttribute]
    public var children: [XMLNode]
    /// Where the start tag's `<` is.
    public var position: XMLPosition

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
        self.position = position
    }

    /// The value of the attribute `name`, if present.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The attribute `name` with its position, if present.
    public func attributeNode(_ name: String) -> XMLAttribute? {
        attributes.first { $0.name == name }
    }

    /// Child elements, in document order.
    public var elements: [XMLElement] {
        children.compactMap {
            if case .element(let element) = $0 { return element }
            return nil
        }
    }

    /// Child elements called `name`, in document order.
    public func elements(named name: String) -> [XMLElement] {
        elements.filter { $0.name == name }
    }

    /// The concatenated character data of the direct children (text and CDATA).
    public var text: String {
        var result = ""
        for child in children {
            if case .text(let text) = child { result += text }
        }
        return result
    }
}
