/// Parses ECMA-262 pattern syntax with the `u` flag (the grammar without Annex B's leniencies, so
/// `\a`, `\Z`, a lone `{` or `]`, `[\d-a]` and `\1` without a group are errors, as in
/// `new RegExp(p, "u")`).
///
/// Not supported, refused with an error although ECMA-262 accepts them: modifiers `(?i:…)` and
/// duplicate group names in different alternatives (both ES2025), and the Unicode properties
/// listed on `ECMAUnicodeProperty`.
struct ECMARegexParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// Capture groups opened so far (their indices are 1...captureCount).
    private var captureCount = 0
    /// Names of all groups in the pattern, in order, found by a pre-scan so that `\k<name>` and
    /// `\N` may refer forward.
    private let groupNames: [String: Int]
    private let totalCaptureCount: Int
    private var namesSeen: Set<String> = []
    /// Groups open around the current position. Parsing, compiling and the tree's other passes
    /// recurse once per level, so a limit keeps a hostile pattern from overflowing a thread's stack.
    private var groupDepth = 0
    static let maximumGroupDepth = 250

    static func parse(_ pattern: String) throws(ECMARegexError) -> (node: ECMARegexNode, captureCount: Int) {
        var parser = ECMARegexParser(Array(pattern.unicodeScalars))
        let node = try parser.parseDisjunction()
        if parser.position < parser.scalars.count {
            // Only a ')' stops a top-level disjunction early.
            throw .unmatchedParenthesis(at: parser.position)
        }
        return (node, parser.captureCount)
    }

    private init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        (totalCaptureCount, groupNames) = Self.scanGroups(scalars)
    }

    // MARK: Disjunction, alternative, term

    private mutating func parseDisjunction() throws(ECMARegexError) -> ECMARegexNode {
        var branches = [try parseAlternative()]
        while peek() == "|" {
            position += 1
            branches.append(try parseAlternative())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseAlternative() throws(ECMARegexError) -> ECMARegexNode {
        var items: [ECMARegexNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            items.append(try parseTerm())
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseTerm() throws(ECMARegexError) -> ECMARegexNode {
        let start = position
        let capturesBefore = captureCount
        let atom: ECMARegexNode
        var quantifiable = true
        switch scalars[position] {
        case "^":
            position += 1
            atom = .assertion(.start)
            quantifiable = false
        case "$":
            position += 1
            atom = .assertion(.end)
            quantifiable = false
        case "\\" where peek(1) == "b" || peek(1) == "B":
            atom = .assertion(peek(1) == "b" ? .wordBoundary : .notWordBoundary)
            position += 2
            quantifiable = false
        case "(":
            (atom, quantifiable) = try parseGroup()
        default:
            atom = try parseAtom()
        }
        guard let quantifier = try parseQuantifier() else { return atom }
        guard quantifiable else { throw .nothingToRepeat(at: start) }
        let captures = captureCount > capturesBefore ? (capturesBefore + 1)...captureCount : nil
        return .quantified(atom, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy, captures: captures)
    }

    /// `(…)`, `(?:…)`, `(?<name>…)`, `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`. With the u flag no
    /// lookaround may be quantified.
    private mutating func parseGroup() throws(ECMARegexError) -> (ECMARegexNode, quantifiable: Bool) {
        let open = position
        groupDepth += 1
        defer { groupDepth -= 1 }
        guard groupDepth <= Self.maximumGroupDepth else { throw .nestedTooDeeply(limit: Self.maximumGroupDepth, at: open) }
        position += 1
        var capture: Int?
        var lookaround: (behind: Bool, negative: Bool)?
        if peek() == "?" {
            switch (peek(1), peek(2)) {
            case (":", _): position += 2
            case ("=", _): position += 2; lookaround = (false, false)
            case ("!", _): position += 2; lookaround = (false, true)
            case ("<", "="): position += 3; lookaround = (true, false)
            case ("<", "!"): position += 3; lookaround = (true, true)
            case ("<", _):
                position += 2
                let nameStart = position
                let name = try parseGroupName()
                guard namesSeen.insert(name).inserted else { throw .duplicateGroupName(at: nameStart) }
                captureCount += 1
                capture = captureCount
            default:
                throw .invalidGroup(at: open)
            }
        } else {
            captureCount += 1
            capture = captureCount
        }
        let body = try parseDisjunction()
        guard peek() == ")" else { throw .unterminatedGroup(at: open) }
        position += 1
        if let lookaround {
            return (.lookaround(body, behind: lookaround.behind, negative: lookaround.negative), false)
        }
        return (.group(body, capture: capture), true)
    }

    /// After `(?<` or `\k<`: an identifier up to `>`, which is consumed.
    private mutating func parseGroupName() throws(ECMARegexError) -> String {
        guard let (name, end) = Self.readGroupName(scalars, from: position) else { throw .invalidGroupName(at: position) }
        position = end
        return name
    }

    private mutating func parseQuantifier() throws(ECMARegexError) -> (min: Int, max: Int?, greedy: Bool)? {
        guard let scalar = peek() else { return nil }
        var bounds: (min: Int, max: Int?)
        switch scalar {
        case "*": bounds = (0, nil); position += 1
        case "+": bounds = (1, nil); position += 1
        case "?": bounds = (0, 1); position += 1
        case "{":
            guard let braced = try parseBraceQuantifier() else { throw .incompleteQuantifier(at: position) }
            bounds = braced
        default:
            return nil
        }
        var greedy = true
        if peek() == "?" {
            greedy = false
            position += 1
        }
        if let next = peek(), next == "*" || next == "+" || next == "?" || next == "{" {
            throw .nothingToRepeat(at: position)
        }
        return (bounds.min, bounds.max, greedy)
    }

    /// `{n}`, `{n,}`, `{n,m}`; nil (position unchanged) when the brace does not start one.
    private mutating func parseBraceQuantifier() throws(ECMARegexError) -> (min: Int, max: Int?)? {
        let open = position
        position += 1
        guard let min = parseDecimal() else {
            position = open
            return nil
        }
        var max: Int? = min
        if peek() == "," {
            position += 1
            max = parseDecimal()
        }
        guard peek() == "}" else {
            position = open
            return nil
        }
        position += 1
        if let max, max < min { throw .quantifierOutOfOrder(at: open) }
        return (min, max)
    }

    /// Decimal digits, saturating (ECMA-262 allows any size; the compiler refuses huge counts).
    private mutating func parseDecimal() -> Int? {
        var value: Int?
        while let scalar = peek(), let digit = Self.decimalValue(scalar) {
            value = min((value ?? 0) * 10 + digit, Int(Int32.max))
            position += 1
        }
        return value
    }

    // MARK: Atoms

    private mutating func parseAtom() throws(ECMARegexError) -> ECMARegexNode {
        let scalar = scalars[position]
        switch scalar {
        case ".":
            position += 1
            return .anyButLineTerminator
        case "[":
            return .set(try parseClass())
        case "\\":
            return try parseAtomEscape()
        case "*", "+", "?":
            throw .nothingToRepeat(at: position)
        case "{":
            let brace = position
            throw (try parseBraceQuantifier()) != nil ? .nothingToRepeat(at: brace) : .loneQuantifierBracket(at: brace)
        case "}", "]":
            throw .loneQuantifierBracket(at: position)
        default:
            position += 1
            return .scalar(scalar.value)
        }
    }

    private mutating func parseAtomEscape() throws(ECMARegexError) -> ECMARegexNode {
        let backslash = position
        guard let letter = peek(1) else { throw .invalidEscape(at: backslash) }
        if let digit = Self.decimalValue(letter), digit != 0 {
            position += 1
            let number = parseDecimal() ?? 0
            guard number <= totalCaptureCount else { throw .invalidBackreference(at: backslash) }
            return .backreference(number)
        }
        if letter == "k" {
            position += 2
            guard peek() == "<" else { throw .invalidNamedReference(at: backslash) }
            position += 1
            guard let name = try? parseGroupName(), let index = groupNames[name] else {
                throw .invalidNamedReference(at: backslash)
            }
            return .backreference(index)
        }
        if let set = try parsePropertyOrClassEscape() { return .set(set) }
        return .scalar(try parseCharacterEscape(inClass: false))
    }

    /// `\d \D \s \S \w \W \p{…} \P{…}` at `position` (a backslash), or nil for other escapes.
    private mutating func parsePropertyOrClassEscape() throws(ECMARegexError) -> ECMAScalarSet? {
        guard let letter = peek(1) else { return nil }
        if let set = ECMAScalarSet.classEscape(letter) {
            position += 2
            return set
        }
        guard letter == "p" || letter == "P" else { return nil }
        let start = position
        position += 2
        guard peek() == "{" else { throw .invalidPropertyName(at: start) }
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek(), scalar != "}" {
            guard scalar.isASCII, scalar.properties.isAlphabetic || Self.decimalValue(scalar) != nil || scalar == "_" || scalar == "="
            else { throw .invalidPropertyName(at: start) }
            text.append(scalar)
            position += 1
        }
        guard peek() == "}" else { throw .invalidPropertyName(at: start) }
        position += 1
        let name = String(text)
        let resolved: ECMAUnicodeProperty.Resolved
        do {
            resolved = try ECMAUnicodeProperty.resolve(name)
        } catch .unsupported {
            throw .unsupportedProperty(name, at: start)
        } catch {
            throw .invalidPropertyName(at: start)
        }
        let negated = letter == "P"
        switch resolved {
        case .property(let property):
            return ECMAScalarSet(property: property, negated: negated)
        case .ranges(let ranges):
            var set = ECMAScalarSet(ranges: ranges)
            if negated { set = ECMAScalarSet(ranges: ECMAScalarSet.complement(set.ranges)) }
            return set
        }
    }

    /// A CharacterEscape (or, in a class, a ClassEscape that stands for one code point) at
    /// `position`, a backslash.
    private mutating func parseCharacterEscape(inClass: Bool) throws(ECMARegexError) -> UInt32 {
        let backslash = position
        guard let letter = peek(1) else { throw .invalidEscape(at: backslash) }
        position += 2
        switch letter {
        case "f": return 0x0C
        case "n": return 0x0A
        case "r": return 0x0D
        case "t": return 0x09
        case "v": return 0x0B
        case "c":
            guard let control = peek(), ("a"..."z").contains(control) || ("A"..."Z").contains(control) else {
                throw .invalidControlEscape(at: backslash)
            }
            position += 1
            return control.value % 32
        case "0":
            if let next = peek(), Self.decimalValue(next) != nil { throw .invalidDecimalEscape(at: backslash) }
            return 0
        case "x":
            guard let high = peek().flatMap(Self.hexValue), let low = peek(1).flatMap(Self.hexValue) else {
                throw .invalidEscape(at: backslash)
            }
            position += 2
            return UInt32(high * 16 + low)
        case "u":
            return try parseUnicodeEscapeBody(backslash: backslash)
        case "b" where inClass:
            return 0x08
        case "-" where inClass:
            return 0x2D
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return letter.value
        default:
            if inClass, Self.decimalValue(letter) != nil { throw .invalidClassEscape(at: backslash) }
            throw .invalidEscape(at: backslash)
        }
    }

    /// After `\u`: `XXXX` (a surrogate pair `\uD83D\uDC32` is one code point) or `{X…}`.
    private mutating func parseUnicodeEscapeBody(backslash: Int) throws(ECMARegexError) -> UInt32 {
        if peek() == "{" {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while let scalar = peek(), let digit = Self.hexValue(scalar) {
                value = value * 16 + UInt32(digit)
                guard value <= ECMAScalarSet.maximumScalar else { throw .invalidUnicodeEscape(at: backslash) }
                digits += 1
                position += 1
            }
            guard digits > 0, peek() == "}" else { throw .invalidUnicodeEscape(at: backslash) }
            position += 1
            return value
        }
        guard let lead = parseFourHexDigits() else { throw .invalidUnicodeEscape(at: backslash) }
        if (0xD800...0xDBFF).contains(lead), peek() == "\\", peek(1) == "u" {
            let save = position
            position += 2
            if let trail = parseFourHexDigits(), (0xDC00...0xDFFF).contains(trail) {
                return 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
            }
            position = save
        }
        return lead
    }

    private mutating func parseFourHexDigits() -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = peek(offset).flatMap(Self.hexValue) else { return nil }
            value = value * 16 + UInt32(digit)
        }
        position += 4
        return value
    }

    // MARK: Character classes

    private mutating func parseClass() throws(ECMARegexError) -> ECMAScalarSet {
        let open = position
        position += 1
        var set = ECMAScalarSet()
        if peek() == "^" {
            position += 1
            set.negate()
        }
        while true {
            guard let scalar = peek() else { throw .unterminatedCharacterClass(at: open) }
            if scalar == "]" {
                position += 1
                break
            }
            let lowerStart = position
            let lower = try parseClassAtom()
            guard peek() == "-", let afterDash = peek(1), afterDash != "]" else {
                add(lower, to: &set)
                continue
            }
            position += 1
            let upper = try parseClassAtom()
            guard case .scalar(let low) = lower, case .scalar(let high) = upper else {
                throw .invalidClassRange(at: lowerStart)
            }
            guard low <= high else { throw .classRangeOutOfOrder(at: lowerStart) }
            set.insert(low, high)
        }
        set.finish()
        return set
    }

    private enum ClassAtom {
        case scalar(UInt32)
        case set(ECMAScalarSet)
    }

    private func add(_ atom: ClassAtom, to set: inout ECMAScalarSet) {
        switch atom {
        case .scalar(let value): set.insert(value, value)
        case .set(let other): set.formUnion(other)
        }
    }

    private mutating func parseClassAtom() throws(ECMARegexError) -> ClassAtom {
        let scalar = scalars[position]
        guard scalar == "\\" else {
            position += 1
            return .scalar(scalar.value)
        }
        if peek(1) == "B" { throw .invalidClassEscape(at: position) }
        if let set = try parsePropertyOrClassEscape() { return .set(set) }
        if peek(1) == "k" { throw .invalidClassEscape(at: position) }
        return .scalar(try parseCharacterEscape(inClass: true))
    }

    // MARK: Helpers

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    private static func decimalValue(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value - 0x30) : nil
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "0"..."9": Int(scalar.value - 0x30)
        case "a"..."f": Int(scalar.value - 0x61 + 10)
        case "A"..."F": Int(scalar.value - 0x41 + 10)
        default: nil
        }
    }
}
