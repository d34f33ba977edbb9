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
    }

    public var kind: Kind
    public var position: JSONPosition

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
