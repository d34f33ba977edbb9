/// "Did you mean …?" for a name that is not known: the closest known name by edit distance, when
/// it is close enough to be a typo (at most 2 edits, and fewer than a third of the name).
public enum Suggestion {
    public static func closest(to name: String, in known: some Sequence<String>) -> String? {
        let target = Array(name.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(target, Array(candidate.lowercased().utf8))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance > 0 || best.name != name, best.distance <= max(1, min(2, (target.count - 1) / 3)) else { return nil }
        return best.name
    }

    /// ` (did you mean X?)`, or nothing.
    public static func didYouMean(_ name: String, in known: some Sequence<String>, quote: (String) -> String = { $0 }) -> String {
        closest(to: name, in: known).map { " (did you mean \(quote($0))?)" } ?? ""
    }

    /// Levenshtein distance with adjacent transpositions (a swap is one edit), bounded input.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count <= 256, b.count <= 256 else { return Int.max }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
