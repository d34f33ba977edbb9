/// An exact decimal number read from a JSON number lexeme: `significand × 10^exponent`.
///
/// JSON Schema compares numbers by value (`1.0 == 1`, `minimum: 0.1` against `0.1`), and a `Double`
/// gets both wrong at the edges (`12345678901234567890.5`, `1e308 multipleOf 0.123`). The form is
/// canonical (no leading or trailing zeros in the significand), so `==` and hashing are by value.
/// Up to 19 significant digits live in a `UInt64` and parsing allocates nothing; longer ones keep
/// their digits in an array.
struct DecimalNumber: Sendable, Hashable {
    /// True for numbers below zero (never for zero).
    var negative: Bool
    /// The significand when it has at most 19 digits (`large == nil`); 0 means the number is zero.
    var small: UInt64
    /// The significand's decimal digits (values 0-9, most significant first) when it has more than 19.
    var large: [UInt8]?
    /// The power of ten; saturates far beyond any meaningful range for absurd written exponents.
    var exponent: Int

    static let zero = DecimalNumber(negative: false, small: 0, large: nil, exponent: 0)
    /// Written exponents are clamped here: `1e99999999999999999999` is still larger than any other.
    private static let exponentLimit = 1 << 58

    var isZero: Bool { large == nil && small == 0 }

    /// Number of significant digits.
    var digitCount: Int {
        if let large { return large.count }
        if small == 0 { return 0 }
        var count = 0
        var value = small
        while value > 0 {
            value /= 10
            count += 1
        }
        return count
    }

    /// True when the value has no fractional part (`1.0`, `1e1000`, `0`).
    var isInteger: Bool { isZero || exponent >= 0 }

    /// The value as an `Int64`, when it is integral and fits.
    var int64: Int64? {
        guard large == nil, exponent >= 0, exponent < 19 else { return isZero ? 0 : nil }
        var value = small
        for _ in 0..<exponent {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = product
        }
        guard value <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(value) : Int64(value)
    }

    /// Parses a JSON number lexeme (the syntax is assumed valid: the parser checked it).
    init?(lexeme: String) {
        if let fast = Self.parsePlain(lexeme) {
            self = fast
            return
        }
        self.init(general: lexeme)
    }

    /// The common case in one tight loop: no exponent, at most 19 significant digits.
    @inline(__always) private static func parsePlain(_ lexeme: String) -> DecimalNumber? {
        // Over the UTF-8 bytes in place (small strings too): no iterator per byte.
        if let parsed = lexeme.utf8.withContiguousStorageIfAvailable({ parsePlain(bytes: $0) }) { return parsed }
        return parsePlain(bytes: Array(lexeme.utf8))
    }

