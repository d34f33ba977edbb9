import APICheckJSON

/// A value compared by JSON Schema equality: numbers by value, objects regardless of member order.
indirect enum CanonicalValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(DecimalNumber)
    case string(String)
    case array([CanonicalValue])
    case object([String: CanonicalValue])

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let lexeme): self = .number(DecimalNumber(lexeme: lexeme) ?? .zero)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(CanonicalValue.init))
        case .object(let members):
            var dict: [String: CanonicalValue] = [:]
            for member in members where dict[member.key] == nil { dict[member.key] = CanonicalValue(member.value) }
            self = .object(dict)
        }
    }
}

/// JSON Schema equality without building canonical values for scalars.
enum SchemaEquality {
    /// Objects up to this many members are compared by scanning (no allocation); larger ones
    /// through a dictionary, so that comparing two objects is linear in their size.
    static let smallObjectLimit = 8

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)):
            if x == y { return true }
            if let p = NumberFacts.plainInt64(x), let q = NumberFacts.plainInt64(y) { return p == q }
            guard let p = DecimalNumber(lexeme: x), let q = DecimalNumber(lexeme: y) else { return false }
            return p == q
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for (p, q) in zip(x, y) where !equal(p, q) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            if x.count <= smallObjectLimit {
                for member in x {
                    guard let other = y.first(where: { $0.key == member.key }), equal(member.value, other.value) else { return false }
                }
                return true
            }
            // Past a few members, a scan per member would be quadratic: index `y` once (a repeated
            // key is found at its first occurrence, as the scan finds it).
            var positions: [String: Int] = [:]
            positions.reserveCapacity(y.count)
            for (position, member) in y.enumerated() where positions[member.key] == nil { positions[member.key] = position }
            for member in x {
                guard let position = positions[member.key], equal(member.value, y[position].value) else { return false }
            }
            return true
        default: return false
        }
    }
}
