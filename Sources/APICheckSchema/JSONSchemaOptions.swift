/// How a schema is compiled and validated.
public struct JSONSchemaOptions: Sendable {
    /// The draft of a schema without `$schema`.
    public var defaultDraft: JSONSchemaDraft = .draft2020_12
    /// Whether `format` asserts (fails on a malformed value) rather than only annotates. The
    /// 2020-12 format-assertion vocabulary, when a meta-schema requires it, turns it on too.
    public var formatAssertion = false
    /// Steps one `pattern` match may take in constructs that backtrack (backreferences,
    /// lookaround); all the matches of one validation together may take ten times this. Past
    /// either, the instance is invalid as a whole (an "evaluationLimit" error), even where the
    /// match sat under `not` or in an `if`: a limit never reads as "no match".
    public var regexStepBudget = 1_000_000
    /// What all of a schema's distinct patterns may occupy once compiled, in NFA instructions plus
    /// DFA table entries (about 4 to 12 bytes each). One pattern is already bounded (100,000
    /// instructions, 2^18 table entries); this bounds their sum, so that a schema of thousands of
    /// large patterns is a located compile error rather than gigabytes. An ordinary pattern takes
    /// tens to a few thousand; a pattern written many times is compiled and counted once.
    public var regexSizeBudget = 4_000_000
    /// How deeply subschemas may nest in a schema document (a located compile error past it).
    public var maximumSchemaDepth = 256
    /// The most values an `enum` may list (it compiles to a hash set, so a large one is cheap).
    public var maximumEnumCount = 10_000_000
    /// How many schemas may be evaluated inside one another while validating (through `$ref`s and
    /// nesting), so that no instance can exhaust the stack; past it the instance is invalid as a
    /// whole, whatever `not` or `if` would make of the part that went too deep.
    public var maximumEvaluationDepth = 2_048
    /// The most errors `validate` collects for one instance; past it, validation goes on
    /// (the result is still invalid) but adds no more units, so a large invalid instance (a
    /// million wrong items) cannot make its report a million entries long.
    public var maximumErrors = 1_000
    /// OpenAPI 3.0 only: what the instance is, for `readOnly`/`writeOnly` (`nil`: both are
    /// annotations and `required` applies as written).
    public var openAPIDirection: OpenAPIDirection? = nil
    /// What a `pattern` that is not an ECMA-262 regular expression makes of the schema.
    public var unusablePatterns: UnusablePatterns = .reject

    /// Frameworks that validate with Python's `re` write its dialect into the documents they
    /// generate (Django REST framework's URL pattern ends in `\z` and uses `(?<!-)`): refusing
    /// the whole schema for one such `pattern` would leave every other keyword unchecked.
    public enum UnusablePatterns: Sendable, Hashable {
        /// A compile error at the pattern (the default: a schema of one's own should be fixed).
        case reject
        /// The `pattern` keyword is left unchecked and listed in `JSONSchema.ignoredPatterns`;
        /// a bad key of `patternProperties` is still an error, since which members it governs
        /// cannot be known.
        case ignore
    }

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
