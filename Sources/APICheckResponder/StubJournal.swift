import APICheckModel
import Foundation
import Synchronization

/// Every request a stubbed session sent, in order, with what answered it. Thread-safe; one per
/// ``StubInterceptor``, so parallel tests never see each other's requests.
///
/// ```swift
/// #expect(interceptor.journal.requests(method: "PUT", path: "/cart/AzCa3T").count == 1)
/// ```
public final class StubJournal: Sendable {
    /// A ring: once full, the oldest entry is overwritten in O(1), so a journal at capacity costs
    /// the same per request as an empty one (a stub server records every request it answers).
    private struct Ring: Sendable {
        var storage: [JournalEntry] = []
        /// Index of the oldest entry once `storage` is full.
        var start = 0

        var ordered: [JournalEntry] {
            start == 0 ? storage : Array(storage[start...] + storage[..<start])
        }
    }

    private let ring = Mutex<Ring>(Ring())
    /// Oldest entries are dropped beyond this many, so a long-running app cannot grow without bound.
    public let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = max(capacity, 1)
    }

    /// All entries, oldest first.
    public var all: [JournalEntry] { ring.withLock { $0.ordered } }

    public var count: Int { ring.withLock { $0.storage.count } }

    /// At most `limit` entries from the `offset`-th oldest on, and how many entries there are in
    /// all: one page, without copying the whole journal.
    public func entries(offset: Int, limit: Int) -> (total: Int, entries: [JournalEntry]) {
        ring.withLock { ring in
            let total = ring.storage.count
            let first = min(max(offset, 0), total)
            let end = min(first + max(limit, 0), total)
            return (total, (first..<end).map { ring.storage[(ring.start + $0) % total] })
        }
    }

    public func record(_ entry: JournalEntry) {
        ring.withLock { ring in
            if ring.storage.count < capacity {
                ring.storage.append(entry)
            } else {
                ring.storage[ring.start] = entry
                ring.start = (ring.start + 1) % capacity
            }
        }
    }

    public func clear() {
        ring.withLock { $0 = Ring() }
    }

    /// Entries whose request has this method (any, if `nil`) and whose path matches `path`
    /// (a literal, template or glob, as in stub files).
    public func requests(method: String? = nil, path: String) -> [JournalEntry] {
        guard let pattern = try? PathPattern.parse(path).get() else { return [] }
        return requests(method: method, path: pattern)
    }

    public func requests(method: String? = nil, path: PathPattern) -> [JournalEntry] {
        let probe = StubSet([
            Stub(id: "probe", name: "probe", request: RequestPattern(method: method, path: path), response: StubResponse(), source: SourceLocation(path: "journal"))
        ])
        return all.filter { probe.match(StubRequest(method: $0.request.method, path: $0.request.path)).matched != nil }
    }

    /// Entries answered by the stub called `name`.
    public func requests(answeredBy name: String) -> [JournalEntry] {
        all.filter { $0.outcome.stubName == name }
    }

    /// Entries no stub answered.
    public var unmatched: [JournalEntry] {
        all.filter {
            if case .unmatched = $0.outcome { return true }
            return false
        }
    }
}

/// One request and how it was answered.
public struct JournalEntry: Sendable {
    public var date: Date
    public var request: StubRequest
    /// The full URL as sent.
    public var url: URL {
        get {
            switch location {
            case .url(let url):
                return url
            case .target(let origin, let target):
                let text = target.hasPrefix("/") ? origin + target : target
                return URL(string: text) ?? URL(string: origin) ?? URL(fileURLWithPath: "/")
            }
        }
        set { location = .url(newValue) }
    }
    public var outcome: Outcome

    /// Where the request went: a URL, or (for a server, which receives targets) its origin and
    /// target, turned into a URL only when read: parsing a URL per request is a stub server's
    /// largest cost after HTTP itself.
    private enum Location: Sendable {
        case url(URL)
        case target(origin: String, target: String)
    }

    private var location: Location

    public enum Outcome: Sendable {
        /// A stub answered with this status (for a failure stub, `failure` is set).
        case stubbed(stubID: String, stubName: String, status: Int, failure: StubFailure?)
        /// No stub matched; the report says which came closest and why.
        case unmatched(NearMissReport)
        /// Sent to the real network (passthrough mode).
        case passedThrough
        /// The stub matched but could not be served (a body file vanished, a template failed…).
        case failed(String)

        public var stubName: String? {
            if case .stubbed(_, let name, _, _) = self { return name }
            return nil
        }
    }

    public init(date: Date = Date(), request: StubRequest, url: URL, outcome: Outcome) {
        self.date = date
        self.request = request
        self.location = .url(url)
        self.outcome = outcome
    }

    /// An entry for a request a server at `origin` (`http://127.0.0.1:8080`) received for
    /// `target` (origin-form `/movies/1?x=y`, or absolute-form).
    public init(date: Date = Date(), request: StubRequest, origin: String, target: String, outcome: Outcome) {
        self.date = date
        self.request = request
        self.location = .target(origin: origin, target: target)
        self.outcome = outcome
    }

    /// The request body as UTF-8 text, if it is text.
    public var bodyText: String? { String(validating: request.body, as: UTF8.self) }
}
