import APICheckJSON

/// `unevaluatedProperties`: members no sibling keyword (nor their in-place subschemas) evaluated.
final class UnevaluatedPropertiesKeyword: UnevaluatedKeyword {
    /// `nil` for `false`.
    let schema: SchemaNode?
    init(schema: SchemaNode?) { self.schema = schema }

    func check(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .object(let members) = instance else { return true }
        if evaluated.properties.all { return true }
        for (position, member) in members.enumerated() where !evaluated.properties.contains(position) {
            guard let schema, schema.isValid(member.value, &ctx) else { return false }
        }
        evaluated.properties.all = true
        return true
    }

    func validate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: Evaluated) {
        guard case .object(let members) = instance, !evaluated.properties.all else { return }
        for (position, member) in members.enumerated() where !evaluated.properties.contains(position) {
            ctx.pushInstance(.key(member.key))
            if let schema {
                ctx.pushKeyword("unevaluatedProperties")
                schema.validate(member.value, &ctx)
                ctx.popKeyword()
            } else {
                ctx.report("unevaluatedProperties", "\(JSONValue.string(member.key).shortDescription) is not allowed here (unevaluated property)")
            }
            ctx.popInstance()
        }
    }
}

/// `unevaluatedItems`: items no sibling keyword evaluated.
final class UnevaluatedItemsKeyword: UnevaluatedKeyword {
    let schema: SchemaNode?
    init(schema: SchemaNode?) { self.schema = schema }

    func check(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard case .array(let items) = instance else { return true }
        if evaluated.items.all { return true }
        for (index, item) in items.enumerated() where !evaluated.items.contains(index) {
            guard let schema, schema.isValid(item, &ctx) else { return false }
        }
        evaluated.items.all = true
        return true
    }

    func validate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: Evaluated) {
        guard case .array(let items) = instance, !evaluated.items.all else { return }
        for (index, item) in items.enumerated() where !evaluated.items.contains(index) {
            ctx.pushInstance(.index(index))
            if let schema {
                ctx.pushKeyword("unevaluatedItems")
                schema.validate(item, &ctx)
                ctx.popKeyword()
            } else {
                ctx.report("unevaluatedItems", "item \(index) is not allowed here (unevaluated item)")
            }
            ctx.popInstance()
        }
    }
}
