/// Where ``StubSet`` finds the stubs a request's path can meet: literal paths by a table lookup;
/// templates and globs along a trie of their literal leading segments, so a request only meets the
/// patterns that share its prefix (`/api/v1/movies/{id}` is never tried for `/api/v1/cart`).
///
/// Built once per set. Looked up with the request's own bytes: no `String`, `Substring` or array is
/// made per request, and nothing is retained.
struct PathIndex: Sendable {
    /// The scope of literal paths in `table`; the trie's edges are scoped by their parent node (≥ 0).
    private static let literalScope: Int32 = -1

    /// Literal path → its group in `literalStubs`; (trie node, segment) → child node.
    private let table: ByteKeyTable
    private let literalStubs: IndexGroups
    /// Trie node → the patterns whose literal prefix ends there. Node 0 is the root.
    private let patterns: IndexGroups

    /// `stubs` in load order; their positions are what lookups return.
    init(_ stubs: [Stub]) {
        var literalGroups: [String: Int] = [:]
        var literalMembers: [[Int32]] = []
        var children: [[String: Int32]] = [[:]]
        var nodePatterns: [[Int32]] = [[]]
        for (index, stub) in stubs.enumerated() {
            let path = stub.request.path
            if path.kind == .literal {
                if let group = literalGroups[path.literalPath] {
                    literalMembers[group].append(Int32(index))
                } else {
                    literalGroups[path.literalPath] = literalMembers.count
                    literalMembers.append([Int32(index)])
                }
                continue
            }
            var node = 0
            for segment in path.literalPrefix {
                if let child = children[node][segment] {
                    node = Int(child)
                } else {
                    children.append([:])
                    nodePatterns.append([])
                    children[node][segment] = Int32(children.count - 1)
                    node = children.count - 1
                }
            }
            nodePatterns[node].append(Int32(index))
        }
        var keys: [(scope: Int32, key: String, value: Int32)] = literalGroups.map { (Self.literalScope, $0.key, Int32($0.value)) }
        for (parent, edges) in children.enumerated() {
            keys += edges.map { (Int32(parent), $0.key, $0.value) }
        }
        table = ByteKeyTable(keys)
        literalStubs = IndexGroups(literalMembers)
        patterns = IndexGroups(nodePatterns)
    }

    var hasPatterns: Bool { !patterns.isEmpty }

    /// The literal stubs at exactly `path`, in load order.
    @inline(__always)
    func forEachLiteral(at path: UnsafeBufferPointer<UInt8>, _ body: (Int32) -> Void) {
        guard let group = table.value(scope: Self.literalScope, key: path) else { return }
        literalStubs.forEach(in: Int(group), body)
    }

    func literalStubs(at path: String) -> [Int32] {
        var found: [Int32] = []
        PathSegments.withBytes(of: path) { forEachLiteral(at: $0) { found.append($0) } }
        return found
    }

    /// Every pattern whose literal prefix is a prefix of `path`'s segments, shortest prefix first.
    @inline(__always)
    func forEachPattern(along path: PathSegments, _ body: (Int32) -> Void) {
        var node: Int32 = 0
        var depth = 0
        while true {
            patterns.forEach(in: Int(node), body)
            guard depth < path.count, let child = table.value(scope: node, key: path[depth]) else { return }
            node = child
            depth += 1
        }
    }
}

/// Lists of stub positions, all in one array: reading a group copies and retains nothing.
private struct IndexGroups: Sendable {
    private let starts: [Int32]
    private let members: [Int32]

    init(_ groups: [[Int32]]) {
        var starts: [Int32] = [0]
        var members: [Int32] = []
        for group in groups {
            members += group
            starts.append(Int32(members.count))
        }
        self.starts = starts
        self.members = members
    }

    var isEmpty: Bool { members.isEmpty }

    @inline(__always)
    func forEach(in group: Int, _ body: (Int32) -> Void) {
        for index in Int(starts[group])..<Int(starts[group + 1]) { body(members[index]) }
    }
}

/// An open-addressing hash table from (scope, byte string) to an `Int32`, probed with borrowed
/// bytes. The hash is FNV-1a with a final mix: keys come from the stub files, not from requests,
/// so a request cannot lengthen a probe sequence.
private struct ByteKeyTable: Sendable {
    private struct Slot {
        var hash: UInt64 = 0
        var scope: Int32 = 0
        /// -1: an empty slot.
        var value: Int32 = -1
        var keyStart: Int32 = 0
        var keyCount: Int32 = 0
    }

    private let slots: [Slot]
    private let keyBytes: [UInt8]
    private let mask: Int

    init(_ entries: [(scope: Int32, key: String, value: Int32)]) {
        // At most half full, so probe sequences stay short and always reach an empty slot.
        var capacity = 1
        while capacity < entries.count * 2 { capacity <<= 1 }
        var slots = [Slot](repeating: Slot(), count: capacity)
        var keyBytes: [UInt8] = []
        for entry in entries {
            let start = Int32(keyBytes.count)
            keyBytes += entry.key.utf8
            let hash = keyBytes.withUnsafeBufferPointer { Self.hash(entry.scope, $0.slice(start, Int32($0.count) - start)) }
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot].value >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Slot(hash: hash, scope: entry.scope, value: entry.value, keyStart: start, keyCount: Int32(keyBytes.count) - start)
        }
        self.slots = slots
        self.keyBytes = keyBytes
        self.mask = capacity - 1
    }

    func value(scope: Int32, key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(scope, key)
        return slots.withUnsafeBufferPointer { slots in
            keyBytes.withUnsafeBufferPointer { keyBytes in
                var index = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let slot = slots[index]
                    if slot.value < 0 { return nil }
                    if slot.hash == hash, slot.scope == scope, keyBytes.slice(slot.keyStart, slot.keyCount).bytesEqual(key) {
                        return slot.value
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    private static func hash(_ scope: Int32, _ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: scope))
        for byte in key {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // FNV's low bits, which pick the slot, mix poorly on their own.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}
