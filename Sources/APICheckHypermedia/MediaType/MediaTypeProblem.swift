/// What is wrong with a media type as written: thrown by ``MediaType/init(parsing:)`` for syntax,
/// listed by ``MediaType/problems(in:)`` for everything the `type-syntax` rule reports.
///
/// ```swift
/// MediaType.problems(in: "vnd.acmeflix.api.movie+json").first?.suggestion
/// // "application/vnd.acmeflix.api.movie+json"
/// ```
public struct MediaTypeProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, as a stable identifier (new kinds can be added without breaking callers).
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The identifier (`missing-top-level-type`, …).
        public var rawValue: String
        /// A kind from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Nothing but whitespace.
        public static let empty = Kind(rawValue: "empty")
        /// Longer than ``MediaType/maximumLength``.
        public static let tooLong = Kind(rawValue: "too-long")
        /// No `type/` before the subtype, as in `vnd.acmeflix.api.movie+json` or `/json`.
        public static let missingTopLevelType = Kind(rawValue: "missing-top-level-type")
        /// A top-level type without `/subtype`, as in `application`.
        public static let missingSubtype = Kind(rawValue: "missing-subtype")
        /// `type/` with nothing after the slash.
        public static let emptySubtype = Kind(rawValue: "empty-subtype")
        /// A character that RFC 9110 tokens or RFC 6838 names do not allow.
        public static let invalidCharacter = Kind(rawValue: "invalid-character")
        /// A parameter without `=value`, with an empty value, or an unterminated quoted string.
        public static let invalidParameter = Kind(rawValue: "invalid-parameter")
        /// A top-level type that IANA does not register (`json/movie`).
        public static let unknownTopLevelType = Kind(rawValue: "unknown-top-level-type")
        /// A common but unregistered name for a registered type (`image/jpg` for `image/jpeg`).
        public static let unregisteredAlias = Kind(rawValue: "unregistered-alias")
        /// `*` as type or subtype: a range for `Accept`, not a type a resource can have.
        public static let wildcard = Kind(rawValue: "wildcard")
    }

    /// What sort of problem this is.
    public var kind: Kind
    /// The text that has the problem, as written.
    public var text: String
    /// What is wrong, in a sentence that quotes `text`.
    public var message: String
    /// Where in `text` the problem is (0-based, in UTF-8 bytes), when it is one place.
    public var offset: Int?
    /// The media type to write instead, when there is an obvious one.
    public var suggestion: String?

    /// A problem.
    public init(kind: Kind, text: String, message: String, offset: Int? = nil, suggestion: String? = nil) {
        self.kind = kind
        self.text = text
        self.message = message
        self.offset = offset
        self.suggestion = suggestion
    }

    /// The ``message``.
    public var description: String { message }
}
