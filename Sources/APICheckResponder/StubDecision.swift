import APICheckModel
import Foundation

/// How unmatched requests are answered.
public enum UnmatchedPolicy: Sendable, Hashable {
    /// With the near-miss report (404 over HTTP, a `URLError` in-process).
    case answer
    /// By somebody else: the reply is ``StubReply/Kind/passthrough`` and journaled as such.
    case passThrough
}

/// How a ``StubResponder`` produces a reply, per transport.
public struct ReplyOptions: Sendable {
    /// What an unmatched request gets.
    public var unmatched: UnmatchedPolicy
    /// Read body files into the reply's bytes (in-process), instead of checking them for a
    /// transport that streams them (a server's `sendfile`, a crawl reading a bounded prefix).
    public var readsBodyFiles: Bool
    /// The largest body a stub may answer with (a body file, a rendered template); larger ones
    /// are unservable. 256 MiB by default.
    public var maximumBodyBytes: Int
    /// The journal shard to record in (a server's event loop index).
    public var journalShard: Int

    public init(unmatched: UnmatchedPolicy = .answer, readsBodyFiles: Bool = true, maximumBodyBytes: Int = 256 << 20, journalShard: Int = 0) {
        self.unmatched = unmatched
        self.readsBodyFiles = readsBodyFiles
        self.maximumBodyBytes = maximumBodyBytes
        self.journalShard = journalShard
    }
}

/// What ``StubResponder/decide(_:at:in:scenarios:selection:options:names:)`` gives.
package enum StubDecision: Sendable {
    /// Complete and journaled.
    case ready(StubReply)
    /// A file or a template must be produced first, off the event loop: ``StubResponder/complete(_:)``.
    case pending(PendingReply)
    /// A stub's response with a static body, journaled: its head and body are the served set's
    /// (only for a caller that passed a ``StubNameCache``).
    case served(ServedSlot)
}

/// A stub's response in the served set: stub `index`, response `slot` (``ServedStubs``).
package struct ServedSlot: Sendable {
    package let index: Int
    package let slot: Int
}

/// A matched stub whose body still has to be produced.
public struct PendingReply: Sendable {
    let request: StubRequest
    let location: JournalEntry.Location
    public let matched: MatchedStub
    public let response: StubResponse
    /// The head the reply will have (a problem document's if the body cannot be produced).
    public let head: ReplyHead
    let options: ReplyOptions
    let rewriters: [OriginRewriter]
    let maximumRewrittenFileBytes: Int
    let problemHead: ReplyHead
}

/// Copies of stubs' ids and names owned by one thread (a server's event loop), for the journal
/// entries it records: an entry holding the served set's own strings would write their reference
/// counts from every core that answers the same stub.
package final class StubNameCache {
    private var servedID: ObjectIdentifier?
    /// Keeps the set `servedID` names alive, so the identifier cannot be reused meanwhile.
    private var served: ServedStubs?
    private var names: [Int: (id: String, name: String)] = [:]
    /// Beyond this many stubs the copies start over (a crawl of a large set answers each once).
    static let maximumEntries = 1 << 16

    package init() {}

    func names(of index: Int, in served: ServedStubs) -> (id: String, name: String) {
        if servedID != ObjectIdentifier(served) {
            servedID = ObjectIdentifier(served)
            self.served = served
            names.removeAll()
        }
        if let known = names[index] { return known }
        let stub = served.stubs.stubs[index]
        let copies = (Self.fresh(stub.id), Self.fresh(stub.name))
        if names.count >= Self.maximumEntries { names.removeAll(keepingCapacity: true) }
        names[index] = copies
        return copies
    }

    /// Lets go of the set and the copies (another set is being served).
    package func forget() {
        servedID = nil
        served = nil
        names = [:]
    }

    /// The same text in storage of its own (short strings are stored inline and have none to share).
    package static func fresh(_ text: String) -> String {
        text.utf8.count <= 15 ? text : String(decoding: Array(text.utf8), as: UTF8.self)
    }
}
