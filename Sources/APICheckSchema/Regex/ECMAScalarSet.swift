/// A set of code points: what a character class, a class escape (`\d`, `\S`) or a property escape
/// (`\p{L}`) matches.
///
/// Ranges are kept sorted and merged; Unicode properties stay predicates (turning `\p{L}` into ranges
/// would mean asking 1.1 million scalars at compile time). Membership for ASCII, the common case in
/// schemas, is one bit test in a precomputed 128-bit map.
struct ECMAScalarSet: Sendable, Hashable {
    /// Inclusive bounds, flattened: `[lo0, hi0, lo1, hi1, …]`, sorted and merged after `finish()`.
    private(set) var ranges: [UInt32] = []
    /// Unicode property tests, each possibly negated (`\P{…}` inside a class).
    private(set) var properties: [PropertyTest] = []
    /// `[^…]`: the set is everything the items do not match.
    private(set) var isNegated = false
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0

    struct PropertyTest: Sendable, Hashable {
        var property: ECMAUnicodeProperty
        var isNegated: Bool
    }

    static let maximumScalar: UInt32 = 0x10FFFF

    init() {}

    init(ranges: [UInt32], negated: Bool = false) {
        self.ranges = ranges
        self.isNegated = negated
        finish()
    }

    init(property: ECMAUnicodeProperty, negated: Bool) {
        properties = [PropertyTest(property: property, isNegated: negated)]
        finish()
    }

    mutating func insert(_ lower: UInt32, _ upper: UInt32) {
        ranges.append(lower)
        ranges.append(upper)
    }

    /// Adds everything `other` matches (a class escape or property escape inside a class).
    mutating func formUnion(_ other: ECMAScalarSet) {
        if other.isNegated {
            // Only happens for a negated escape without properties, which `finish` keeps as ranges.
            let complement = Self.complement(other.ranges)
            ranges.append(contentsOf: complement)
        } else {
            ranges.append(contentsOf: other.ranges)
            properties.append(contentsOf: other.properties)
        }
    }

    mutating func negate() { isNegated.toggle() }

    /// Sorts and merges the ranges and computes the ASCII bitmap; call once after building.
    mutating func finish() {
        var pairs: [(UInt32, UInt32)] = []
        pairs.reserveCapacity(ranges.count / 2)
        var index = 0
        while index + 1 < ranges.count {
            pairs.append((ranges[index], ranges[index + 1]))
            index += 2
        }
        pairs.sort { $0.0 < $1.0 }
        var merged: [UInt32] = []
        for (lower, upper) in pairs {
            if let last = merged.last, lower <= last &+ 1 {
                merged[merged.count - 1] = max(last, upper)
            } else {
                merged.append(lower)
                merged.append(upper)
            }
        }
        ranges = merged
        // The ASCII bitmap from the ranges' bounds (no per-scalar search: classes are built for
        // every pattern, and format "regex" parses one per instance).
        var bitmap = (low: UInt64(0), high: UInt64(0))
        var rangeIndex = 0
        while rangeIndex + 1 < ranges.count, ranges[rangeIndex] < 128 {
            Self.setBits(&bitmap, from: ranges[rangeIndex], through: min(ranges[rangeIndex + 1], 127))
            rangeIndex += 2
        }
        if !properties.isEmpty {
            for scalar in UInt32(0)..<128 where itemsContain(scalar) {
                Self.setBits(&bitmap, from: scalar, through: scalar)
            }
        }
        asciiLow = isNegated ? ~bitmap.low : bitmap.low
        asciiHigh = isNegated ? ~bitmap.high : bitmap.high
    }

    /// Sets bits `lower...upper` (both below 128) of a 128-bit map.
    private static func setBits(_ bitmap: inout (low: UInt64, high: UInt64), from lower: UInt32, through upper: UInt32) {
        func mask(_ lower: UInt32, _ upper: UInt32) -> UInt64 {
            // bits lower...upper of one word, 0 <= lower <= upper < 64
            let width = upper - lower + 1
            return (width == 64 ? ~0 : (UInt64(1) << UInt64(width)) - 1) << UInt64(lower)
        }
        if lower < 64 { bitmap.low |= mask(lower, min(upper, 63)) }
        if upper >= 64 { bitmap.high |= mask(max(lower, 64) - 64, upper - 64) }
    }

