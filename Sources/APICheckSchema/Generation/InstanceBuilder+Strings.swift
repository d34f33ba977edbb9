import APICheckJSON

extension InstanceBuilder {
    /// Letters mostly, with the occasional space, digit and non-ASCII code point (two-byte,
    /// three-byte and astral), so that length in code points is exercised.
    private static let plainAlphabet: [Unicode.Scalar] =
        Array("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789  -_.".unicodeScalars)
    /// Words for text that reads like text in a mock body.
    private static let lorem = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor",
        "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim", "minim", "veniam", "quis", "nostrud",
    ]

    /// Words separated by spaces, exactly `length` code points, not ending in a space.
    private mutating func words(_ length: Int) -> String {
        var scalars: [Unicode.Scalar] = []
        while scalars.count < length {
            if !scalars.isEmpty { scalars.append(" ") }
            var word = Array((random.pick(Self.lorem) ?? "lorem").unicodeScalars)
            if scalars.isEmpty, let first = word.first, random.chance(1, in: 2) { word[0] = Unicode.Scalar(first.value - 32) ?? first }
            scalars += word
        }
        scalars = Array(scalars.prefix(length))
        if scalars.last == " " { scalars[scalars.count - 1] = "s" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    private static let wideAlphabet: [Unicode.Scalar] = ["é", "ß", "ø", "ñ", "中", "文", "😀", "🎬", "Ω", "ж"]

    mutating func makeString(_ c: SchemaConstraints, short: Bool, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        let minimum = c.minLength
        let maximum = c.maxLength ?? Int.max
        guard minimum <= 100_000 else { throw .budgetExceeded(at: c.minLengthPath, "minLength \(minimum) is more than the generator makes") }
        let asserting = env.options.formatAssertion
        var lastReason = "no string satisfied every constraint"
        var lastPath = c.patterns.first?.path ?? c.maxLengthPath
        for attempt in 0..<16 {
            var candidate: String?
            if let bad = c.badFormat {
                candidate = FormatSamples.invalid(bad, minLength: minimum, maxLength: maximum, &random)
            } else if let format = c.format, attempt < 12 {
                candidate = FormatSamples.sample(format, &random)
                if let made = candidate, !fits(made, minimum, maximum) || !c.patterns.allSatisfy({ env.probes.matches(made, pattern: $0.pattern) != false }) {
                    candidate = nil
                }
            }
            if candidate == nil, let pattern = c.patterns.first, attempt < 14 {
                candidate = PatternGenerator(pattern.pattern)?.generate(minLength: minimum, maxLength: maximum, short: short, &random)
            }
            if candidate == nil {
                if let format = c.format, asserting, FormatSamples.known(format), c.badFormat == nil {
                    lastReason = "no \(format) value fits the length and pattern constraints"
                    continue
                }
                candidate = plain(minimum, maximum, short: short && attempt == 0)
            }
            guard let made = candidate else { continue }
            guard fits(made, minimum, maximum) else { lastReason = "no generated string had a length in \(minimum)...\(maximum)"; continue }
            if let failed = c.patterns.first(where: { env.probes.matches(made, pattern: $0.pattern) == false }) {
                lastReason = "no generated string matched the pattern \(failed.pattern)"
                lastPath = failed.path
                continue
            }
            if c.notPatterns.contains(where: { env.probes.matches(made, pattern: $0) != false }) {
                lastReason = "every generated string matched the pattern"; continue
            }
            if asserting, let format = c.format, env.probes.matches(made, format: format) == false {
                lastReason = "no generated string passed format \(format)"; continue
            }
            if let bad = c.badFormat, env.probes.matches(made, format: bad) != false {
                lastReason = "no string failing format \(bad) found"; continue
            }
            if c.excluded.contains(.string(made)) { continue }
            return .string(made)
        }
        throw .attemptsExhausted(at: lastPath, attempts: 16, lastReason)
    }

    private func fits(_ string: String, _ minimum: Int, _ maximum: Int) -> Bool {
        let count = string.unicodeScalars.count
        return count >= minimum && count <= maximum
    }

    /// A string of a length between the bounds, short lengths more likely.
    private mutating func plain(_ minimum: Int, _ maximum: Int, short: Bool) -> String {
        let upper = min(maximum, minimum + (random.chance(1, in: 5) ? 40 : 10))
        let length = short ? minimum : random.int(in: minimum...max(minimum, upper))
        if !short, length >= 3, random.chance(1, in: 2) { return words(length) }
        var scalars = String.UnicodeScalarView()
        let wide = !short && random.chance(1, in: 4)
        for _ in 0..<length {
            if short {
                scalars.append("a")
            } else if wide && random.chance(1, in: 5) {
                scalars.append(random.pick(Self.wideAlphabet)!)
            } else {
                scalars.append(random.pick(Self.plainAlphabet)!)
            }
        }
        return String(scalars)
    }
}
