import APICheckFindings
import APICheckHypermedia
import APICheckSpool


/// The places of the crawl's links (``RelPath/place(of:)``) as a tree of small ids, built as links
/// are found, and the counts of the checks at each place and method: a check is counted by an id
/// lookup, not by building and hashing its path (600,000 checks of a 100,000-resource crawl).
struct CheckPlaces {
    /// The place of links found on the root.
    static let root: Int32 = -1
    /// The key parent of the `…` that folded places start with (never a place itself).
    private static let foldParent: Int32 = -2

    private struct Key: Hashable {
        var parent: Int32
        var step: String
    }

    private var ids: [Key: Int32] = [:]
    private var parents: [Int32] = []
    private var steps: [String] = []
    private var depths: [Int32] = []
    private var folded: [Bool] = []

    /// The place of a link labelled `label` on a resource at place `parent`: its label with
    /// indices stripped under the parent's place; past ``RelPath/placeDepth`` steps, folded to
    /// `…` and the last two steps, as ``RelPath/place(of:)`` does.
    mutating func place(_ label: String, under parent: Int32) -> Int32 {
        let step = RelPath.stripIndices(label)
        guard parent >= 0, folded[Int(parent)] || depths[Int(parent)] >= RelPath.placeDepth else {
            return id(step, under: parent, folded: false)
        }
        // Under a parent of its own: a rel really named `…` on the root is another place.
        let ellipsis = id(RelPath.folded, under: Self.foldParent, folded: true)
        return id(step, under: id(steps[Int(parent)], under: ellipsis, folded: true), folded: true)
    }

    private mutating func id(_ step: String, under parent: Int32, folded isFolded: Bool) -> Int32 {
        let key = Key(parent: parent, step: step)
        if let known = ids[key] { return known }
        let id = Int32(parents.count)
        parents.append(parent)
        steps.append(step)
        depths.append(parent >= 0 ? depths[Int(parent)] + 1 : 1)
        folded.append(isFolded)
        ids[key] = id
        return id
    }

    /// The place as a rel path.
    func path(_ id: Int32) -> RelPath {
        var labels: [String] = []
        var current = id
        while current >= 0 {
            labels.append(steps[Int(current)])
            current = parents[Int(current)]
        }
        return RelPath(labels.reversed())
    }

    // MARK: Counting

    private struct CountKey: Hashable {
        var place: Int32
        var method: String
    }

    private var slots: [CountKey: Int] = [:]
    private var counts: [(place: Int32, count: CheckCount)] = []

    /// Counts a completed check at `place`.
    mutating func count(_ check: CheckedLink, at place: Int32) {
        let key = CountKey(place: place, method: check.method)
        if let slot = slots[key] {
            counts[slot].count.count(check.outcome, index: check.discoveryIndex)
        } else {
            slots[key] = counts.count
            var count = CheckCount(place: .root, method: check.method)
            count.count(check.outcome, index: check.discoveryIndex)
            counts.append((place, count))
        }
    }

    /// Every place counted, in the order of its first link.
    var checkCounts: [CheckCount] {
        counts.sorted { $0.count.firstIndex < $1.count.firstIndex }.map { entry in
            var count = entry.count
            count.place = path(entry.place)
            return count
        }
    }
}
