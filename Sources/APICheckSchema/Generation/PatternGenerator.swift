/// Strings from an ECMA-262 `pattern`, generated from the pattern's structure (as
/// hypothesis-jsonschema does with its regex strategy) rather than by guessing and testing.
///
/// This parses its own small subset, literals, classes and escapes, `.`, groups, alternation,
/// greedy/lazy quantifiers, anchors and back-references; lookaround is read and skipped (the
/// engine's validation, which runs on every result, has the last word). Patterns outside the
/// subset give `nil` and the caller falls back to plain strings checked against the engine.
struct PatternGenerator {
    indirect enum Node {
        case literal(Unicode.Scalar)
        case set(ScalarSet)
        case sequence([Node])
        case alternation([Node])
        case group(Node, capture: Int?)
        case repetition(Node, minimum: Int, maximum: Int?)
        case startAnchor
        case endAnchor
        case zeroWidth
        case backreference(Int)
    }

    /// A set of code points as ranges, possibly negated.
    struct ScalarSet {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool

        func contains(_ value: UInt32) -> Bool {
            ranges.contains { $0.contains(value) } != negated
        }
    }

    private let root: Node

    init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let node = parser.parseAlternation(depth: 0), parser.index == parser.scalars.count else { return nil }
        root = node
    }

    /// A string matching the pattern with a length in the bounds, or nil after a few tries.
    func generate(minLength: Int, maxLength: Int, short: Bool, _ random: inout GeneratorRandom) -> String? {
        for attempt in 0..<8 {
            var state = GenerationState(stretch: short && attempt == 0 ? 0 : (attempt < 4 ? 3 : max(3, minLength)))
            guard emit(root, &state, &random), state.output.count <= 10_000 else { continue }
            var output = state.output
            // Unanchored patterns match inside longer strings: pad where no anchor forbids it.
            while output.count < minLength {
                let filler = Unicode.Scalar(UInt8(random.int(in: 0x61...0x7A)))
                if !state.endAnchored { output.append(filler) } else if !state.startAnchored { output.insert(filler, at: 0) } else { break }
            }
            if output.count >= minLength, output.count <= maxLength {
                var scalars = String.UnicodeScalarView()
                scalars.append(contentsOf: output)
                return String(scalars)
            }
        }
        return nil
    }

    private struct GenerationState {
        var output: [Unicode.Scalar] = []
        var captures: [Int: [Unicode.Scalar]] = [:]
        var startAnchored = false
        var endAnchored = false
        var stretch: Int
    }

    /// Printable code points to draw negated classes and `.` from.
    private static let pool: [UInt32] = Array(0x20...0x7E) + [0xE9, 0xDF, 0x4E2D, 0x1F600]

    private func emit(_ node: Node, _ state: inout GenerationState, _ random: inout GeneratorRandom) -> Bool {
        guard state.output.count <= 10_000 else { return false }
        switch node {
        case .literal(let scalar):
            guard !state.endAnchored else { return false }  // text after `$`
            state.output.append(scalar)
        case .set(let set):
            guard !state.endAnchored else { return false }
            guard let scalar = Self.draw(set, &random) else { return false }
            state.output.append(scalar)
        case .sequence(let nodes):
            for inner in nodes where !emit(inner, &state, &random) { return false }
        case .alternation(let branches):
            guard let branch = random.pick(branches) else { return true }
            return emit(branch, &state, &random)
        case .group(let inner, let capture):
            let start = state.output.count
            guard emit(inner, &state, &random) else { return false }
            if let capture { state.captures[capture] = Array(state.output[start...]) }
        case .repetition(let inner, let minimum, let maximum):
            let upper = min(maximum ?? (minimum + state.stretch), minimum + max(state.stretch, 0) + 2, 1_000)
            let count = state.stretch == 0 ? minimum : random.int(in: minimum...max(minimum, upper))
            for _ in 0..<count where !emit(inner, &state, &random) { return false }
        case .startAnchor:
            guard state.output.isEmpty else { return false }
            state.startAnchored = true
        case .endAnchor:
            state.endAnchored = true
        case .zeroWidth:
            break
        case .backreference(let number):
            let captured = state.captures[number] ?? []
            guard captured.isEmpty || !state.endAnchored else { return false }
            state.output += captured
        }
        return true
    }

    private static func draw(_ set: ScalarSet, _ random: inout GeneratorRandom) -> Unicode.Scalar? {
        if set.negated {
            let allowed = pool.filter { set.contains($0) }
            return random.pick(allowed).flatMap(Unicode.Scalar.init)
        }
        for _ in 0..<8 {
            guard let range = random.pick(set.ranges) else { return nil }
            // Prefer printable ASCII inside a wide range such as [^...]-like `[\u0000-\uFFFF]`.
            let upper = range.upperBound > 0x7E && range.lowerBound <= 0x7E && random.chance(3, in: 4) ? 0x7E : range.upperBound
            let lower = range.lowerBound < 0x20 && upper >= 0x20 && random.chance(3, in: 4) ? 0x20 : range.lowerBound
            if let scalar = Unicode.Scalar(UInt32.random(in: lower...max(lower, upper), using: &random)) { return scalar }
        }
        return nil
    }

    // MARK: parsing

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var groupCount = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func parseAlternation(depth: Int) -> Node? {
            guard depth < 64 else { return nil }
            var branches: [Node] = []
            while true {
                guard let sequence = parseSequence(depth: depth) else { return nil }
                branches.append(sequence)
                guard peek == "|" else { break }
                index += 1
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseSequence(depth: Int) -> Node? {
            var nodes: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                guard var atom = parseAtom(depth: depth) else { return nil }
                if let (minimum, maximum) = parseQuantifier() {
                    if peek == "?" { index += 1 }  // lazy: same strings
                    atom = .repetition(atom, minimum: minimum, maximum: maximum)
                }
                nodes.append(atom)
            }
            return .sequence(nodes)
        }

        mutating func parseQuantifier() -> (Int, Int?)? {
            switch peek {
            case "*": index += 1; return (0, nil)
            case "+": index += 1; return (1, nil)
            case "?": index += 1; return (0, 1)
            case "{":
                let start = index
                index += 1
                let minimum = parseNumber()
                var maximum = minimum
                if peek == "," {
                    index += 1
                    maximum = parseNumber()
                } else if minimum == nil {
                    index = start; return nil
                }
                guard let minimum, peek == "}" else { index = start; return nil }
                index += 1
                return (minimum, maximum)
            default: return nil
            }
        }

        mutating func parseNumber() -> Int? {
            var value: Int?
            while let scalar = peek, let digit = Int(String(scalar)), scalar.isASCII {
                value = min((value ?? 0) * 10 + digit, 100_000)
                index += 1
            }
            return value
        }

        mutating func parseAtom(depth: Int) -> Node? {
            guard let scalar = peek else { return nil }
            index += 1
            switch scalar {
            case "^": return .startAnchor
            case "$": return .endAnchor
            case ".": return .set(ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true))
            case "[": return parseClass()
            case "(": return parseGroup(depth: depth)
            case "\\": return parseEscape(inClass: false).map { $0 }
            case "*", "+", "?": return nil
            default: return .literal(scalar)
            }
        }

        mutating func parseGroup(depth: Int) -> Node? {
            var capture: Int?
            var lookaround = false
            if peek == "?" {
                index += 1
                switch peek {
                case ":": index += 1
                case "=", "!": index += 1; lookaround = true
                case "<":
                    index += 1
                    if peek == "=" || peek == "!" {
                        index += 1; lookaround = true
                    } else {
                        while let scalar = peek, scalar != ">" { index += 1 }
                        guard peek == ">" else { return nil }
                        index += 1
                        groupCount += 1
                        capture = groupCount
                    }
                default: return nil
                }
            } else {
                groupCount += 1
                capture = groupCount
            }
            guard let inner = parseAlternation(depth: depth + 1), peek == ")" else { return nil }
            index += 1
            return lookaround ? .zeroWidth : .group(inner, capture: capture)
        }

        mutating func parseClass() -> Node? {
            var negated = false
            if peek == "^" { negated = true; index += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            while let scalar = peek, scalar != "]" {
                var lowSet: Node?
                index += 1
                if scalar == "\\" { lowSet = parseEscape(inClass: true) } else { lowSet = .literal(scalar) }
                guard let low = lowSet else { return nil }
                if case .literal(let start) = low, peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    let next = scalars[index]
                    index += 1
                    var high: Node? = .literal(next)
                    if next == "\\" { high = parseEscape(inClass: true) }
                    guard case .literal(let end)? = high, start.value <= end.value else { return nil }
                    ranges.append(start.value...end.value)
                    continue
                }
                switch low {
                case .literal(let single): ranges.append(single.value...single.value)
                case .set(let set) where !set.negated: ranges += set.ranges
                case .set(let set):
                    // A negated escape (\D, \W, \S) inside a class: its complement as ranges.
                    ranges += Self.complement(set.ranges)
                default: return nil
                }
            }
            guard peek == "]" else { return nil }
            index += 1
            if ranges.isEmpty && !negated { return nil }  // [] matches nothing
            return .set(ScalarSet(ranges: ranges, negated: negated))
        }

        static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            var next: UInt32 = 0
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
                next = max(next, range.upperBound + 1)
            }
            if next <= 0x10FFFF { result.append(next...0x10FFFF) }
            return result
        }

        static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x2028...0x2029, 0xFEFF...0xFEFF]

        mutating func parseEscape(inClass: Bool) -> Node? {
            guard let scalar = peek else { return nil }
            index += 1
            switch scalar {
            case "d": return .set(ScalarSet(ranges: Self.digits, negated: false))
            case "D": return .set(ScalarSet(ranges: Self.digits, negated: true))
            case "w": return .set(ScalarSet(ranges: Self.word, negated: false))
            case "W": return .set(ScalarSet(ranges: Self.word, negated: true))
            case "s": return .set(ScalarSet(ranges: Self.space, negated: false))
            case "S": return .set(ScalarSet(ranges: Self.space, negated: true))
            case "b": return inClass ? .literal("\u{8}") : .zeroWidth
            case "B": return inClass ? nil : .zeroWidth
            case "n": return .literal("\n")
            case "r": return .literal("\r")
            case "t": return .literal("\t")
            case "f": return .literal("\u{C}")
            case "v": return .literal("\u{B}")
            case "0": return .literal("\u{0}")
            case "c":
                guard let letter = peek, letter.properties.isAlphabetic, letter.isASCII else { return nil }
                index += 1
                return Unicode.Scalar(letter.value % 32).map(Node.literal)
            case "x": return parseHex(count: 2)
            case "u":
                if peek == "{" {
                    index += 1
                    var value: UInt32 = 0
                    while let digit = peek, digit != "}" {
                        guard let nibble = UInt32(String(digit), radix: 16), value < 0x110000 else { return nil }
                        value = value * 16 + nibble
                        index += 1
                    }
                    index += 1
                    return Unicode.Scalar(value).map(Node.literal)
                }
                return parseHex(count: 4)
            case "p", "P":
                guard peek == "{" else { return nil }
                var name = ""
                index += 1
                while let letter = peek, letter != "}" { name.unicodeScalars.append(letter); index += 1 }
                index += 1
                guard let ranges = Self.property(name) else { return nil }
                return .set(ScalarSet(ranges: ranges, negated: scalar == "P"))
            case "1"..."9":
                guard !inClass else { return nil }
                var number = Int(String(scalar)) ?? 0
                while let digit = peek, let value = Int(String(digit)), digit.isASCII { number = number * 10 + value; index += 1 }
                return .backreference(number)
            case "k": return nil
            default: return .literal(scalar)
            }
        }

        mutating func parseHex(count: Int) -> Node? {
            guard index + count <= scalars.count else { return nil }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[index..<(index + count)])
            guard let value = UInt32(text, radix: 16) else { return nil }
            index += count
            return Unicode.Scalar(value).map(Node.literal)
        }

        /// A few Unicode properties by samples wide enough for generation.
        static func property(_ name: String) -> [ClosedRange<UInt32>]? {
            switch name {
            case "L", "Letter", "Alphabetic", "Alpha": return [0x41...0x5A, 0x61...0x7A, 0xE0...0xF6]
            case "Lu", "Uppercase_Letter", "Uppercase": return [0x41...0x5A, 0xC0...0xD6]
            case "Ll", "Lowercase_Letter", "Lowercase": return [0x61...0x7A, 0xDF...0xF6]
            case "N", "Nd", "Number", "Decimal_Number", "digit": return [0x30...0x39]
            case "P", "Punctuation": return [0x21...0x23, 0x2C...0x2F]
            default: return nil
            }
        }
    }
}
