import APICheckFindings
import APICheckHypermedia
import APICheckSpool


/// `--sample N`: at most `N` resources of each kind are fetched, where a kind is the rel path
/// that reaches a resource with its indices stripped (`root → library → movies[*].self`). The
/// first `N` of a kind in breadth-first discovery order are taken, so the same resources are
/// checked on every run, and every kind of link is still checked at least once.
struct CrawlSampler {
    let size: Int?
    private var counts: [String: (seen: Int, checked: Int)] = [:]
    private var order: [String] = []

    init(size: Int?) {
        self.size = size
    }

    /// Counts a resource reached by `relPath`; `nil` when it is to be fetched, else the reason it
    /// is left out.
    mutating func admit(_ relPath: RelPath) -> String? {
        guard let size else { return nil }
        let kind = RelPath.shape(relPath)
        var count = counts[kind] ?? (seen: 0, checked: 0)
        if counts[kind] == nil { order.append(kind) }
        count.seen += 1
        defer { counts[kind] = count }
        guard count.checked < size else {
            return "sampled out (--sample \(size))"
        }
        count.checked += 1
        return nil
    }

    /// Every kind seen, in discovery order.
    var kinds: [SampledKind] {
        order.compactMap { kind in counts[kind].map { SampledKind(kind: kind, seen: $0.seen, checked: $0.checked) } }
    }
}
