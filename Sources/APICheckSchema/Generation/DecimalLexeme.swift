/// Exact arithmetic on JSON number lexemes for generation: `multipleOf: 0.01` must give `0.07`,
/// not `0.07000000000000001`, so numbers are chosen as integers `k` at a decimal scale `s`
/// (the value is `k / 10^s`), never through `Double`.
enum DecimalLexeme {
    /// `value = digits × 10^exponent`, digits without leading or trailing zeros (empty for zero).
    struct Parts {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    static func parse(_ lexeme: String) -> Parts? {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var afterPoint = false
        var bytes = Array(lexeme.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let written = Int(String(decoding: bytes, as: UTF8.self).replacing("+", with: "")),
                    written.magnitude < 1_000_000
                else { return nil }
                exponent += written
                break
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte - UInt8(ascii: "0"))
                if afterPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        while digits.first == 0 { digits.removeFirst() }
        while digits.last == 0 { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return Parts(negative: false, digits: [], exponent: 0) }
        return Parts(negative: negative, digits: digits, exponent: exponent)
    }

    static func isInteger(_ lexeme: String) -> Bool {
        guard let parts = parse(lexeme) else { return false }
        return parts.exponent >= 0
    }

    /// Digits after the decimal point the value needs (`0.25` → 2, `1e-3` → 3, `100` → 0).
    static func decimalPlaces(_ lexeme: String) -> Int {
        guard let parts = parse(lexeme) else { return 0 }
        return max(0, -parts.exponent)
    }

    /// ⌊value × 10^scale⌋ and whether that is exact; nil when it does not fit in `Int64`'s
    /// comfortable range (±9.2e17), so callers can clamp.
    static func scaledFloor(_ lexeme: String, scale: Int) -> (value: Int64, exact: Bool)? {
        guard let parts = parse(lexeme) else { return nil }
        if parts.digits.isEmpty { return (0, true) }
        let shift = parts.exponent + scale
        var magnitude: Int64 = 0
        var exact = true
        let kept = shift >= 0 ? parts.digits.count : parts.digits.count + shift
        if kept + max(shift, 0) > 18 { return nil }
        for (index, digit) in parts.digits.enumerated() {
            if index < kept { magnitude = magnitude * 10 + Int64(digit) } else if digit != 0 { exact = false }
        }
        if shift > 0 { for _ in 0..<shift { magnitude *= 10 } }
        if parts.negative { return (-magnitude - (exact ? 0 : 1), exact) }
        return (magnitude, exact)
    }

    /// The lexeme of `k / 10^scale`, shortest form (`250, 2` → `2.5`).
    static func format(_ k: Int64, scale: Int) -> String {
        let negative = k < 0
        var digits = String(k.magnitude)
        guard scale > 0 else { return (negative ? "-" : "") + digits }
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        let split = digits.index(digits.endIndex, offsetBy: -scale)
        var fraction = String(digits[split...])
        while fraction.last == "0" { fraction.removeLast() }
        let whole = String(digits[..<split])
        return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int64(x)
    }

    /// Least common multiple, nil on overflow.
    static func lcm(_ a: Int64, _ b: Int64) -> Int64? {
        guard a != 0, b != 0 else { return nil }
        let (product, overflow) = (a / gcd(a, b)).multipliedReportingOverflow(by: b)
        return overflow ? nil : Swift.abs(product)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
    }

    static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q
    }

    static func power10(_ exponent: Int) -> Int64? {
        guard exponent >= 0, exponent <= 18 else { return nil }
        var value: Int64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
