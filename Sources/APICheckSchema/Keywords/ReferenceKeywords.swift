import APICheckJSON

/// `$ref`: the schema at an index of the program (so cycles are a table lookup, not a loop).
final class RefKeyword: KeywordValidator, @unchecked Sendable {
    let keyword: String
    let target: Int32
    /// The resource containing the target when the target is not itself a resource root: the
    /// dynamic scope enters it too.
    let targetResource: Int32

    init(keyword: String, target: Int32, targetResource: Int32) {
        self.keyword = keyword
        self.target = target
        self.targetResource = targetResource
    }

    @inline(__always) private func enterScope(_ ctx: inout ValidationContext) -> Bool {
        guard targetResource >= 0, ctx.usesDynamicScope else { return false }
        ctx.scope.append(targetResource)
        return true
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        let entered = enterScope(&ctx)
        defer { if entered { ctx.scope.removeLast() } }
        return ctx.program.references[Int(target)].isValid(instance, &ctx)
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        let entered = enterScope(&ctx)
        defer { if entered { ctx.scope.removeLast() } }
        return ctx.program.nodes[Int(target)].annotate(instance, &ctx, &evaluated)
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        let entered = enterScope(&ctx)
        defer { if entered { ctx.scope.removeLast() } }
        ctx.pushKeyword(keyword)
        ctx.program.nodes[Int(target)].validate(instance, &ctx)
        ctx.popKeyword()
    }
}

/// `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09): a static target, replaced at validation
/// time through the dynamic scope when the static target is itself dynamic.
final class DynamicRefKeyword: KeywordValidator, @unchecked Sendable {
    enum Mode: Sendable {
        /// `$dynamicRef` whose static target carries `$dynamicAnchor: name`: the outermost
        /// resource in scope with that dynamic anchor wins.
        case dynamicAnchor(String)
        /// `$recursiveRef` whose target has `$recursiveAnchor: true`: walk the scope outwards
        /// while resources have it too.
        case recursive
        /// Resolves like `$ref`.
        case none
    }

    let keyword: String
    let target: Int32
    let mode: Mode

    init(keyword: String, target: Int32, mode: Mode) {
        self.keyword = keyword
        self.target = target
        self.mode = mode
    }

    private func resolve(_ ctx: ValidationContext) -> Int32 {
        switch mode {
        case .none:
            return target
        case .dynamicAnchor(let name):
            for resource in ctx.scope {
                if let found = ctx.program.resources[Int(resource)].dynamicAnchors[name] { return found }
            }
            return target
        case .recursive:
            var result = target
            for resource in ctx.scope.reversed() {
                let info = ctx.program.resources[Int(resource)]
                guard info.recursiveAnchor else { break }
                result = info.root
            }
            return result
        }
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        ctx.program.references[Int(resolve(ctx))].isValid(instance, &ctx)
    }

    override func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        ctx.program.nodes[Int(resolve(ctx))].annotate(instance, &ctx, &evaluated)
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        ctx.pushKeyword(keyword)
        ctx.program.nodes[Int(resolve(ctx))].validate(instance, &ctx)
        ctx.popKeyword()
    }
}
