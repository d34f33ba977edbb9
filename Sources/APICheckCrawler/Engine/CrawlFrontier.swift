import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool
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
        /// The media type the link that first led here declared, for its profile (`body-schema`).
        var declaredType: String? = nil
        /// The profile URI that link gave its target (HAL's `profile` attribute), resolved.
        var declaredProfile: String? = nil
        /// The discovery index of the link that first led here (`0` for the root): the
        /// resource's own findings are listed with it.
        var discoveryIndex: Int = 0

        var normalisedKey: String { URLResolution.normalisedKey(url) }
    }

    /// The next level: its first entries in memory, the rest in a temporary file.
    private let next: SpillQueue<Entry>
    private let maximumDepth: Int

    init(maximumDepth: Int, directory: SpoolDirectory, entriesInMemory: Int) {
        self.maximumDepth = maximumDepth
        next = SpillQueue(directory: directory, memoryLimit: entriesInMemory)
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

    /// The queued level, in discovery order, read once; the queue is empty afterwards.
    mutating func takeLevel() -> SpillQueue<Entry>.Drain {
        next.drain()
    }

    var isEmpty: Bool { next.count == 0 }
    var count: Int { next.count }
    /// Set when the level could not be written to its temporary file.
    var failure: SpoolIOError? { next.failure }
}

extension CrawlFrontier.Entry: SpoolRecord {
    func encode(into encoder: inout SpoolEncoder) {
        encoder.unsigned(key.high)
        encoder.unsigned(key.low)
        encoder.string(url)
        encoder.int(Int(depth))
        encoder.int(Int(pathNode))
        encoder.optionalString(rel)
        encoder.optionalString(referrer)
        encoder.optionalString(declaredType)
        encoder.optionalString(declaredProfile)
        encoder.int(discoveryIndex)
    }

    init(from decoder: inout SpoolDecoder) throws(SpoolDecodingError) {
        let high = try decoder.unsigned()
        let low = try decoder.unsigned()
        let url = try decoder.string()
        let depth = try decoder.int()
        let pathNode = try decoder.int()
        let rel = try decoder.optionalString()
        self.init(
            key: URLKey(high: high, low: low), url: url, depth: Int32(clamping: depth), pathNode: Int32(clamping: pathNode), rel: rel,
            referrer: try decoder.optionalString(), declaredType: try decoder.optionalString(), declaredProfile: try decoder.optionalString(),
            discoveryIndex: try decoder.int())
    }
}
