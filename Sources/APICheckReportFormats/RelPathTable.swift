import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool

/// The JSON report's `paths` table (schema version 3): every rel path that leads to a resource
/// on which a reported link or finding was found, written once as its last step and the entry of
/// the path it extends, parents first. A finding or check names the entry of the path before its
/// last step (`via`) and that step (`step`), so a report grows with the number of links, not
/// with their depth (a 4,000-deep chain repeated its whole path in every check: 258 MB).
///
/// Entries are numbered in the order findings, then checks, first name them, so two runs that
/// found the same things write the same table.
package final class RelPathTable {
    /// Each entry's last step and the entry it extends (-1: a step from the root).
    package private(set) var steps: [String] = []
    package private(set) var parents: [Int32] = []
    /// Open addressing over entry numbers (-1: empty), hashed on (parent, step).
    private var buckets = [Int32](repeating: -1, count: 1024)
    /// Nodes recently looked up, held (so their identifiers stay theirs) and bounded: a path
    /// shared in memory is found without walking it again.
    private var recent: [ObjectIdentifier: (node: RelPath.Node, id: Int32)] = [:]
    private static let recentLimit = 4096
    /// The last path ``add(labels:)`` added, and its entries.
    private var previousLabels: [String] = []
    private var previousIDs: [Int32] = []

    package init() {}

    /// The table for a report's findings and checks (the paths that lead to their referrers).
    package convenience init(findings: some Sequence<Finding>, checks: some Sequence<CheckedLink>) {
        self.init()
        for finding in findings { add(finding.relPath) }
        for check in checks { add(check.relPath) }
    }

    /// The table for a report's findings and checks; spooled checks are read for their paths
    /// alone, as labels (decoding each whole, into a path of its own, doubled the cost).
    package convenience init(findings: some Sequence<Finding>, checks: CheckList) {
        self.init()
        for finding in findings { add(finding.relPath) }
        checkVias.reserveCapacity(checks.count)
        if let labels = checks.relPathLabels {
            for path in labels { checkVias.append(add(labels: path)) }
        } else {
            for check in checks { checkVias.append(via(of: check.relPath)) }
        }
    }

    /// The `via` of each check in the order the table was built from them (``Self/fromRoot``
    /// for a step from the root, ``Self/noPath`` for the root): writing the checks again looks
    /// none up (4 bytes a check; looking each up again was 6% of a crawl of stubs).
    package private(set) var checkVias: [Int32] = []
    private static let fromRoot: Int32 = -1
    private static let noPath: Int32 = -2

    /// The `via` and `step` of the `index`-th check the table was built from, `check`.
    package func members(ofCheck index: Int, _ check: CheckedLink) -> (via: Int32?, step: String)? {
        guard index < checkVias.count else { return members(of: check.relPath) }
        return Self.members(of: check, via: checkVias[index])
    }

    /// The `via` and `step` of a check whose `via` was recorded (``checkVias``): reads nothing
    /// else of the table, so checks are written on several threads at once.
    package static func members(of check: CheckedLink, via: Int32) -> (via: Int32?, step: String)? {
        guard let step = check.relPath.last else { return nil }
        return (via >= 0 ? via : nil, step)
    }

    private func via(of relPath: RelPath) -> Int32 {
        guard let node = relPath.node else { return Self.noPath }
        return node.parent.map { id(of: $0) } ?? Self.fromRoot
    }

    package var count: Int { steps.count }

    /// Adds the path `relPath` extends (its parent), with that path's own parents.
    package func add(_ relPath: RelPath) {
        if let parent = relPath.node?.parent { _ = id(of: parent) }
    }

    /// Adds the path of all but the last of `labels` (the parent of the path they name), with
    /// its parents: what ``add(_:)`` adds for a path read back as labels.
    @discardableResult
    package func add(labels: [String]) -> Int32 {
        guard labels.count > 1 else { return labels.isEmpty ? Self.noPath : Self.fromRoot }
        // Checks in a row often share the first steps of their paths: those are not looked up again.
        var parent: Int32 = -1
        var shared = 0
        while shared < min(labels.count - 1, previousLabels.count), labels[shared] == previousLabels[shared] {
            parent = previousIDs[shared]
            shared += 1
        }
        previousLabels.removeSubrange(shared...)
        previousIDs.removeSubrange(shared...)
        for label in labels[shared..<(labels.count - 1)] {
            parent = intern(label, under: parent)
            previousLabels.append(label)
            previousIDs.append(parent)
        }
        return parent
    }

    /// The `via` and `step` of `relPath` (none for the root; no `via` for a step from the root).
    package func members(of relPath: RelPath) -> (via: Int32?, step: String)? {
        guard let node = relPath.node else { return nil }
        return (node.parent.map { id(of: $0) }, node.label)
    }

    /// Entry `index` as written in `paths`.
    package func jsonValue(at index: Int) -> JSONValue {
        var members = [JSONMember("step", .string(steps[index]))]
        if parents[index] >= 0 { members.append(JSONMember("via", .number(String(parents[index])))) }
        return .object(members)
    }

    /// The entry of the path ending at `node`, added with its parents when new.
    private func id(of node: RelPath.Node) -> Int32 {
        if let known = recent[ObjectIdentifier(node)] { return known.id }
        var pending: [RelPath.Node] = []
        var parent: Int32 = -1
        var current: RelPath.Node? = node
        while let step = current {
            if let known = recent[ObjectIdentifier(step)] {
                parent = known.id
                break
            }
            pending.append(step)
            current = step.parent
        }
        if recent.count + pending.count > Self.recentLimit { recent.removeAll(keepingCapacity: true) }
        for step in pending.reversed() {
            parent = intern(step.label, under: parent)
            recent[ObjectIdentifier(step)] = (step, parent)
        }
        return parent
    }

    private func intern(_ step: String, under parent: Int32) -> Int32 {
        if steps.count * 2 >= buckets.count { grow() }
        let mask = buckets.count - 1
        var slot = Self.slot(step, parent) & mask
        while buckets[slot] >= 0 {
            let id = Int(buckets[slot])
            if parents[id] == parent, steps[id] == step { return Int32(id) }
            slot = (slot + 1) & mask
        }
        buckets[slot] = Int32(steps.count)
        steps.append(step)
        parents.append(parent)
        return Int32(steps.count - 1)
    }

    private func grow() {
        buckets = [Int32](repeating: -1, count: buckets.count * 2)
        let mask = buckets.count - 1
        for id in steps.indices {
            var slot = Self.slot(steps[id], parents[id]) & mask
            while buckets[slot] >= 0 { slot = (slot + 1) & mask }
            buckets[slot] = Int32(id)
        }
    }

    private static func slot(_ step: String, _ parent: Int32) -> Int {
        var hasher = Hasher()
        hasher.combine(parent)
        hasher.combine(step)
        return hasher.finalize()
    }
}

