import APICheckJSON

/// `allOf`: every subschema.
final class AllOfKeyword: KeywordValidator, @unchecked Sendable {
    let schemas: [SchemaNode]
    init(schemas: [SchemaNode]) { self.schemas = schemas }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        for schema in schemas where !schema.isValid(instance, &ctx) { return false }
        return true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        for schema in schemas where !schema.annotate(instance, &ctx, &evaluated) { return false }
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        for (index, schema) in schemas.enumerated() {
            ctx.pushKeyword("allOf", .index(index))
            schema.validate(instance, &ctx)
            ctx.popKeyword(2)
        }
    }
}

/// `anyOf`: at least one subschema (all are evaluated when annotations are collected).
final class AnyOfKeyword: KeywordValidator, @unchecked Sendable {
    let schemas: [SchemaNode]
    init(schemas: [SchemaNode]) { self.schemas = schemas }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        for schema in schemas where schema.isValid(instance, &ctx) { return true }
        return false
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        var any = false
        for schema in schemas where schema.annotate(instance, &ctx, &evaluated) { any = true }
        return any
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard !isValid(instance, &ctx) else { return }
        ctx.report("anyOf", "must match at least one schema in \"anyOf\"")
        for (index, schema) in schemas.enumerated() {
            ctx.pushKeyword("anyOf", .index(index))
            schema.validate(instance, &ctx)
            ctx.popKeyword(2)
        }
    }
}

/// `oneOf`: exactly one subschema.
final class OneOfKeyword: KeywordValidator, @unchecked Sendable {
    let schemas: [SchemaNode]
    init(schemas: [SchemaNode]) { self.schemas = schemas }

    private func matching(_ instance: JSONValue, _ ctx: inout ValidationContext, limit: Int) -> [Int] {
        var result: [Int] = []
        for (index, schema) in schemas.enumerated() where schema.isValid(instance, &ctx) {
            result.append(index)
            if result.count >= limit { break }
        }
        return result
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        var found = false
        for schema in schemas where schema.isValid(instance, &ctx) {
            if found { return false }
            found = true
        }
        return found
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        var found: Evaluated? = nil
        for schema in schemas {
            var local = Evaluated()
            guard schema.annotate(instance, &ctx, &local) else { continue }
            if found != nil { return false }
            found = local
        }
        guard let found else { return false }
        evaluated.formUnion(found)
        return true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        let matches = matching(instance, &ctx, limit: schemas.count)
        if matches.count == 1 { return }
        if matches.isEmpty {
            ctx.report("oneOf", "must match exactly one schema in \"oneOf\", matches none")
            for (index, schema) in schemas.enumerated() {
                ctx.pushKeyword("oneOf", .index(index))
                schema.validate(instance, &ctx)
                ctx.popKeyword(2)
            }
        } else {
            ctx.report("oneOf", "must match exactly one schema in \"oneOf\", matches \(matches.count) (at \(matches.map(String.init).joined(separator: ", ")))")
        }
    }
}

/// `not`.
final class NotKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "not"
    override var reportedKeyword: String { keyword }
    let schema: SchemaNode
    init(schema: SchemaNode) { self.schema = schema }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool { !schema.isValid(instance, &ctx) }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String { "must not match the \"not\" schema" }
}

/// `if` / `then` / `else`.
final class ConditionalKeyword: KeywordValidator, @unchecked Sendable {
    let condition: SchemaNode
    let then: SchemaNode?
    let otherwise: SchemaNode?

    init(condition: SchemaNode, then: SchemaNode?, otherwise: SchemaNode?) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        // `if` alone only annotates (for `unevaluated*`, through `annotate`).
        if then == nil && otherwise == nil { return true }
        if condition.isValid(instance, &ctx) { return then?.isValid(instance, &ctx) ?? true }
        return otherwise?.isValid(instance, &ctx) ?? true
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        if condition.annotate(instance, &ctx, &evaluated) { return then?.annotate(instance, &ctx, &evaluated) ?? true }
        return otherwise?.annotate(instance, &ctx, &evaluated) ?? true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        if then == nil && otherwise == nil { return }
        if condition.isValid(instance, &ctx) {
            guard let then else { return }
            ctx.pushKeyword("then")
            then.validate(instance, &ctx)
            ctx.popKeyword()
        } else {
            guard let otherwise else { return }
            ctx.pushKeyword("else")
            otherwise.validate(instance, &ctx)
            ctx.popKeyword()
        }
    }
}
