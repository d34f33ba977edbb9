/// The properties or items of one instance that some keyword has evaluated, for
/// `unevaluatedProperties` and `unevaluatedItems`: a bit per member index (or item index).
///
/// Only subtrees under an `unevaluated*` keyword collect it; 64 members fit without allocating.
struct IndexBits: Sendable {
    var all = false
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    @inline(__always) func contains(_ index: Int) -> Bool {
        if all { return true }
        if index < 64 { return low & (1 << UInt64(index)) != 0 }
        let word = index / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(index % 64)) != 0
    }

    @inline(__always) mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 << UInt64(index)
            return
        }
        let word = index / 64 - 1
        if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
        high[word] |= 1 << UInt64(index % 64)
    }

    /// Marks `0..<end`.
    mutating func insertPrefix(_ end: Int) {
        if end >= 64 {
            low = ~0
            for index in 64..<end { insert(index) }
        } else if end > 0 {
            low |= (1 << UInt64(end)) &- 1
        }
    }

    mutating func formUnion(_ other: IndexBits) {
        if other.all { all = true }
        if all { return }
        low |= other.low
        if high.count < other.high.count { high.append(contentsOf: repeatElement(0, count: other.high.count - high.count)) }
        for (i, word) in other.high.enumerated() { high[i] |= word }
    }
}

/// What keywords of a schema evaluated in one instance (object members and array items).
struct Evaluated: Sendable {
    var properties = IndexBits()
    var items = IndexBits()

    mutating func formUnion(_ other: Evaluated) {
        properties.formUnion(other.properties)
        items.formUnion(other.items)
    }
}