    /// Whether the scalar is in the set. `scalar` may be a lone surrogate or the end-of-input
    /// sentinel: neither is in any set but a negated one.
    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 64 { return asciiLow >> UInt64(scalar) & 1 != 0 }
        if scalar < 128 { return asciiHigh >> UInt64(scalar - 64) & 1 != 0 }
        return slowContains(scalar)
    }

    /// Bitmaps of the ASCII members, for the compiler's first-scalar filter.
    var asciiBitmap: (low: UInt64, high: UInt64) { (asciiLow, asciiHigh) }

    /// Whether any scalar at or above 128 may be a member (conservative).
    var mayContainNonASCII: Bool {
        if isNegated || !properties.isEmpty { return true }
        return ranges.last.map { $0 >= 128 } ?? false
    }

    private func slowContains(_ scalar: UInt32) -> Bool {
        isNegated != itemsContain(scalar)
    }

    private func itemsContain(_ scalar: UInt32) -> Bool {
        if Self.rangesContain(ranges, scalar) { return true }
        if properties.isEmpty { return false }
        guard let unicodeScalar = Unicode.Scalar(scalar) else { return false }
        let scalarProperties = unicodeScalar.properties
        for test in properties where test.property.matches(unicodeScalar, scalarProperties) != test.isNegated {
            return true
        }
        return false
    }

    /// Binary search over flattened, sorted, merged inclusive ranges.
    static func rangesContain(_ ranges: [UInt32], _ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count / 2
        while low < high {
            let middle = (low + high) / 2
            if scalar < ranges[middle * 2] {
                high = middle
            } else if scalar > ranges[middle * 2 + 1] {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The complement of sorted, merged, flattened ranges within 0...0x10FFFF.
    static func complement(_ ranges: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        var next: UInt32 = 0
        var index = 0
        while index + 1 < ranges.count {
            if ranges[index] > next {
                result.append(next)
                result.append(ranges[index] - 1)
            }
            next = ranges[index + 1] &+ 1
            index += 2
        }
        if next <= maximumScalar {
            result.append(next)
            result.append(maximumScalar)
        }
        return result
    }

    /// Inversion list (start, end-exclusive, start, …) to flattened inclusive ranges.
    static func ranges(fromInversionList list: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(list.count)
        var index = 0
        while index + 1 < list.count {
            result.append(list[index])
            result.append(min(list[index + 1] - 1, maximumScalar))
            index += 2
        }
        return result
    }

    // MARK: The class escapes, as ECMA-262 defines them with the u flag and without i

    /// `\d`: ASCII digits only.
    static let digitRanges: [UInt32] = [0x30, 0x39]
    /// `\w`: `[A-Za-z0-9_]`.
    static let wordRanges: [UInt32] = [0x30, 0x39, 0x41, 0x5A, 0x5F, 0x5F, 0x61, 0x7A]
    /// `\s`: WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP, Zs) and LineTerminator (LF, CR, LS, PS).
    static let whitespaceRanges: [UInt32] = [
        0x09, 0x0D, 0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
        0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF,
    ]

    /// The set for `\d \D \s \S \w \W`, or nil for another letter.
    static func classEscape(_ letter: Unicode.Scalar) -> ECMAScalarSet? {
        switch letter {
        case "d": ECMAScalarSet(ranges: digitRanges)
        case "D": ECMAScalarSet(ranges: complement(digitRanges))
        case "s": ECMAScalarSet(ranges: whitespaceRanges)
        case "S": ECMAScalarSet(ranges: complement(whitespaceRanges))
        case "w": ECMAScalarSet(ranges: wordRanges)
        case "W": ECMAScalarSet(ranges: complement(wordRanges))
        default: nil
        }
    }

    /// `\w` membership for `\b`, `\B`; the sentinel for "no scalar" is not a word character.
    @inline(__always)
    static func isWordScalar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x30...0x39, 0x41...0x5A, 0x5F, 0x61...0x7A: true
        default: false
        }
    }

    /// What `.` does not match without the s flag: LF, CR, LS, PS.
    @inline(__always)
    static func isLineTerminator(_ scalar: UInt32) -> Bool {
        scalar == 0x0A || scalar == 0x0D || scalar == 0x2028 || scalar == 0x2029
    }
}
