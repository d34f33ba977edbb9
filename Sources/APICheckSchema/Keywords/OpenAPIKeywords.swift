import APICheckJSON

/// OpenAPI 3.0 `discriminator`: the branch of `oneOf`/`anyOf` named by a property's value.
final class DiscriminatorKeyword: KeywordValidator, @unchecked Sendable {
    enum Choice: Sendable {
        case branch(Int)
        case target(Int32)
    }

    let propertyName: String
    let combinator: String
    let branches: [SchemaNode]
    let choices: [String: Choice]

    init(propertyName: String, combinator: String, branches: [SchemaNode], choices: [String: Choice]) {
        self.propertyName = propertyName
        self.combinator = combinator
        self.branches = branches
        self.choices = choices
    }

    /// `#/components/schemas/Cat` → `Cat`; `cat.json` → `cat`.
    static func implicitName(_ uri: String) -> String {
        var name = Substring(uri)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let hash = name.lastIndex(of: "#") { name = name[name.index(after: hash)...] }
        for suffix in [".json", ".yaml", ".yml"] where name.hasSuffix(suffix) { name = name.dropLast(suffix.count) }
        return String(name)
    }

    private func choose(_ instance: JSONValue) -> Choice? {
        guard case .object(let members) = instance, let member = members.first(where: { $0.key == propertyName }),
            case .string(let value) = member.value
        else { return nil }
        return choices[value]
    }

    private func node(_ choice: Choice, _ ctx: ValidationContext) -> SchemaNode {
        switch choice {
        case .branch(let index): return branches[index]
        case .target(let index): return ctx.program.nodes[Int(index)]
        }
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object = instance else { return false }
        guard let choice = choose(instance) else { return false }
        return node(choice, ctx).isValid(instance, &ctx)
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard let choice = choose(instance) else { return false }
        return node(choice, ctx).annotate(instance, &ctx, &evaluated)
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else {
            ctx.report("discriminator", "expected an object with a \(JSONValue.string(propertyName).shortDescription) member, found \(instance.schemaTypeDescription)")
            return
        }
        guard let member = members.first(where: { $0.key == propertyName }), case .string(let value) = member.value else {
            ctx.report("discriminator", "\(JSONValue.string(propertyName).shortDescription) is required to choose a schema (discriminator)")
            return
        }
        guard let choice = choices[value] else {
            let known = choices.keys.sorted().map { JSONValue.string($0).shortDescription }.joined(separator: ",")
            ctx.pushInstance(.key(propertyName))
            ctx.report("discriminator", "\(JSONValue.string(value).shortDescription) is not one of [\(known)] (discriminator \(JSONValue.string(propertyName).shortDescription))")
            ctx.popInstance()
            return
        }
        switch choice {
        case .branch(let index):
            ctx.pushKeyword(combinator, .index(index))
            branches[index].validate(instance, &ctx)
            ctx.popKeyword(2)
        case .target(let index):
            ctx.pushKeyword("discriminator")
            ctx.program.nodes[Int(index)].validate(instance, &ctx)
            ctx.popKeyword()
        }
    }
}

/// OpenAPI 3.0: properties that must not be present in this direction (`readOnly` ones in a
/// request, `writeOnly` ones in a response).
final class ForbiddenPropertiesKeyword: KeywordValidator, @unchecked Sendable {
    let table: NameTable
    let direction: JSONSchemaOptions.OpenAPIDirection

    init(names: [String], direction: JSONSchemaOptions.OpenAPIDirection) {
        self.table = NameTable(names)
        self.direction = direction
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .object(let members) = instance else { return true }
        for member in members where table.index(of: member.key) != nil { return false }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .object(let members) = instance else { return }
        for member in members where table.index(of: member.key) != nil {
            let keyword = direction == .request ? "readOnly" : "writeOnly"
            ctx.pushKeyword("properties", .key(member.key))
            ctx.pushInstance(.key(member.key))
            ctx.report(keyword, "\(JSONValue.string(member.key).shortDescription) is \(direction == .request ? "read-only and must not be sent in a request" : "write-only and must not appear in a response")")
            ctx.popInstance()
            ctx.popKeyword(2)
        }
    }
}