    @inline(__always) private static func parsePlain<Bytes: Collection<UInt8>>(bytes lexeme: Bytes) -> DecimalNumber? {
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        var negative = false
        var afterPoint = false
        for byte in lexeme {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if afterPoint { exponent -= 1 }
                if significand == 0 && byte == UInt8(ascii: "0") { continue }
                guard digits < 19 else { return nil }
                significand = significand &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "-"): negative = true
            default: return nil
            }
        }
        if significand == 0 { return lexeme.isEmpty ? nil : .zero }
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        return DecimalNumber(negative: negative, small: significand, large: nil, exponent: exponent)
    }

    private init?(general lexeme: String) {
        var negative = false
        var small: UInt64 = 0
        var large: [UInt8]? = nil
        var digits = 0
        var pendingZeros = 0
        var exponent = 0
        var afterPoint = false
        var sawDigit = false
        var utf8 = lexeme.utf8.makeIterator()
        var exponentText: (negative: Bool, value: Int)? = nil
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var expNegative = false
                var value = 0
                while let e = utf8.next() {
                    if e == UInt8(ascii: "-") { expNegative = true }
                    else if e >= UInt8(ascii: "0"), e <= UInt8(ascii: "9") {
                        // Saturate: past the limit the number is beyond any comparison anyway.
                        value = value < Self.exponentLimit ? value * 10 + Int(e - UInt8(ascii: "0")) : Self.exponentLimit
                    } else if e != UInt8(ascii: "+") { return nil }
                }
                exponentText = (expNegative, min(value, Self.exponentLimit))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = byte - UInt8(ascii: "0")
                if afterPoint { exponent -= 1 }
                if digit == 0 {
                    if digits > 0 { pendingZeros += 1 }
                    continue
                }
                // Flush zeros seen between non-zero digits, then this digit.
                var toAppend = pendingZeros
                pendingZeros = 0
                while toAppend >= 0 {
                    let value = toAppend == 0 ? digit : 0
                    if large == nil, digits < 19 {
                        small = small * 10 + UInt64(value)
                    } else {
                        if large == nil { large = Self.digitsOf(small) }
                        large!.append(value)
                    }
                    digits += 1
                    toAppend -= 1
                }
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        exponent += pendingZeros
        if let exponentText {
            exponent = exponentText.negative ? exponent - exponentText.value : exponent + exponentText.value
        }
        if digits == 0 {
            self = .zero
            return
        }
        self.negative = negative
        self.small = large == nil ? small : 0
        self.large = large
        self.exponent = exponent
    }

    init(negative: Bool, small: UInt64, large: [UInt8]?, exponent: Int) {
        self.negative = negative
        self.small = small
        self.large = large
        self.exponent = exponent
    }

    /// An integer value.
    init(_ value: Int64) {
        self = DecimalNumber(lexeme: String(value))!
    }

    private static func digitsOf(_ value: UInt64) -> [UInt8] {
        var result: [UInt8] = []
        var value = value
        while value > 0 {
            result.append(UInt8(value % 10))
            value /= 10
        }
        return result.reversed()
    }

    /// The significand's digits, most significant first (allocates: slow paths only).
    var significandDigits: [UInt8] { large ?? Self.digitsOf(small) }

    /// Orders two numbers exactly.
    static func compare(_ a: DecimalNumber, _ b: DecimalNumber) -> Int {
        if a.isZero && b.isZero { return 0 }
        if a.isZero { return b.negative ? 1 : -1 }
        if b.isZero { return a.negative ? -1 : 1 }
        if a.negative != b.negative { return a.negative ? -1 : 1 }
        let magnitude = compareMagnitude(a, b)
        return a.negative ? -magnitude : magnitude
    }

    private static func compareMagnitude(_ a: DecimalNumber, _ b: DecimalNumber) -> Int {
        let da = a.digitCount, db = b.digitCount
        // Order of magnitude first: the position of the leading digit.
        let oa = da + a.exponent, ob = db + b.exponent
        if oa != ob { return oa < ob ? -1 : 1 }
        if a.large == nil, b.large == nil {
            // Same leading position: scale the shorter significand to the longer one's digit count
            // (at most 19 digits, so it fits).
            var ma = a.small, mb = b.small
            if da < db { for _ in 0..<(db - da) { ma *= 10 } } else if db < da { for _ in 0..<(da - db) { mb *= 10 } }
            return ma == mb ? 0 : (ma < mb ? -1 : 1)
        }
        let x = a.significandDigits, y = b.significandDigits
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0
            let q = i < y.count ? y[i] : 0
            if p != q { return p < q ? -1 : 1 }
        }
        return 0
    }

    /// Work allowed for the digit-by-digit remainder when the divisor has more than 19 digits,
    /// counted as steps (one per digit of the dividend, shifted) times the divisor's digits,
    /// since each step compares and subtracts numbers as long as the divisor.
    static let longDivisionWorkLimit = 4_000_000

    /// Whether `self / divisor` is an integer, exactly. `nil` when the divisor has more than 19
    /// digits and the long division would cost over `longDivisionWorkLimit`.
    func isMultiple(of divisor: DecimalNumber) -> Bool? {
        if isZero { return true }
        if divisor.isZero { return false }
        // self = m1·10^e1, divisor = m2·10^e2. When e1 < e2, m1 (which has no trailing zeros)
        // would have to be divisible by 10^(e2-e1): never.
        guard exponent >= divisor.exponent else { return false }
        let shift = exponent - divisor.exponent
        if divisor.large == nil {
            // Divisors like 0.01 have significand 1: every number with enough decimals is a multiple.
            if divisor.small == 1 { return true }
            if large == nil, divisor.small <= UInt64(UInt32.max) {
                // Products of two remainders below 2^32 fit in 64 bits: no 128-bit division.
                let m2 = divisor.small
                return Self.isDivisible(small % m2, timesPowerOfTen: shift, by: m2)
            }
            let m2 = UInt128(divisor.small)
            // m1 mod m2, digit by digit for a long m1.
            var remainder: UInt128
            if let large {
                remainder = 0
                for digit in large { remainder = (remainder * 10 + UInt128(digit)) % m2 }
            } else {
                remainder = UInt128(small) % m2
            }
            return Self.isDivisible(remainder, timesPowerOfTen: shift, by: m2)
        }
        // A divisor beyond 19 digits: long division over decimal digits, bounded.
        let divisorDigits = divisor.large!
        let dividend = significandDigits
        let (steps, stepsOverflow) = dividend.count.addingReportingOverflow(shift)
        let (work, workOverflow) = steps.multipliedReportingOverflow(by: divisorDigits.count)
        guard !stepsOverflow, !workOverflow, work <= Self.longDivisionWorkLimit else { return nil }
        var remainder: [UInt8] = []
        for step in 0..<steps {
            let digit = step < dividend.count ? dividend[step] : 0
            remainder.append(digit)
            while remainder.first == 0 { remainder.removeFirst() }
            while Self.compareDigits(remainder, divisorDigits) >= 0 { remainder = Self.subtractDigits(remainder, divisorDigits) }
        }
        return remainder.isEmpty
    }

    /// Whether `remainder · 10^exponent` is divisible by `modulus`, by modular exponentiation in
    /// O(log exponent) steps. `T` must hold the product of two values below `modulus` (`UInt64`
    /// for moduli below 2^32, `UInt128` for any 64-bit one).
    @inline(__always)
    private static func isDivisible<T: FixedWidthInteger & UnsignedInteger>(_ remainder: T, timesPowerOfTen exponent: Int, by modulus: T) -> Bool {
        if remainder == 0 { return true }
        var power: T = 1 % modulus
        var base: T = 10 % modulus
        var e = exponent
        while e > 0 {
            if e & 1 == 1 { power = (power * base) % modulus }
            base = (base * base) % modulus
            e >>= 1
        }
        return (remainder * power) % modulus == 0
    }

    private static func compareDigits(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    private static func subtractDigits(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a
        var borrow = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 {
            var digit = Int(a[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            borrow = 0
            if digit < 0 { digit += 10; borrow = 1 }
            result[i] = UInt8(digit)
            i -= 1
            j -= 1
        }
        while result.first == 0 { result.removeFirst() }
        return result
    }

    /// The number written plainly for messages (`0.01`, `1e+308` for extreme exponents).
    var description: String {
        if isZero { return "0" }
        let digits = String(significandDigits.map { Character(Unicode.Scalar($0 + 48)) })
        let sign = negative ? "-" : ""
        if exponent >= 0 && exponent <= 21 { return sign + digits + String(repeating: "0", count: exponent) }
        if exponent < 0 && -exponent <= 21 {
            let point = digits.count + exponent
            if point > 0 {
                return sign + String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            }
            return sign + "0." + String(repeating: "0", count: -point) + digits
        }
        return sign + digits + "e" + String(exponent)
    }
}
