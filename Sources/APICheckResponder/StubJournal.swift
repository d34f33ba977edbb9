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
    /// One writer's entries, oldest first. A ring: once full, the oldest entry is overwritten in
    /// O(1), so a journal at capacity costs the same per request as an empty one (a stub server
    /// records every request it answers).
    private struct Ring: Sendable {
        var storage: [Stamped] = []
        /// Index of the oldest entry once `storage` is full.
        var start = 0

        var count: Int { storage.count }

        subscript(position: Int) -> Stamped { storage[(start + position) % storage.count] }

        mutating func append(_ entry: consuming Stamped, capacity: Int) {
            if storage.count < capacity {
                storage.append(entry)
            } else {
                storage[start] = entry
                start = (start + 1) % capacity
            }
        }
    }

    /// An entry and when it was recorded, on a clock every shard shares, to merge shards in order.
    private struct Stamped: Sendable {
        var stamp: UInt64
        var entry: JournalEntry
    }

    /// A shard's lock and ring, padded to its own cache lines: shards exist so that writers on
    /// different cores never write to the same line.
    private final class Shard: Sendable {
        let ring = Mutex<Ring>(Ring())
        private let padding: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    private let shards: [Shard]
    /// Oldest entries are dropped beyond this many, so a long-running app cannot grow without bound.
    public let capacity: Int

    /// A journal of at most `capacity` entries. `shards` is how many writers record at once on
    /// different threads (a server's event loops): each writes to its own shard, so recording
    /// never contends; reading merges the shards in recording order. Each shard can hold
    /// `capacity` entries, so memory is bounded by `shards × capacity`.
    public init(capacity: Int = 100_000, shards: Int = 1) {
        self.capacity = max(capacity, 1)
        self.shards = (0..<max(shards, 1)).map { _ in Shard() }
    }

    /// How many writers can record without contending (see ``record(_:shard:)``).
    public var shardCount: Int { shards.count }

    /// All entries, oldest first.
    public var all: [JournalEntry] { merged(offset: 0, limit: Int.max).entries }

    public var count: Int {
        min(shards.reduce(0) { total, shard in total + shard.ring.withLock { $0.count } }, capacity)
    }

    /// At most `limit` entries from the `offset`-th oldest on, and how many entries there are in
    /// all: one page, without copying the whole journal.
    public func entries(offset: Int, limit: Int) -> (total: Int, entries: [JournalEntry]) {
        merged(offset: offset, limit: limit)
    }

    /// Records `entry`. Writers on different threads that record often pass different `shard`s
    /// (any number; it is taken modulo ``shardCount``).
    public func record(_ entry: consuming JournalEntry, shard: Int = 0) {
        // Moved, not copied, into the ring: an entry holds a dozen references.
        var stamped: Stamped? = Stamped(stamp: DispatchTime.now().uptimeNanoseconds, entry: entry)
        let capacity = self.capacity
        shards[shards.count == 1 ? 0 : abs(shard % shards.count)].ring.withLock { $0.append(stamped.take()!, capacity: capacity) }
    }

    public func clear() {
        for shard in shards { shard.ring.withLock { $0 = Ring() } }
    }

    /// The page `offset..<offset+limit` of the newest `capacity` entries of all shards, oldest first.
    private func merged(offset: Int, limit: Int) -> (total: Int, entries: [JournalEntry]) {
        if shards.count == 1 {
            return shards[0].ring.withLock { ring in
                let total = ring.count
                let first = min(max(offset, 0), total)
                let end = first + min(max(limit, 0), total - first)
                return (total, (first..<end).map { ring[$0].entry })
            }
        }
        // Copy each shard under its own lock (the entries are values), then merge by stamp; on
        // equal stamps the lower shard first, so the order is stable.
        let rings = shards.map { shard in shard.ring.withLock { $0 } }
        let available = rings.reduce(0) { $0 + $1.count }
        let total = min(available, capacity)
        let first = min(max(offset, 0), total)
        let end = first + min(max(limit, 0), total - first)
        var positions = [Int](repeating: 0, count: rings.count)
        var page: [JournalEntry] = []
        page.reserveCapacity(end - first)
        // Entries beyond `capacity` are the oldest: skipped like the ones before the page.
        let skip = available - total + first
        for rank in 0..<(available - total + end) {
            var next = -1
            for index in rings.indices where positions[index] < rings[index].count {
                if next < 0 || rings[index][positions[index]].stamp < rings[next][positions[next]].stamp { next = index }
            }
            if rank >= skip { page.append(rings[next][positions[next]].entry) }
            positions[next] += 1
        }
        return (total, page)
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
    public enum Location: Sendable {
        case url(URL)
        case target(origin: String, target: String)

        /// `scheme://host[:port]`: the `baseURL` templates see.
        public var origin: String {
            switch self {
            case .url(let url): OriginRewriter.origin(of: url)
            case .target(let origin, _): origin
            }
        }
    }

    public private(set) var location: Location

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

    /// An entry for a request that went to `location`.
    public init(date: Date = Date(), request: StubRequest, location: Location, outcome: Outcome) {
        self.date = date
        self.request = request
        self.location = location
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
