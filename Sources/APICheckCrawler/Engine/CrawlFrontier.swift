import APICheckModel
import Foundation

/// The breadth-first queue: the next level's entries, and every URL ever queued (in the crawl's
/// ``ResourceIndex``, by fixed-size key, not by string).
struct CrawlFrontier {
    /// A resource to fetch. Small on purpose: a level of a large API holds hundreds of
    /// thousands of them.
    struct Entry: Sendable {
        var key: URLKey
        /// The URL as it will be requested.
        var url: String
        var depth: Int32
        /// Its rel path, as a node of the crawl's ``RelPathTree``.
        var pathNode: Int32
        /// The rel of the link that first led here; `nil` for the root.
        var rel: String? = nil
        /// The (final) URL of the resource whose link led here; `nil` for the root.
        var referrer: String?

        var normalisedKey: String { URLResolution.normalisedKey(url) }
    }

    private var next: [Entry] = []
    private let maximumDepth: Int

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// Queues `url` unless it was seen or is too deep.
    mutating func enqueue(_ entry: Entry, index: inout ResourceIndex) -> EnqueueResult {
        guard !index.contains(entry.key) else { return .alreadySeen }
        guard Int(entry.depth) <= maximumDepth else { return .tooDeep }
        _ = index.insertQueued(entry.key)
        next.append(entry)
        return .queued
    }

    enum EnqueueResult: Equatable {
        case queued, alreadySeen, tooDeep
    }

    /// The queued level, in discovery order; the queue is empty afterwards.
    mutating func takeLevel() -> [Entry] {
        defer { next = [] }
        return next
    }

    var isEmpty: Bool { next.isEmpty }
    var count: Int { next.count }
}