/// Reads rel paths back from a report: the `paths` table of version 3, or the `relPath` arrays
/// of versions 1 and 2.
package struct RelPathResolver: Sendable {
    private var paths: [RelPath] = []

    package init() {}

    /// The table in `paths`; each entry may only extend an earlier one.
    package init(_ node: JSONNode, reader: ReportJSONReader) throws(ReportDecodingError) {
        guard case .array(let entries) = node.kind else {
            throw reader.error("expected \"paths\" to be an array, found \(node.typeName)", at: node.position)
        }
        paths.reserveCapacity(entries.count)
        for entry in entries {
            let object = try reader.object(entry, "a path")
            paths.append(try relPath(object, reader: reader, step: "step", required: true))
        }
    }

    /// The rel path of a finding or check: `via` and `step`, or (versions 1 and 2) `relPath`.
    package func relPath(of object: JSONNode, reader: ReportJSONReader) throws(ReportDecodingError) -> RelPath {
        if object["relPath"] != nil { return RelPath(try reader.strings(object, "relPath")) }
        return try relPath(object, reader: reader, step: "step", required: false)
    }

    private func relPath(_ object: JSONNode, reader: ReportJSONReader, step key: String, required: Bool) throws(ReportDecodingError) -> RelPath {
        guard let step = try reader.optionalString(object, key) else {
            if required { _ = try reader.member(object, key) }
            if let via = object["via"] { throw reader.error("\"via\" without \"step\"", at: via.position) }
            return .root
        }
        guard let viaNode = object["via"] else { return RelPath.root.appending(step) }
        let via = try reader.countValue(viaNode, "via")
        guard via < paths.count else {
            // The streaming reader resolves checks as they go by: a report whose members were
            // reordered (`jq -S` sorts keys) has its checks before its paths.
            let known = paths.isEmpty
                ? "no \"paths\" entry comes before it (\"paths\" must come before \"findings\" and \"checks\", as apicheck writes them; a tool that sorts keys, such as jq -S, reorders them)"
                : "\"paths\" has \(paths.count) \(paths.count == 1 ? "entry" : "entries") before it"
            throw reader.error("\"via\" is \(via), but \(known)", at: viaNode.position)
        }
        guard paths[via].count < RelPath.maximumDepth else {
            throw reader.error("a rel path deeper than \(RelPath.maximumDepth) steps (crawl --max-depth allows at most \(RelPath.maximumDepth))", at: viaNode.position)
        }
        return paths[via].appending(step)
    }
}
