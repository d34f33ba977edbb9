/// A position in a JSON document: 1-based line and byte column.
public struct JSONPosition: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A parsed JSON value that remembers where each part of it was written, for error messages.
public struct JSONNode: Sendable {
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    public struct Member: Sendable {
        public var key: String
        public var keyPosition: JSONPosition
        public var value: JSONNode

        public init(key: String, keyPosition: JSONPosition, value: JSONNode) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    public var kind: Kind
    public var position: JSONPosition

    /// A node built by another reader (YAML documents become JSON nodes with their own marks).
    public init(kind: Kind, position: JSONPosition) {
        self.kind = kind
        self.position = position
    }

    /// The value without positions.
    public var value: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let lexeme): return .number(lexeme)
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.value))
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.value.value) })
        }
    }

    /// The member `key` of an object node.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The node an RFC 6901 JSON Pointer names (`""` is this node), or `nil` when it names nothing.
    public func node(at pointer: String) -> JSONNode? {
        var current = self
        for token in JSONPointer.tokens(of: pointer) {
            switch current.kind {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The node an RFC 6901 JSON Pointer names, or the deepest node on its way that exists (a
    /// diagnostic about a missing member points at the object that lacks it).
    public func deepestNode(along pointer: String) -> JSONNode {
        guard pointer.unicodeScalars.first == "/" else { return self }
        var current = self
        for token in JSONPointer.tokens(of: pointer) {
            switch current.kind {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return current }
                current = member.value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index), String(index) == token else { return current }
                current = elements[index]
            default:
                return current
            }
        }
        return current
    }

    /// The array's elements, or `nil` when this is not an array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The string, or `nil` when this is not a string.
    public var stringValue: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The object's members, or `nil` when this is not an object.
    public var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// A short name of the node's JSON type, for messages ("expected a string, found an array").
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
