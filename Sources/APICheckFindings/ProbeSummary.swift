/// What `apicheck probe` did after its crawl: the affordances it probed and left out, the requests
/// it sent, and what it created and deleted again.
public struct ProbeSummary: Sendable, Hashable {
    /// Write affordances probed (forms, actions, collections that take a POST).
    public var writes: Int
    /// Of those, `GET` forms (searches) probed through their query.
    public var queryForms: Int
    /// Templated reads probed (advertised or inferred).
    public var templatedReads: Int
    /// Affordances left out, each with why (`needs --unsafe`, `--skip`, another host).
    public var skipped: [String]
    /// Probe requests sent (the crawl's aside), shrinking and clean-up included.
    public var requests: Int
    /// Planned requests not sent for `--max-requests`.
    public var notSent: Int
    /// Resources created (201) and deleted again.
    public var created: Int
    public var deleted: Int
    /// Created resources not deleted: the API advertised no `DELETE` on them, or it failed.
    public var leftBehind: [String]
    /// Existing resources a `PUT` or `PATCH` probe changed and then put back as read before;
    /// probes go to a resource they created first, where there is one.
    public var restored: Int
    /// Existing resources a probe changed and could not put back.
    public var changed: [String]
    /// Stopped by a signal (what was created was still cleaned up).
    public var interrupted: Bool

    public init(
        writes: Int = 0, queryForms: Int = 0, templatedReads: Int = 0, skipped: [String] = [], requests: Int = 0, notSent: Int = 0,
        created: Int = 0, deleted: Int = 0, leftBehind: [String] = [], restored: Int = 0, changed: [String] = [], interrupted: Bool = false
    ) {
        self.writes = writes
        self.queryForms = queryForms
        self.templatedReads = templatedReads
        self.skipped = skipped
        self.requests = requests
        self.notSent = notSent
        self.created = created
        self.deleted = deleted
        self.leftBehind = leftBehind
        self.restored = restored
        self.changed = changed
        self.interrupted = interrupted
    }
}
