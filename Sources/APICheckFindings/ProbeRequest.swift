/// The request `apicheck probe` sent for a finding, after shrinking: what its reproduction
/// replays, byte for byte (credentials excepted: they stay shell variables).
public struct ProbeRequest: Sendable, Hashable {
    /// What the request tried: `valid: defaults`, `name: duplicate of an existing value`,
    /// `id: one past the largest id (7)`.
    public var label: String
    /// The body field or template variable it varied; `nil` when about the whole request.
    public var field: String?
    /// The `Content-Type` sent; `nil` when none was.
    public var contentType: String?
    /// The body sent, as text; `nil` when none was.
    public var body: String?
    /// How many times in a row it must be sent to fail (2 for a duplicate create).
    public var sends: Int

    public init(label: String, field: String? = nil, contentType: String? = nil, body: String? = nil, sends: Int = 1) {
        self.label = label
        self.field = field
        self.contentType = contentType
        self.body = body
        self.sends = sends
    }
}
