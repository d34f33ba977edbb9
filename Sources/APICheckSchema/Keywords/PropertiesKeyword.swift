import APICheckJSON

/// Finds a property name's index in a precomputed list: a linear scan for a few names, a
/// dictionary for many.
struct NameTable: Sendable {
    let names: [String]
    /// UTF-8 lengths of `names`: most names differ in length, so a scan rarely compares strings.
    private let lengths: [Int]
    private let lookup: [String: Int]?

    init(_ names: [String]) {
        self.names = names
        self.lengths = names.map(\.utf8.count)
        if names.count > 8 {
            var lookup: [String: Int] = [:]
            for (index, name) in names.enumerated() where lookup[name] == nil { lookup[name] = index }
            self.lookup = lookup
        } else {
            self.lookup = nil
        }
    }

    @inline(__always) func index(of name: String) -> Int? {
        if let lookup { return lookup[name] }
        let length = name.utf8.count
        for index in lengths.indices where lengths[index] == length && names[index] == name { return index }
        return nil
    }

    var count: Int { names.count }
}

/// `properties`: each named member against its schema, found through a `NameTable`.
///
/// The compiler folds a sibling `required` (when its names are all properties, at most 64) and
/// `additionalProperties` (when there is no `patternProperties`) into this keyword, so that an
/// object is scanned and its member names looked up once for all three.
final class PropertiesKeyword: KeywordValidator, @unchecked Sendable {
    enum Additional: Sendable {
        case absent
        case forbidden
        case schema(SchemaNode)
    }

    let table: NameTable
    let schemas: [SchemaNode]
    private let references: [NodeReference]
    /// Bits of `table` indices that `required` lists (folded in).
    let requiredMask: UInt64
    let additional: Additional
    /// `additional` as a plain tag (0 absent, 1 forbidden, 2 schema), read on the hot path
    /// without copying the enum (and retaining its schema) for every member.
    private let additionalMode: UInt8
    private let additionalSchema: SchemaNode?

    init(names: [String], schemas: [SchemaNode], requiredMask: UInt64 = 0, additional: Additional = .absent) {
        self.table = NameTable(names)
        self.schemas = schemas
        self.references = schemas.map(NodeReference.init)
        self.requiredMask = requiredMask
        self.additional = additional
        switch additional {
        case .absent: (additionalMode, additionalSchema) = (0, nil)
        case .forbidden: (additionalMode, additionalSchema) = (1, nil)
        case .schema(let schema): (additionalMode, additionalSchema) = (2, schema)
        }
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        var seen: UInt64 = 0
        for position in members.indices {
            if let index = table.index(of: members[position].key) {
                seen |= 1 &<< UInt64(index & 63)
                if !references[index].isValid(members[position].value, &ctx) { return false }
            } else if additionalMode != 0 {
                if additionalMode == 1 || !additionalSchema.unsafelyUnwrapped.isValid(members[position].value, &ctx) { return false }
            }
        }
        return seen & requiredMask == requiredMask
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .object(let members) = instance else { return true }
        var seen: UInt64 = 0
        var valid = true
        for position in members.indices {
            if let index = table.index(of: members[position].key) {
                seen |= 1 &<< UInt64(index & 63)
                if !references[index].isValid(members[position].value, &ctx) {
                    valid = false
                    if !ctx.collecting { return false }
                }
                evaluated.properties.insert(position)
            } else if additionalMode != 0 {
                if additionalMode == 1 || !additionalSchema.unsafelyUnwrapped.isValid(members[position].value, &ctx) {
                    valid = false
                    if !ctx.collecting { return false }
                }
                evaluated.properties.insert(position)
            }
        }
        return valid && seen & requiredMask == requiredMask
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        var seen: UInt64 = 0
        for member in members {
            if let index = table.index(of: member.key) {
                seen |= 1 &<< UInt64(index & 63)
                ctx.pushKeyword("properties", .key(member.key))
                ctx.pushInstance(.key(member.key))
                schemas[index].validate(member.value, &ctx)
                ctx.popInstance()
                ctx.popKeyword(2)
            } else {
                switch additional {
                case .absent: continue
                case .forbidden:
                    ctx.pushInstance(.key(member.key))
                    ctx.report("additionalProperties", "\(JSONValue.string(member.key).shortDescription) is not allowed here")
                    ctx.popInstance()
                case .schema(let schema):
                    ctx.pushKeyword("additionalProperties")
                    ctx.pushInstance(.key(member.key))
                    schema.validate(member.value, &ctx)
                    ctx.popInstance()
                    ctx.popKeyword()
                }
            }
        }
        let missing = requiredMask & ~seen
        if missing != 0 {
            for index in 0..<table.count where missing & (1 << UInt64(index)) != 0 {
                ctx.report("required", "\(JSONValue.string(table.names[index]).shortDescription) is required")
            }
        }
    }

    /// The first keyword of type `T` (that passes `test`) and its index.
    private static func first<T: KeywordValidator>(_ type: T.Type, in keywords: [KeywordValidator], where test: (T) -> Bool = { _ in true }) -> (Int, T)? {
        for (index, keyword) in keywords.enumerated() {
            if let typed = keyword as? T, test(typed) { return (index, typed) }
        }
        return nil
    }

