import APICheckJSON

/// The values of the edge-case catalog that do not depend on the schema: the strings and
/// numbers parsers, databases and normalisers are known to trip on.
enum EdgeValues {
    /// Text that reads the same but is encoded differently, or that many stacks mangle. NFC and
    /// NFD are written with explicit scalars: Swift compares `String`s by canonical equivalence,
    /// so the two would otherwise look like one value.
    static let unicodeTexts: [(label: String, text: String)] = [
        ("NFC Unicode", "Zo\u{00EB} Salda\u{00F1}a"),
        ("NFD Unicode", "Zoe\u{0308} Saldan\u{0303}a"),
        ("emoji", "\u{1F3AC} \u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"),
        ("right-to-left text", "\u{0645}\u{0631}\u{062D}\u{0628}\u{0627} \u{05E9}\u{05DC}\u{05D5}\u{05DD}"),
        ("U+0000", "a\u{0000}b"),
    ]

    /// Numbers at the edges of Int64 and Double, as lexemes (so none is rounded on the way).
    static let numbers: [(label: String, lexeme: String)] = [
        ("Int64 max", "9223372036854775807"),
        ("Int64 max + 1", "9223372036854775808"),
        ("Int64 min", "-9223372036854775808"),
        ("Int64 min - 1", "-9223372036854775809"),
        ("Double max", "1.7976931348623157e308"),
        ("beyond Double", "1e309"),
        ("smallest Double", "5e-324"),
        ("-0", "-0"),
    ]

    static let longTextLength = 10_000
    static let nestingDepth = 64

    /// `count` characters (Unicode scalars, as JSON Schema counts length) cycled from `seed`,
    /// so a string that matched a character-class pattern still does.
    static func text(count: Int, cycling seed: String) -> String {
        let scalars = Array(seed.unicodeScalars.isEmpty ? "a".unicodeScalars : seed.unicodeScalars)
        var result = String.UnicodeScalarView()
        for index in 0..<max(count, 0) { result.append(scalars[index % scalars.count]) }
        return String(result)
    }

    /// `lexeme` plus `delta`: exact in `Int64` for integers, through `Double` otherwise; `nil`
    /// when the result would not be a finite number.
    static func adding(_ delta: Int64, to lexeme: String) -> String? {
        if let integer = Int64(lexeme), case (let sum, false) = integer.addingReportingOverflow(delta) { return String(sum) }
        guard let value = Double(lexeme), value.isFinite else { return nil }
        let sum = value + Double(delta)
        guard sum.isFinite else { return nil }
        if case .number(let written) = JSONValue.number(sum) { return written }
        return nil
    }

    /// `depth` arrays, one in the other, around `innermost`.
    static func nestedArrays(depth: Int, around innermost: JSONValue) -> JSONValue {
        var value = innermost
        for _ in 0..<max(depth, 0) { value = .array([value]) }
        return value
    }

    /// `1,000` style grouping for labels.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// `characters` or `character`, for labels.
    static func characters(_ count: Int) -> String {
        count == 1 ? "1 character" : "\(grouped(count)) characters"
    }
}
