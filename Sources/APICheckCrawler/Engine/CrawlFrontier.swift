import APICheckModel
import Foundation

/// The crawl's queue, as a value: URLs are deduplicated when enqueued (normalised URL + method),
/// each remembers how it was first reached, and the queue is drained level by level so the
/// result never depends on how many requests run at once. Limits live in ``CrawlBudget``, apart
/// from the queue.
struct CrawlFrontier {
    struct Entry: Sendable {
        /// The normalised URL (RFC 3986 §6.2.2), the deduplication key.
        var key: String
        var url: URL
        var depth: Int
        /// The rels followed from the root to get here (labels such as `movies[3].poster`).
        var relPath: [String]
        /// The relation of the link that first led here, as written (`nil` for the root).
        var rel: String? = nil
        /// The resource whose link first led here (`nil` for the root).
        var referrer: String?
    }

    private(set) var seen: Set<String> = []
    private var next: [Entry] = []
    private let maximumDepth: Int

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// Queues `url` unless it was queued before or is too deep; says which.
    mutating func enqueue(_ url: URL, depth: Int, relPath: [String], rel: String? = nil, referrer: String?) -> EnqueueResult {
        let key = URLResolution.normalisedKey(url.absoluteString)
        guard !seen.contains(key) else { return .alreadySeen(key) }
        guard depth <= maximumDepth else { return .tooDeep(key) }
        seen.insert(key)
        next.append(Entry(key: key, url: url, depth: depth, relPath: relPath, rel: rel, referrer: referrer))
        return .queued(key)
    }

    /// Records `key` as seen without queueing it (a resource left out by sampling); false when
    /// it was seen before.
    mutating func markSeen(_ key: String) -> Bool {
        seen.insert(key).inserted
    }

    /// Whether a URL with this normalised key was queued before.
    func hasSeen(_ key: String) -> Bool {
        seen.contains(key)
    }

    enum EnqueueResult: Equatable {
        case queued(String)
        case alreadySeen(String)
        case tooDeep(String)
    }

    /// The next level, in the order its URLs were discovered; empty when the crawl is done.
    mutating func takeLevel() -> [Entry] {
        defer { next = [] }
        return next
    }

    var isEmpty: Bool { next.isEmpty }
}
