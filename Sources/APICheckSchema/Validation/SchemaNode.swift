import APICheckJSON

/// Where a compiled schema is written: its resource's URI and its pointer in the document,
/// both shared with the compiler's tables rather than joined into a new string per schema.
struct SchemaLocation: Sendable {
    let resourceURI: String
    let pointer: String
    /// UTF-8 length of the resource root's pointer, a prefix of `pointer`.
    let resourcePrefixLength: Int

    /// `https://x/y.json#/properties/a`.
    var text: String {
        let relative = String(decoding: pointer.utf8.dropFirst(resourcePrefixLength), as: UTF8.self)
        return resourceURI + "#" + relative
    }
}

/// One compiled schema: its keyword validators, in the order they are cheapest to fail.
///
/// Immutable once built. Subschemas are held directly; `$ref`s hold an index into
/// `SchemaProgram.nodes`, so recursive schemas are a table, not a cycle of objects.
final class SchemaNode: Sendable {
    let keywords: [KeywordValidator]
    /// `keywords` again, called without retain/release (`keywords` keeps them alive).
    private let unretainedKeywords: [Unmanaged<KeywordValidator>]
    /// `unevaluatedProperties`/`unevaluatedItems`: checked after the other keywords, with what
    /// they evaluated. Empty for almost every schema, and then nothing collects annotations.
    let unevaluated: [any UnevaluatedKeyword]
    /// The schema's absolute location (`https://x/y.json#/properties/a`), for error output.
    let absoluteLocation: SchemaLocation
    /// The resource this schema is the root of (for the dynamic scope), or -1.
    let resource: Int32

    init(keywords: [KeywordValidator], unevaluated: [any UnevaluatedKeyword], absoluteLocation: SchemaLocation, resource: Int32) {
        self.keywords = keywords
        self.unretainedKeywords = keywords.map { .passUnretained($0) }
        self.unevaluated = unevaluated
        self.absoluteLocation = absoluteLocation
        self.resource = resource
    }

    /// Whether `instance` is valid; allocates nothing on the way (but for dynamic scope and
    /// annotation bits past 64 members).
    func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        ctx.depth += 1
        if ctx.depth > ctx.maximumDepth {
            ctx.depth -= 1
            ctx.reachLimit(.depth(ctx.maximumDepth), keyword: "")
            return false
        }
        let entersScope = resource >= 0 && ctx.usesDynamicScope
        if entersScope { ctx.scope.append(resource) }
        var result = true
        if unevaluated.isEmpty {
            for index in unretainedKeywords.indices where !unretainedKeywords[index]._withUnsafeGuaranteedRef({ $0.isValid(instance, &ctx) }) {
                result = false
                break
            }
        } else {
            var evaluated = Evaluated()
            result = annotateBody(instance, &ctx, &evaluated)
        }
        ctx.depth -= 1
        if entersScope { ctx.scope.removeLast() }
        return result
    }

    @inline(__always) private func enter(_ ctx: inout ValidationContext) -> Bool {
        ctx.depth += 1
        if ctx.depth > ctx.maximumDepth { return false }
        if resource >= 0, ctx.usesDynamicScope { ctx.scope.append(resource) }
        return true
    }

    @inline(__always) private func leave(_ ctx: inout ValidationContext) {
        ctx.depth -= 1
        if resource >= 0, ctx.usesDynamicScope { ctx.scope.removeLast() }
    }

    /// Validates and adds what this schema evaluated to `evaluated` (only when valid).
    func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        guard enter(&ctx) else {
            ctx.depth -= 1
            ctx.reachLimit(.depth(ctx.maximumDepth), keyword: "")
            return false
        }
        defer { leave(&ctx) }
        var local = Evaluated()
        guard annotateBody(instance, &ctx, &local) else { return false }
        evaluated.formUnion(local)
        return true
    }

    private func annotateBody(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        for index in unretainedKeywords.indices where !unretainedKeywords[index]._withUnsafeGuaranteedRef({ $0.annotate(instance, &ctx, &evaluated) }) {
            return false
        }
        for index in unevaluated.indices where !unevaluated[index].check(instance, &ctx, &evaluated) { return false }
        return true
    }

    /// Reports every failing keyword into `ctx.errors`.
    func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard enter(&ctx) else {
            ctx.depth -= 1
            ctx.reachLimit(.depth(ctx.maximumDepth), keyword: "")
            ctx.report("$ref", "schemas nest deeper than \(ctx.program.maximumEvaluationDepth) while evaluating this value")
            return
        }
        defer { leave(&ctx) }
        ctx.frames.append((absoluteLocation, ctx.keywordPath.count))
        defer { ctx.frames.removeLast() }
        for keyword in keywords { keyword.validate(instance, &ctx) }
        guard !unevaluated.isEmpty else { return }
        // Collecting, the applicators mark what they apply to even where it fails, so that a
        // property with its own error is not also reported as unevaluated.
        var evaluated = Evaluated()
        for keyword in keywords { _ = keyword.annotate(instance, &ctx, &evaluated) }
        for keyword in unevaluated { keyword.validate(instance, &ctx, evaluated) }
    }
}

/// A schema reference for the hot path: calls through it skip the retain/release pair Swift
/// would otherwise put around each call (measured: a quarter of `isValid`'s instructions). The
/// strong reference that keeps the node alive is held next to it (a keyword's `schemas`, the
/// program's `nodes`).
struct NodeReference: @unchecked Sendable {
    private let node: Unmanaged<SchemaNode>

    init(_ node: SchemaNode) { self.node = .passUnretained(node) }

    @inline(__always) func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        node._withUnsafeGuaranteedRef { $0.isValid(instance, &ctx) }
    }

    @inline(__always) func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        node._withUnsafeGuaranteedRef { $0.annotate(instance, &ctx, &evaluated) }
    }
}

/// One compiled keyword. `isValid` answers fast; `validate` reports errors through the context;
/// `annotate` validates and records the properties and items it evaluated.
///
/// A class rather than a protocol so that `SchemaNode` can call keywords through `Unmanaged`
/// references, without the retain/release Swift puts around each existential call (that pair
/// was a quarter of `isValid`'s instructions). Subclasses hold only `let`s, hence
/// `@unchecked Sendable`.
class KeywordValidator: @unchecked Sendable {
    func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool { true }
    func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {}
    func annotate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool {
        isValid(instance, &ctx)
    }
}

/// A keyword that only asserts (no subschemas): its error message is made on failure only.
class AssertionKeyword: KeywordValidator, @unchecked Sendable {
    /// The keyword's name in error output.
    var reportedKeyword: String { "" }
    func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String { "" }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        if !isValid(instance, &ctx) { ctx.report(reportedKeyword, message(for: instance, &ctx)) }
    }
}

/// `unevaluatedProperties` / `unevaluatedItems`: run after the schema's other keywords.
protocol UnevaluatedKeyword: AnyObject, Sendable {
    /// Validates what is left unevaluated and marks it evaluated.
    func check(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: inout Evaluated) -> Bool
    func validate(_ instance: JSONValue, _ ctx: inout ValidationContext, _ evaluated: Evaluated)
}

extension JSONValue {
    /// "a string", "an integer", … for messages.
    var schemaTypeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let lexeme): return NumberFacts.isIntegral(lexeme) ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A short rendering of a value for messages (strings quoted, long values cut).
    var shortDescription: String {
        var text = JSONWriter().string(self)
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return text
    }
}
