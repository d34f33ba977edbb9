/// How the checks at one place in the API's shape went: the rel path from the root with indices
/// stripped (`root → library → movies[*].self`) and a method. A report counts every check here
/// and lists only the ones a person has to look at (JSON report version 4, `checkCounts`).
public struct CheckCount: Sendable, Hashable {
    /// The place: a rel path with indices stripped.
    public var place: RelPath
    public var method: String
    public var passed = 0
    public var failed = 0
    public var notChecked = 0
    public var skipped = 0
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
    mutating func count(_ outcome: CheckedLink.Outcome, times: Int = 1) {
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

    mutating func countReason(_ outcome: String, _ reason: String, _ times: Int) {
        if let index = reasons.firstIndex(where: { $0.outcome == outcome && $0.reason == reason }) {
            reasons[index].count += times
        } else if reasons.count < Self.reasonsListed {
            reasons.append(Reason(outcome: outcome, reason: reason, count: times))
        } else if let index = reasons.firstIndex(where: { $0.outcome == outcome && $0.reason == Self.otherReasons }) {
            reasons[index].count += times
        } else {
            // The last slot becomes the catch-all, keeping what it counted.
            let last = reasons.removeLast()
            reasons.append(Reason(outcome: outcome, reason: Self.otherReasons, count: times))
            countReason(last.outcome, last.reason == Self.otherReasons ? last.reason : Self.otherReasons, last.count)
        }
    }

    /// Adds `other`'s counts (the same place and method, from another shard).
    mutating func add(_ other: CheckCount) {
        passed += other.passed
        failed += other.failed
        notChecked += other.notChecked
        skipped += other.skipped
        for reason in other.reasons { countReason(reason.outcome, reason.reason, reason.count) }
    }
}

/// Counts checks per place and method as they are decided, in first-seen order.
package struct CheckTally: Sendable {
    private var slots: [Key: Int] = [:]
    package private(set) var counts: [CheckCount] = []
    /// The stripped path of each parent path seen lately: the links of one page share it.
    private var strippedParents: [ObjectIdentifier: (node: RelPath.Node, stripped: RelPath)] = [:]

    private struct Key: Hashable {
        var place: RelPath
        var method: String
    }

    package init() {}

    package init(_ counts: [CheckCount]) {
        for count in counts { add(count) }
    }

    package mutating func count(_ check: CheckedLink) {
        count(check.outcome, method: check.method, at: stripped(check.relPath))
    }

    package mutating func count(_ outcome: CheckedLink.Outcome, method: String, at place: RelPath) {
        let key = Key(place: place, method: method)
        if let slot = slots[key] {
            counts[slot].count(outcome)
        } else {
            slots[key] = counts.count
            var count = CheckCount(place: place, method: method)
            count.count(outcome)
            counts.append(count)
        }
    }

    /// Adds the counts of a place (from another report).
    package mutating func add(_ count: CheckCount) {
        let key = Key(place: count.place, method: count.method)
        if let slot = slots[key] {
            counts[slot].add(count)
        } else {
            slots[key] = counts.count
            counts.append(count)
        }
    }

    /// `path` with indices stripped; the parent's stripped path is remembered, so the links of a
    /// page cost one label each.
    private mutating func stripped(_ path: RelPath) -> RelPath {
        guard let node = path.node else { return .root }
        let label = RelPath.stripIndices(node.label)
        guard let parent = node.parent else { return RelPath.root.appending(label) }
        if let known = strippedParents[ObjectIdentifier(parent)], known.node === parent { return known.stripped.appending(label) }
        let strippedParent = RelPath(RelPath(node: parent).labels.map(RelPath.stripIndices))
        if strippedParents.count >= 4096 { strippedParents.removeAll(keepingCapacity: true) }
        strippedParents[ObjectIdentifier(parent)] = (parent, strippedParent)
        return strippedParent.appending(label)
    }
}
