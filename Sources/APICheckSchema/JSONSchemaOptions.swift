/// How a schema is compiled and validated.
public struct JSONSchemaOptions: Sendable {
    /// The draft of a schema without `$schema`.
    public var defaultDraft: JSONSchemaDraft = .draft2020_12
    /// Whether `format` asserts (fails on a malformed value) rather than only annotates. The
    /// 2020-12 format-assertion vocabulary, when a meta-schema requires it, turns it on too.
    public var formatAssertion = false
    /// Steps one `pattern` match may take in constructs that backtrack (backreferences,
    /// lookaround); past it the value is reported invalid as "pattern too costly to evaluate".
    public var regexStepBudget = 1_000_000
    /// How deeply subschemas may nest in a schema document (a located compile error past it).
    public var maximumSchemaDepth = 256
    /// The most values an `enum` may list (it compiles to a hash set, so a large one is cheap).
    public var maximumEnumCount = 10_000_000
    /// How many schemas may be evaluated inside one another while validating (through `$ref`s and
    /// nesting), so that no instance can exhaust the stack; past it the instance is invalid.
    public var maximumEvaluationDepth = 2_048
    /// OpenAPI 3.0 only: what the instance is, for `readOnly`/`writeOnly` (`nil`: both are
    /// annotations and `required` applies as written).
    public var openAPIDirection: OpenAPIDirection? = nil

    /// Whether an OpenAPI 3.0 instance is sent by the client or by the server.
    ///
    /// In a `.request`, a `readOnly` property is not required (even when listed in `required`)
    /// and must not be present; in a `.response`, the same holds for `writeOnly`
    /// (OpenAPI 3.0.3, "Fixed Fields" of the Schema Object).
    public enum OpenAPIDirection: String, Sendable, Hashable {
        case request, response
    }

    public init() {}
}
