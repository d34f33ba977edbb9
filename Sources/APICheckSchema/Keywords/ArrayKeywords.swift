import APICheckJSON

/// `minItems` / `maxItems`.
final class ItemCountKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword: String
    override var reportedKeyword: String { keyword }
    let limit: Int
    let isMinimum: Bool

    init(keyword: String, limit: Int, isMinimum: Bool) {
        self.keyword = keyword
        self.limit = limit
        self.isMinimum = isMinimum
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .array(let items) = instance else { return true }
        return isMinimum ? items.count >= limit : items.count <= limit
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        let unit = limit == 1 ? "item" : "items"
        return isMinimum ? "must have at least \(limit) \(unit)" : "must have at most \(limit) \(unit)"
    }
}

/// `uniqueItems: true`: pairwise for short arrays, hashed canonical values for long ones.
final class UniqueItemsKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "uniqueItems"
    override var reportedKeyword: String { keyword }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .array(let items) = instance, items.count > 1 else { return true }
        return Self.firstDuplicate(items) == nil
    }

    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        if items.count <= 16 {
            for i in 0..<items.count {
                for j in (i + 1)..<items.count where SchemaEquality.equal(items[i], items[j]) { return (i, j) }
            }
            return nil
        }
        var seen: [CanonicalValue: Int] = [:]
        for (j, item) in items.enumerated() {
            let key = CanonicalValue(item)
            if let i = seen[key] { return (i, j) }
            seen[key] = j
        }
        return nil
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        guard case .array(let items) = instance, let (i, j) = Self.firstDuplicate(items) else { return "items must be unique" }
        return "items must be unique: items \(i) and \(j) are equal"
    }
}

/// `items` applied from index `start` on: `items` (2020-12, after `prefixItems`), the schema
/// form of `items` (earlier drafts), `additionalItems` (after an array `items`).
final class ItemsFromKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let start: Int
    let schema: SchemaNode
    private let reference: NodeReference

    init(keyword: String, start: Int, schema: SchemaNode) {
        self.keyword = keyword
        self.start = start
        self.schema = schema
        self.reference = NodeReference(schema)
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .array(let items) = instance, items.count > start else { return true }
        for index in start..<items.count where !reference.isValid(items[index], &ctx) { return false }
        return true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard isValid(instance, &ctx) else { return false }
        if case .array = instance { evaluated.items.all = true }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .array(let items) = instance, items.count > start else { return }
        ctx.pushKeyword(keyword)
        for index in start..<items.count {
            ctx.pushInstance(.index(index))
            schema.validate(items[index], &ctx)
            ctx.popInstance()
        }
        ctx.popKeyword()
    }
}

/// `prefixItems` (and the array form of `items` before 2020-12): one schema per position.
final class PrefixItemsKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let schemas: [SchemaNode]

    init(keyword: String, schemas: [SchemaNode]) {
        self.keyword = keyword
        self.schemas = schemas
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .array(let items) = instance else { return true }
        for index in 0..<min(items.count, schemas.count) where !schemas[index].isValid(items[index], &ctx) { return false }
        return true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard isValid(instance, &ctx) else { return false }
        if case .array(let items) = instance { evaluated.items.insertPrefix(min(items.count, schemas.count)) }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .array(let items) = instance else { return }
        for index in 0..<min(items.count, schemas.count) {
            ctx.pushKeyword(keyword, .index(index))
            ctx.pushInstance(.index(index))
            schemas[index].validate(items[index], &ctx)
            ctx.popInstance()
            ctx.popKeyword(2)
        }
    }
}

/// `contains` with `minContains` / `maxContains` (2019-09+); from 2020-12 the matching items
/// count as evaluated for `unevaluatedItems`.
final class ContainsKeyword: KeywordValidator, @unchecked Sendable {
    let schema: SchemaNode
    let minimum: Int
    let maximum: Int?
    let annotatesItems: Bool

    init(schema: SchemaNode, minimum: Int, maximum: Int?, annotatesItems: Bool) {
        self.schema = schema
        self.minimum = minimum
        self.maximum = maximum
        self.annotatesItems = annotatesItems
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .array(let items) = instance else { return true }
        var count = 0
        for item in items where schema.isValid(item, &ctx) {
            count += 1
            if count >= minimum && maximum == nil { return true }
            if let maximum, count > maximum { return false }
        }
        return count >= minimum
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .array(let items) = instance else { return true }
        var count = 0
        var matched = IndexBits()
        for (index, item) in items.enumerated() where schema.isValid(item, &ctx) {
            count += 1
            matched.insert(index)
        }
        guard count >= minimum, maximum.map({ count <= $0 }) ?? true else { return false }
        if annotatesItems { evaluated.items.formUnion(matched) }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .array(let items) = instance else { return }
        var count = 0
        for item in items where schema.isValid(item, &ctx) { count += 1 }
        if count < minimum {
            let keyword = minimum == 1 && maximum == nil ? "contains" : "minContains"
            ctx.report(keyword, minimum == 1 ? "must contain an item that matches the \"contains\" schema" : "must contain at least \(minimum) items that match the \"contains\" schema, found \(count)")
        } else if let maximum, count > maximum {
            ctx.report("maxContains", "must contain at most \(maximum) items that match the \"contains\" schema, found \(count)")
        }
    }
}

/// `additionalProperties: true` / `additionalItems: true`: nothing to check, but every member
/// (or item) counts as evaluated for `unevaluated*`.
final class EvaluatesAllKeyword: KeywordValidator, @unchecked Sendable {
    let properties: Bool
    init(properties: Bool) { self.properties = properties }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool { true }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        switch instance {
        case .object where properties: evaluated.properties.all = true
        case .array where !properties: evaluated.items.all = true
        default: break
        }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {}
}
