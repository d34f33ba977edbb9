/// One edge value for a templated read and what it tries, for people.
public struct ReadProbeValue: Sendable, Hashable {
    /// The value as URI text, substituted as written (see ``ReadProbeValues``).
    public var value: String
    /// What it tries: `one past the largest id (7)`, `beyond Int64`, `path traversal`.
    public var label: String

    public init(value: String, label: String) {
        self.value = value
        self.label = label
    }
}

/// Edge values for one variable of a URI template, strongest first.
///
/// A safe `GET` with any of them should answer 4xx (or 2xx where the value happens to exist),
/// never 5xx. The order is by how often each found a crash: an id that does not exist derived
/// from the ids seen, `0` and a number beyond Int64 (a FastAPI service answered 500 to
/// `GET /books/0` and `GET /authors/51475095436928655360`), then type and encoding edges.
///
/// Values are **already-encoded URI text**: the caller substitutes them as written and must not
/// percent-encode them again. The Unicode, traversal and NUL values are pre-encoded on purpose
/// (`%C3%A9`, `%2F`, `%00`) so they reach the server's decoder intact. Plain `../` is the
/// exception: it is left raw to see what a client, proxy or router does with dot segments; a
/// client that normalises it away simply reads the parent, which is still a safe `GET`.
/// Values equal to an observed one are left out: they exist, so they probe nothing.
public enum ReadProbeValues {
    /// A number above Int64 and UInt64 (20 digits), as in the measured FastAPI crash.
    static let beyondInt64 = "51475095436928655360"
    /// A UUID no server generated, to ask for a resource that does not exist.
    static let unseenUUID = "7f3c9e2a-5b1d-4e8f-a6c0-2d9b4f1e3a57"
    static let longLength = 2_000

    /// Up to `limit` edge values for `variable`, strongest first; deterministic.
    ///
    /// - Parameters:
    ///   - variable: the template variable's name (kept for labels; the values depend only on
    ///     `observed`).
    ///   - observed: the values seen for it in real URLs, used to derive an id that does not
    ///     exist and to pick type edges (`abc` only makes sense against numbers or UUIDs).
    ///   - limit: how many to return at most (the first `limit`).
    public static func values(for variable: String, observed: [String], limit: Int) -> [ReadProbeValue] {
        guard limit > 0 else { return [] }
        let seen = Set(observed)
        let shape = IdentifierShape(of: observed)
        var candidates: [ReadProbeValue] = []
        if let missing = unseenIdentifier(observed: observed, shape: shape, seen: seen) { candidates.append(missing) }
        candidates.append(ReadProbeValue(value: "0", label: "0"))
        candidates.append(ReadProbeValue(value: "-1", label: "-1"))
        candidates.append(ReadProbeValue(value: beyondInt64, label: "beyond Int64"))
        switch shape {
        case .integer, .none: candidates.append(ReadProbeValue(value: "abc", label: "not a number"))
        case .uuid: candidates.append(ReadProbeValue(value: "abc", label: "not a UUID"))
        case .other: break
        }
        candidates.append(ReadProbeValue(value: "", label: "empty"))
        candidates.append(ReadProbeValue(value: "%C3%A9t%C3%A9%F0%9F%93%9A", label: "percent-encoded Unicode"))
        candidates.append(ReadProbeValue(value: "..%2F..%2F..%2Fetc%2Fpasswd", label: "path traversal"))
        candidates.append(ReadProbeValue(value: "../", label: "path traversal (raw ../)"))
        let filler: Character = shape == .integer ? "9" : "a"
        candidates.append(ReadProbeValue(value: String(repeating: filler, count: longLength), label: "2,000 characters"))
        candidates.append(ReadProbeValue(value: "%00", label: "NUL"))
        if shape == .integer, let gap = DecimalDigits.firstGap(in: observed), !seen.contains(gap) {
            candidates.append(ReadProbeValue(value: gap, label: "a gap between the ids seen (\(gap))"))
        }
        var emitted = Set<String>()
        let fresh = candidates.filter { !seen.contains($0.value) && emitted.insert($0.value).inserted }
        return Array(fresh.prefix(limit))
    }

