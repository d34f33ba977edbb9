/// Why the generator could not produce an instance: the keyword it could not satisfy (or violate
/// alone) and where that keyword is in the schema, so the message points at the schema to fix.
public struct JSONSchemaGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unsatisfiable
        case attemptsExhausted
        case budgetExceeded
        case notViolable
        case unknownKeywordLocation
    }

    private var code: Code
    /// A JSON pointer into the schema: the keyword that could not be satisfied or violated.
    public var keywordLocation: String
    /// What went wrong, for a person.
    public var message: String

    private init(_ code: Code, _ keywordLocation: String, _ message: String) {
        self.code = code
        self.keywordLocation = keywordLocation
        self.message = message
    }

    /// The constraints at `keywordLocation` contradict each other (`minLength` 5 with `maxLength` 2, `false`).
    public static func unsatisfiable(at keywordLocation: String, _ reason: String) -> Self {
        Self(.unsatisfiable, keywordLocation, reason)
    }

    /// Every attempt produced something the validator rejected.
    public static func attemptsExhausted(at keywordLocation: String, attempts: Int, _ reason: String) -> Self {
        Self(.attemptsExhausted, keywordLocation, "no valid instance after \(attempts) attempts: \(reason)")
    }

    /// The instance would exceed the size, depth or step bounds.
    public static func budgetExceeded(at keywordLocation: String, _ reason: String) -> Self {
        Self(.budgetExceeded, keywordLocation, reason)
    }

    /// No instance could be found that fails this keyword and nothing else.
    public static func notViolable(at keywordLocation: String, _ reason: String) -> Self {
        Self(.notViolable, keywordLocation, reason)
    }

    /// The location names no keyword the generator knows how to violate.
    public static func unknownKeywordLocation(_ keywordLocation: String) -> Self {
        Self(.unknownKeywordLocation, keywordLocation, "no violable keyword at \(keywordLocation) (see violableKeywords())")
    }

    /// True when the schema itself is contradictory, as opposed to the generator giving up.
    public var isUnsatisfiable: Bool { code == .unsatisfiable }

    /// A size, depth or recursion bound was hit: retrying the same way does not help.
    var isBudget: Bool { code == .budgetExceeded }

    public var description: String {
        "schema\(keywordLocation.isEmpty ? "" : " at \(keywordLocation)"): error: \(message)"
    }
}
