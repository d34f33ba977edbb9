import APICheckModel

/// Something the extractor noticed about a representation's shape: a `format-shape` problem
/// (HAL link object without `href`, a `null` link, `_embedded` not an object, a bare-string HAL
/// href, a JSON:API resource without `type`), an unreadable body, or a limit that cut extraction
/// short. Notes are data; the contract rules decide what to report.
public struct ShapeNote: Sendable, Hashable, CustomStringConvertible {
    /// The kind of note, as a stable identifier.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The representation does not follow the format it uses (the `format-shape` rule).
        public static let formatShape = Kind(rawValue: "format-shape")
        /// The body could not be read as the format its type claims (no links from it).
        public static let unreadableBody = Kind(rawValue: "unreadable-body")
        /// A bound (links, notes, depth, size) stopped extraction early.
        public static let limitReached = Kind(rawValue: "limit-reached")
    }

    public var kind: Kind
    public var severity: Diagnostic.Severity
    /// The format the note is about, when there is one.
    public var format: LinkFormat?
    public var source: LinkSource
    public var message: String

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
