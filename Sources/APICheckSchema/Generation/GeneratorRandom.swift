/// The generator's own pseudo-random stream: SplitMix64 (Steele, Lea & Flood 2014), small and
/// fast, and deterministic across platforms and Swift versions, which `SystemRandomNumberGenerator`
/// is not. The same seed gives the same instances everywhere, so a failure found with a seed replays.
struct GeneratorRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for an independent stream, so that retrying one part does not shift every later draw.
    static func derive(_ seed: UInt64, _ salt: UInt64) -> UInt64 {
        var mixer = GeneratorRandom(seed: seed ^ (salt &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// A fresh stream split off this one.
    mutating func split() -> GeneratorRandom {
        GeneratorRandom(seed: next())
    }

    /// An integer in `range`, without modulo bias.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &self) < numerator
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element? {
        elements.isEmpty ? nil : elements[Int.random(in: 0..<elements.count, using: &self)]
    }
}
