import APICheckJSON

/// One generated request for a write affordance: the body to send (or none), the `Content-Type`
/// to send it with, and what it is meant to find out.
///
/// Valid cases come first (examples, defaults, options, then generated values): the happy path,
/// whose answer is checked like any other. Edge cases vary one field (or the whole body) at a time,
/// and say which advertised constraint they break, if any: a 2xx to a case that breaks one is
/// `probe-accepts-invalid`; a 5xx to any case is `probe-server-error`.
public struct ProbeCase: Sendable, Hashable {
    /// How the body is labelled on the wire.
    public enum ContentType: Sendable, Hashable {
        /// As the affordance declares (its `contentType`, JSON by default), encoded accordingly.
        case declared
        /// No `Content-Type` header at all.
        case none
        /// Another type than declared (the body still encoded as declared).
        case other(String)
    }

    /// What the case tries, for people: `valid: from the defaults`, `title: missing (required)`,
    /// `year: max + 1 (2101)`.
    public var label: String
    /// The field it varies, `nil` when it is about the whole body (valid cases, unknown fields,
    /// content types).
    public var field: String?
    /// The body; `nil` sends none.
    public var body: JSONValue?
    public var contentType: ContentType
    /// The advertised constraint the case breaks (`required`, `maximum`, `pattern`, `type`, …);
    /// `nil` when the body meets every one, so any 4xx to it is the API's own stricter rule and a
    /// 2xx is expected.
    public var breaks: String?

    public init(label: String, field: String? = nil, body: JSONValue?, contentType: ContentType = .declared, breaks: String? = nil) {
        self.label = label
        self.field = field
        self.body = body
        self.contentType = contentType
        self.breaks = breaks
    }

    /// Whether a server that honours what it advertises should accept the case.
    public var isValid: Bool { breaks == nil }
}