    /// Folds `required` and `additionalProperties` siblings into the schema's `properties`
    /// where that is exact (every required name is a property; no `patternProperties`).
    static func fold(_ keywords: [KeywordValidator]) -> [KeywordValidator] {
        guard let (propertiesIndex, properties) = Self.first(PropertiesKeyword.self, in: keywords) else { return keywords }
        let names = properties.table.names
        guard names.count <= 64 else { return keywords }
        var removed: Set<Int> = []
        var additional = Additional.absent
        if let (index, keyword) = Self.first(AdditionalPropertiesKeyword.self, in: keywords, where: { $0.patterns.isEmpty }), keyword.known.names == names {
            additional = keyword.schema.map { .schema($0) } ?? .forbidden
            removed.insert(index)
        }
        var mask: UInt64 = 0
        if let (index, keyword) = Self.first(RequiredKeyword.self, in: keywords, where: { $0.keyword == "required" }) {
            let positions = keyword.table.names.compactMap { names.firstIndex(of: $0) }
            if positions.count == keyword.table.names.count {
                for position in positions { mask |= 1 << UInt64(position) }
                removed.insert(index)
            }
        }
        if removed.isEmpty { return keywords }
        let fused = PropertiesKeyword(names: names, schemas: properties.schemas, requiredMask: mask, additional: additional)
        var result: [KeywordValidator] = []
        for (index, keyword) in keywords.enumerated() where !removed.contains(index) {
            result.append(index == propertiesIndex ? fused : keyword)
        }
        return result
    }
}

/// `patternProperties`: every member whose name matches a pattern, against that pattern's schema.
final class PatternPropertiesKeyword: KeywordValidator, @unchecked Sendable {
    let patterns: [(source: String, regex: ECMARegex, schema: SchemaNode)]

    init(patterns: [(source: String, regex: ECMARegex, schema: SchemaNode)]) {
        self.patterns = patterns
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        var ignored = Evaluated()
        return annotate(instance, &ctx, &ignored)
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .object(let members) = instance else { return true }
        for (position, member) in members.enumerated() {
            for pattern in patterns where PatternMatch.matches(pattern.regex, member.key, &ctx, keyword: "patternProperties") {
                if !pattern.schema.isValid(member.value, &ctx) { return false }
                evaluated.properties.insert(position)
            }
        }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for member in members {
            for pattern in patterns where PatternMatch.matches(pattern.regex, member.key, &ctx, keyword: "patternProperties") {
                ctx.pushKeyword("patternProperties", .key(pattern.source))
                ctx.pushInstance(.key(member.key))
                pattern.schema.validate(member.value, &ctx)
                ctx.popInstance()
                ctx.popKeyword(2)
            }
        }
    }
}

enum PatternMatch {
    /// A budget overrun reads as no match here but is recorded in `ctx` as a limit, which makes
    /// the whole instance invalid (so it cannot pass as "not matched" under `not` or `if`).
    @inline(__always) static func matches(_ regex: ECMARegex, _ string: String, _ ctx: inout ValidationContext, keyword: String) -> Bool {
        ctx.match(regex, string, keyword: keyword) == .match
    }
}

/// `additionalProperties`: members named by neither `properties` nor a `patternProperties`
/// pattern of the same schema. `false` fails on the first such member without evaluating.
final class AdditionalPropertiesKeyword: KeywordValidator, @unchecked Sendable {
    let known: NameTable
    let patterns: [ECMARegex]
    /// `nil` for `false`.
    let schema: SchemaNode?

    init(known: [String], patterns: [ECMARegex], schema: SchemaNode?) {
        self.known = NameTable(known)
        self.patterns = patterns
        self.schema = schema
    }

    @inline(__always) private func isAdditional(_ key: String, _ ctx: inout ValidationContext) -> Bool {
        if known.index(of: key) != nil { return false }
        for pattern in patterns where PatternMatch.matches(pattern, key, &ctx, keyword: "additionalProperties") { return false }
        return true
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        for member in members where isAdditional(member.key, &ctx) {
            guard let schema, schema.isValid(member.value, &ctx) else { return false }
        }
        return true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard isValid(instance, &ctx) else { return false }
        if case .object = instance { evaluated.properties.all = true }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for member in members where isAdditional(member.key, &ctx) {
            guard let schema else {
                ctx.pushInstance(.key(member.key))
                ctx.report("additionalProperties", "\(JSONValue.string(member.key).shortDescription) is not allowed here")
                ctx.popInstance()
                continue
            }
            ctx.pushKeyword("additionalProperties")
            ctx.pushInstance(.key(member.key))
            schema.validate(member.value, &ctx)
            ctx.popInstance()
            ctx.popKeyword()
        }
    }
}

/// `propertyNames`: every member name, as a string, against a schema.
final class PropertyNamesKeyword: KeywordValidator, @unchecked Sendable {
    let schema: SchemaNode

    init(schema: SchemaNode) { self.schema = schema }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        for member in members where !schema.isValid(.string(member.key), &ctx) { return false }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for member in members {
            ctx.pushKeyword("propertyNames")
            ctx.pushInstance(.key(member.key))
            schema.validate(.string(member.key), &ctx)
            ctx.popInstance()
            ctx.popKeyword()
        }
    }
}
