import APICheckModel

/// Something the extractor noticed about a representation's shape: a `format-shape` problem
/// (HAL link object without `href`, a `null` link, `_embedded` not an object, a bare-string HAL
/// href, a JSON:API resource without `type`), an unreadable body, or a limit that cut extraction
/// short. Notes are data; the contract rules decide what to report.
public struct ShapeNote: Sendable, Hashable, CustomStringConvertible {
    /// The kind of note, as a stable identifier.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The identifier (`format-shape`, …).
        public var rawValue: String
        /// A kind from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The representation does not follow the format it uses (the `format-shape` rule).
        public static let formatShape = Kind(rawValue: "format-shape")
        /// The body could not be read as the format its type claims (no links from it).
        public static let unreadableBody = Kind(rawValue: "unreadable-body")
        /// A bound (links, notes, depth, size) stopped extraction early.
        public static let limitReached = Kind(rawValue: "limit-reached")
    }

    /// What sort of note this is.
    public var kind: Kind
    /// How serious the extractor thinks it is (`format-shape` notes are warnings, as the rule's default).
    public var severity: Diagnostic.Severity
    /// The format the note is about, when there is one.
    public var format: LinkFormat?
    /// Where in the response the note applies.
    public var source: LinkSource
    /// What is wrong, in a sentence.
    public var message: String

    /// A note.
    public init(kind: Kind, severity: Diagnostic.Severity, format: LinkFormat?, source: LinkSource, message: String) {
        self.kind = kind
        self.severity = severity
        self.format = format
        self.source = source
        self.message = message
    }

    /// `/_links/self: warning: HAL link object for rel 'self' has no href`.
    public var description: String { "\(source): \(severity.rawValue): \(message)" }
}
