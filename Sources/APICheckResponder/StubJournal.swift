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
        /// Circular: `count` entries from `start`; dropped slots are `nil` so their bodies are freed.
        var storage: [Stamped?] = []
        var start = 0
        var count = 0
        /// Request body bytes held by the entries.
        var bodyBytes = 0

        subscript(position: Int) -> Stamped { storage[(start + position) % storage.count]! }

        mutating func append(_ entry: consuming Stamped, capacity: Int, maximumBytes: Int) {
            let size = entry.entry.request.body.count
            while count > 0, count >= capacity || bodyBytes + size > maximumBytes { dropOldest() }
            if count == storage.count {
                // Full and below capacity: grow, oldest first again.
                if start != 0 {
                    storage = Array(storage[start...] + storage[..<start])
                    start = 0
                }
                storage.append(entry)
            } else {
                storage[(start + count) % storage.count] = entry
            }
            count += 1
            bodyBytes += size
        }

        private mutating func dropOldest() {
            bodyBytes -= storage[start]?.entry.request.body.count ?? 0
            storage[start] = nil
            start = (start + 1) % storage.count
            count -= 1
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
    /// Each entry keeps at most this many bytes of its request body (``JournalEntry/bodyByteCount``
    /// keeps the size), so one large upload cannot hold its whole body.
    public let maximumBodyBytes: Int
    /// Request body bytes kept in all (split evenly among shards); the oldest entries are dropped
    /// first, so memory is bounded in bytes, not only in entries.
    public let maximumBytes: Int

    /// A journal of at most `capacity` entries. `shards` is how many writers record at once on
    /// different threads (a server's event loops): each writes to its own shard, so recording
    /// never contends; reading merges the shards in recording order. Each shard can hold
    /// `capacity` entries, so memory is bounded by `shards × capacity`.
    ///
    /// `maximumBodyBytes` and `maximumBytes` bound the request bodies kept (a stub server passes
    /// its limits; by default, in process, bodies are kept whole). A `capacity` of 0 keeps
    /// nothing: for a responder whose requests nobody reads back (``StubJournal/none``).
    public init(capacity: Int = 100_000, shards: Int = 1, maximumBodyBytes: Int = .max, maximumBytes: Int = .max) {
        self.capacity = max(capacity, 0)
        self.maximumBodyBytes = max(maximumBodyBytes, 0)
        self.maximumBytes = max(maximumBytes, 0)
        self.shards = (0..<max(shards, 1)).map { _ in Shard() }
    }

    /// A journal that keeps nothing: a crawl of stubs in memory reads no journal, and one that
    /// kept its last 100,000 requests held 60 MB at 100,000 resources.
    public static var none: StubJournal { StubJournal(capacity: 0) }

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
        guard capacity > 0 else { return }
        var entry = entry
        let body = entry.request.body
        let maximumBodyBytes = min(self.maximumBodyBytes, shards.count == 1 ? maximumBytes : maximumBytes / shards.count)
        if body.count > maximumBodyBytes {
            // A copy of the prefix: a slice would keep the whole body alive.
            entry.request.body = body.subdata(in: body.startIndex..<(body.startIndex + maximumBodyBytes))
            // The near-miss report carries the request too: the same prefix, not the whole body.
            if case .unmatched(var report) = entry.outcome {
                report.request.body = entry.request.body
                entry.outcome = .unmatched(report)
            }
        }
        // Moved, not copied, into the ring: an entry holds a dozen references.
        var stamped: Stamped? = Stamped(stamp: DispatchTime.now().uptimeNanoseconds, entry: entry)
        let capacity = self.capacity
        let maximumBytes = shards.count == 1 ? self.maximumBytes : self.maximumBytes / shards.count
        shards[shards.count == 1 ? 0 : abs(shard % shards.count)].ring.withLock {
            $0.append(stamped.take()!, capacity: capacity, maximumBytes: maximumBytes)
        }
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
    /// The request; its body may be a prefix (see ``bodyByteCount``).
    public var request: StubRequest
    /// The size of the request body as received: larger than `request.body` when the journal
    /// kept only a prefix (``StubJournal/maximumBodyBytes``).
    public var bodyByteCount: Int
    /// Whether `request.body` is only a prefix of the body received.
    public var isBodyTruncated: Bool { bodyByteCount > request.body.count }
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
        self.bodyByteCount = request.body.count
        self.location = .url(url)
        self.outcome = outcome
    }

    /// An entry for a request that went to `location`.
    public init(date: Date = Date(), request: StubRequest, location: Location, outcome: Outcome) {
        self.date = date
        self.request = request
        self.bodyByteCount = request.body.count
        self.location = location
        self.outcome = outcome
    }

    /// An entry for a request a server at `origin` (`http://127.0.0.1:8080`) received for
    /// `target` (origin-form `/movies/1?x=y`, or absolute-form).
    public init(date: Date = Date(), request: StubRequest, origin: String, target: String, outcome: Outcome) {
        self.date = date
        self.request = request
        self.bodyByteCount = request.body.count
        self.location = .target(origin: origin, target: target)
        self.outcome = outcome
    }

    /// The request body as UTF-8 text, if it is text.
    public var bodyText: String? { String(validating: request.body, as: UTF8.self) }
}
