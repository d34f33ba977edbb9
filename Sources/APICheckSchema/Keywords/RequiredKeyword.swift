import APICheckJSON

/// `required`: one pass over the members, marking which required names were seen.
final class RequiredKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let table: NameTable

    init(keyword: String = "required", names: [String]) {
        self.keyword = keyword
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        self.table = NameTable(unique)
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        let needed = table.count
        if needed == 0 { return true }
        if members.count < needed { return false }
        if needed <= 64 {
            var seen: UInt64 = 0
            for member in members {
                if let index = table.index(of: member.key) { seen |= 1 << UInt64(index) }
            }
            return seen.nonzeroBitCount == needed
        }
        return missing(members).isEmpty
    }

    private func missing(_ members: [JSONMember]) -> [String] {
        var seen = [Bool](repeating: false, count: table.count)
        for member in members {
            if let index = table.index(of: member.key) { seen[index] = true }
        }
        return table.names.indices.filter { !seen[$0] }.map { table.names[$0] }
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for name in missing(members) { ctx.report(keyword, "\(JSONValue.string(name).shortDescription) is required") }
    }
}

/// `dependentRequired` (and the array form of `dependencies`): if a member is present, others must be.
final class DependentRequiredKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let dependencies: [(name: String, required: [String])]

    init(keyword: String, dependencies: [(name: String, required: [String])]) {
        self.keyword = keyword
        self.dependencies = dependencies
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        for dependency in dependencies where members.contains(where: { $0.key == dependency.name }) {
            for name in dependency.required where !members.contains(where: { $0.key == name }) { return false }
        }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for dependency in dependencies where members.contains(where: { $0.key == dependency.name }) {
            for name in dependency.required where !members.contains(where: { $0.key == name }) {
                ctx.pushKeyword(keyword)
                ctx.report(dependency.name, "\(JSONValue.string(name).shortDescription) is required when \(JSONValue.string(dependency.name).shortDescription) is present")
                ctx.popKeyword()
            }
        }
    }
}

/// `dependentSchemas` (and the schema form of `dependencies`): if a member is present, the
/// whole object must match a schema.
final class DependentSchemasKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let dependencies: [(name: String, schema: SchemaNode)]

    init(keyword: String, dependencies: [(name: String, schema: SchemaNode)]) {
        self.keyword = keyword
        self.dependencies = dependencies
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        for dependency in dependencies where members.contains(where: { $0.key == dependency.name }) {
            if !dependency.schema.isValid(instance, &ctx) { return false }
        }
        return true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .object(let members) = instance else { return true }
        for dependency in dependencies where members.contains(where: { $0.key == dependency.name }) {
            if !dependency.schema.annotate(instance, &ctx, &evaluated) { return false }
        }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for dependency in dependencies where members.contains(where: { $0.key == dependency.name }) {
            ctx.pushKeyword(keyword, .key(dependency.name))
            dependency.schema.validate(instance, &ctx)
            ctx.popKeyword(2)
        }
    }
}

/// `minProperties` / `maxProperties`.
final class PropertyCountKeyword: AssertionKeyword, @unchecked Sendable {
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
        guard case .object(let members) = instance else { return true }
        return isMinimum ? members.count >= limit : members.count <= limit
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        let unit = limit == 1 ? "property" : "properties"
        return isMinimum ? "must have at least \(limit) \(unit)" : "must have at most \(limit) \(unit)"
    }
}
