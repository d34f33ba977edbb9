import APICheckModel
import APICheckSpool

/// How the checks at one place in the API's shape went: the rel path from the root with indices
/// stripped (`root → library → movies[*].self`, see ``RelPath/place(of:)``) and a method. A report
/// counts every check here and lists only the ones a person has to look at (JSON report version
/// 4, `checkCounts`).
public struct CheckCount: Sendable, Hashable {
    /// The place: a rel path with indices stripped, deep ones folded (``RelPath/place(of:)``).
    public var place: RelPath
    public var method: String
    public var passed = 0
    public var failed = 0
    public var notChecked = 0
    public var skipped = 0
    /// The lowest ``CheckedLink/discoveryIndex`` counted here (`0`: none known): places are
    /// listed in this order, the same in a whole crawl and in the merge of its shards.
    public var firstIndex = 0
    /// Why links here were not checked or skipped, with how many each, in first-seen order; at
    /// most ``reasonsListed`` distinct reasons, the rest counted under ``otherReasons``.
    public var reasons: [Reason] = []

    /// One reason of the histogram.
    public struct Reason: Sendable, Hashable {
        /// `notChecked` or `skipped`.
        public var outcome: String
        public var reason: String
        public var count: Int

        public init(outcome: String, reason: String, count: Int) {
            self.outcome = outcome
            self.reason = reason
            self.count = count
        }
    }

    /// How many distinct reasons a place lists: a template repeated with a different variable
    /// name in every item would otherwise list one per link.
    public static let reasonsListed = 8
    /// The reason the reasons beyond ``reasonsListed`` are counted under.
    public static let otherReasons = "other reasons"

    public init(place: RelPath, method: String) {
        self.place = place
        self.method = method
    }

    /// Every check counted here.
    public var total: Int { passed + failed + notChecked + skipped }

    /// Counts one check.
    package mutating func count(_ outcome: CheckedLink.Outcome, index: Int = 0, times: Int = 1) {
        noteIndex(index)
        switch outcome {
        case .passed: passed += times
        case .failed: failed += times
        case .notChecked(let reason):
            notChecked += times
            countReason("notChecked", reason, times)
        case .skipped(let reason):
            skipped += times
            countReason("skipped", reason, times)
        }
    }

    /// Counts `times` checks for `reason`. Past ``reasonsListed`` distinct reasons, the rest of
    /// each outcome are counted under ``otherReasons`` (at most one more entry per outcome).
    package mutating func countReason(_ outcome: String, _ reason: String, _ times: Int) {
        if let index = reasons.firstIndex(where: { $0.outcome == outcome && $0.reason == reason }) {
            reasons[index].count += times
        } else if reasons.count(where: { $0.reason != Self.otherReasons }) < Self.reasonsListed, reason != Self.otherReasons {
            reasons.append(Reason(outcome: outcome, reason: reason, count: times))
        } else if let index = reasons.firstIndex(where: { $0.outcome == outcome && $0.reason == Self.otherReasons }) {
            reasons[index].count += times
        } else {
            reasons.append(Reason(outcome: outcome, reason: Self.otherReasons, count: times))
        }
    }

    mutating func noteIndex(_ index: Int) {
        if index > 0, firstIndex == 0 || index < firstIndex { firstIndex = index }
    }

    /// Adds `other`'s counts (the same place and method, from another shard).
    package mutating func add(_ other: CheckCount) {
        noteIndex(other.firstIndex)
        passed += other.passed
        failed += other.failed
        notChecked += other.notChecked
        skipped += other.skipped
        for reason in other.reasons { countReason(reason.outcome, reason.reason, reason.count) }
    }
}

extension RelPath {
    /// How many steps a place keeps whole: deeper places are folded (``place(of:)``).
    public static let placeDepth = 4

    /// The place of a link reached by `path`: its steps with indices stripped
    /// (`movies[9].self` → `movies[*].self`); past ``placeDepth`` steps, `…` and the last two
    /// (`root → … → item[*] → related`), so an API whose links form a graph rather than a tree
    /// (every resource reachable by ever longer paths) has a bounded number of places.
    public static func place(of path: RelPath) -> RelPath {
        let labels = path.labels
        guard labels.count > placeDepth else { return RelPath(labels.map(stripIndices)) }
        return RelPath([folded] + labels.suffix(2).map(stripIndices))
    }

    /// The first step of a folded place.
    public static let folded = "…"
}

/// Counts checks per place and method as they are decided; ``counts`` lists the places in the
/// order of their first link (first-seen order for checks without discovery indices).
package struct CheckTally: Sendable {
    private var slots: [Key: Int] = [:]
    private var tallied: [CheckCount] = []
    package var counts: [CheckCount] {
        guard tallied.contains(where: { $0.firstIndex > 0 }) else { return tallied }
        return tallied.enumerated().sorted { ($0.element.firstIndex, $0.offset) < ($1.element.firstIndex, $1.offset) }.map(\.element)
    }
    /// The stripped path of each parent path seen lately: the links of one page share it.
    private var strippedParents: [ObjectIdentifier: (node: RelPath.Node, stripped: RelPath)] = [:]

    private struct Key: Hashable {
        var place: RelPath
        var method: String
    }

    package init() {}

    package mutating func count(_ check: CheckedLink) {
        count(check.outcome, method: check.method, at: place(check.relPath), index: check.discoveryIndex)
    }

    package mutating func count(_ outcome: CheckedLink.Outcome, method: String, at place: RelPath, index: Int) {
        let key = Key(place: place, method: method)
        if let slot = slots[key] {
            tallied[slot].count(outcome, index: index)
        } else {
            slots[key] = tallied.count
            var count = CheckCount(place: place, method: method)
            count.count(outcome, index: index)
            tallied.append(count)
        }
    }

    /// Adds the counts of a place (from another report).
    package mutating func add(_ count: CheckCount) {
        let key = Key(place: count.place, method: count.method)
        if let slot = slots[key] {
            tallied[slot].add(count)
        } else {
            slots[key] = tallied.count
            tallied.append(count)
        }
    }

    /// ``RelPath/place(of:)``; the parent's place is remembered, so the links of a page cost
    /// one label each.
    private mutating func place(_ path: RelPath) -> RelPath {
        guard let node = path.node, let parent = node.parent, path.count <= RelPath.placeDepth else { return RelPath.place(of: path) }
        let label = RelPath.stripIndices(node.label)
        if let known = strippedParents[ObjectIdentifier(parent)], known.node === parent { return known.stripped.appending(label) }
        let strippedParent = RelPath.place(of: RelPath(node: parent))
        if strippedParents.count >= 4096 { strippedParents.removeAll(keepingCapacity: true) }
        strippedParents[ObjectIdentifier(parent)] = (parent, strippedParent)
        return strippedParent.appending(label)
    }
}