    /// An id of the observed shape that was not observed: max + 1 for integers, a fixed UUID for
    /// UUIDs, otherwise the first observed id with its last character changed within its class.
    private static func unseenIdentifier(observed: [String], shape: IdentifierShape?, seen: Set<String>) -> ReadProbeValue? {
        switch shape {
        case .none:
            return nil
        case .integer:
            let next = DecimalDigits.increment(DecimalDigits.maximum(of: observed))
            return ReadProbeValue(value: next, label: "one past the largest id (\(next))")
        case .uuid:
            let uppercase = observed.allSatisfy { $0 == $0.uppercased() }
            var candidate = uppercase ? unseenUUID.uppercased() : unseenUUID
            while seen.contains(candidate) { candidate = changingLastCharacter(of: candidate, hex: true, seen: seen) ?? candidate + "0" }
            return ReadProbeValue(value: candidate, label: "an unseen UUID")
        case .other:
            guard let first = observed.first,
                let changed = changingLastCharacter(of: first, hex: observed.allSatisfy(IdentifierShape.isHex), seen: seen)
            else { return nil }
            return ReadProbeValue(value: changed, label: "an unseen id like the seen ones (\(changed))")
        }
    }

    /// `text` with its last character replaced by another of its class (digit, lower-case or
    /// upper-case letter, hex digit when `hex`) so the shape stays, avoiding `seen`.
    private static func changingLastCharacter(of text: String, hex: Bool, seen: Set<String>) -> String? {
        guard let last = text.last else { return nil }
        let alphabet: [Character]
        switch last {
        case "0"..."9": alphabet = Array("0123456789")
        case "a"..."f" where hex: alphabet = Array("abcdef")
        case "A"..."F" where hex: alphabet = Array("ABCDEF")
        case "a"..."z": alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        case "A"..."Z": alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        default: alphabet = Array("xyz")
        }
        let stem = text.dropLast()
        let start = alphabet.firstIndex(of: last) ?? -1
        for step in 1...alphabet.count {
            let candidate = String(stem) + String(alphabet[(start + step + alphabet.count) % alphabet.count])
            if !seen.contains(candidate) { return candidate }
        }
        return nil
    }
}

/// The shape shared by every observed value of a variable, which decides the edge values.
enum IdentifierShape: Hashable {
    case integer
    case uuid
    case other

    /// `nil` when nothing was observed.
    init?(of observed: [String]) {
        guard !observed.isEmpty else { return nil }
        if observed.allSatisfy(DecimalDigits.isInteger) {
            self = .integer
        } else if observed.allSatisfy(Self.isUUID) {
            self = .uuid
        } else {
            self = .other
        }
    }

    static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isHexDigit)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// `8-4-4-4-12` hex digits, either case.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isHexDigit(byte) else { return false }
            }
        }
        return true
    }
}

/// Arithmetic on non-negative decimal strings of any length, so ids beyond Int64 still get a
/// correct max + 1.
enum DecimalDigits {
    static func isInteger(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Leading zeros dropped (`"007"` → `"7"`, `"000"` → `"0"`).
    static func normalised(_ text: String) -> String {
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    static func isLess(_ left: String, _ right: String) -> Bool {
        let a = normalised(left), b = normalised(right)
        return a.count != b.count ? a.count < b.count : a < b
    }

    /// The largest of `integers` (all decimal digits), normalised; `"0"` for none.
    static func maximum(of integers: [String]) -> String {
        integers.map(normalised).max(by: isLess) ?? "0"
    }

    static func increment(_ text: String) -> String {
        var digits = Array(normalised(text).utf8)
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] == UInt8(ascii: "9") {
                digits[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                digits[index] += 1
                return String(decoding: digits, as: UTF8.self)
            }
        }
        return "1" + String(decoding: digits, as: UTF8.self)
    }

    /// The smallest integer missing between the smallest and largest observed ones (a deleted
    /// row, most likely), when they fit in Int and the range is small enough to scan.
    static func firstGap(in integers: [String]) -> String? {
        let numbers = Set(integers.compactMap { Int(normalised($0)) })
        guard let low = numbers.min(), let high = numbers.max(), high - low < 100_000 else { return nil }
        var candidate = low
        while candidate < high {
            if !numbers.contains(candidate) { return String(candidate) }
            candidate += 1
        }
        return nil
    }
}
