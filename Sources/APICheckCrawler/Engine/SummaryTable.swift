import APICheckHypermedia

/// URL keys and their summaries in one open-addressing table (linear probing), kept between 68%
/// and 85% full: it grows by a quarter, not by doubling.
///
/// The crawl's index is most of a large crawl's memory. Swift's `Dictionary` stays at most 3/4
/// full and doubles, so it is between 3/8 and 3/4 full: a million URLs took 2,097,152 slots
/// (58 MB). A ``URLKey`` is already a hash, so a key's slot is read from its own bits.
struct SummaryTable {
    private var keys: [URLKey] = []
    private var values: [ResourceSummary] = []
    /// One bit per slot: whether it holds a key.
    private var occupied: [UInt64] = []
    private(set) var count = 0

    private static let smallest = 64

    /// The summary of `key`, if it is in the table.
    subscript(key: URLKey) -> ResourceSummary? {
        guard count > 0 else { return nil }
        let (slot, found) = find(key)
        return found ? values[slot] : nil
    }

    /// Sets the summary of `key`; true when the key was not in the table.
    @discardableResult
    mutating func set(_ summary: ResourceSummary, for key: URLKey) -> Bool {
        // 85%: probing stays short (a few slots for a key present, about twenty for one absent
        // at the fullest), and a lookup reads one contiguous stretch of keys.
        if (count + 1) * 20 > keys.count * 17 { grow() }
        let (slot, found) = find(key)
        values[slot] = summary
        guard !found else { return false }
        keys[slot] = key
        occupied[slot >> 6] |= 1 << UInt64(slot & 63)
        count += 1
        return true
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: URLKey) -> (slot: Int, found: Bool) {
        // The key's high bits scaled to the capacity (any capacity, not only powers of two).
        var slot = Int(truncatingIfNeeded: key.high.multipliedFullWidth(by: UInt64(keys.count)).high)
        while occupied[slot >> 6] & (1 << UInt64(slot & 63)) != 0 {
            if keys[slot] == key { return (slot, true) }
            slot += 1
            if slot == keys.count { slot = 0 }
        }
        return (slot, false)
    }

    private mutating func grow() {
        let capacity = max(Self.smallest, keys.count + keys.count / 4)
        var bigger = SummaryTable()
        bigger.keys = [URLKey](repeating: URLKey(high: 0, low: 0), count: capacity)
        bigger.values = [ResourceSummary](repeating: ResourceSummary(state: .queued), count: capacity)
        bigger.occupied = [UInt64](repeating: 0, count: (capacity + 63) / 64)
        for (word, bits) in occupied.enumerated() where bits != 0 {
            for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 {
                let slot = word << 6 | bit
                bigger.set(values[slot], for: keys[slot])
            }
        }
        self = bigger
    }
}
