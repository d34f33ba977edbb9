/// A compiled pattern: a flat list of NFA instructions that both the Pike VM and the backtracking
/// matcher run, plus what the matchers precompute to skip work.
struct ECMARegexProgram: Sendable {
    /// Counted repetition expands the program (`a{1000}` is 1000 instructions); past this, a
    /// pattern is refused rather than costing memory and time on every match.
    static let instructionLimit = 100_000

    var instructions: [ECMARegexInstruction] = []
    var sets: [ECMAScalarSet] = []
    /// Capture groups, not counting the whole match (only the backtracking matcher records them).
    var captureCount = 0
    /// Positions saved by ECMA-262's empty-iteration check, one per nesting depth of loops.
    var registerCount = 0
    /// Backreferences or lookaround: run by the budgeted backtracking matcher, not the Pike VM.
    var needsBacktracking = false
    /// Every match starts at the start of the input: try only there.
    var isAnchoredAtStart = false
    /// Scalars a match can start with (nil: any, or the pattern can match the empty string), so a
    /// search skips positions no match can start at without running the VM.
    var firstScalars: FirstScalars?
    /// The same automaton made deterministic, when that is small (see `ECMARegexDFA.build`).
    var dfa: ECMARegexDFA?

    /// A superset of the scalars a match can start with.
    struct FirstScalars: Sendable, Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var nonASCII = false

        static let all = FirstScalars(low: ~0, high: ~0, nonASCII: true)

        @inline(__always)
        func contains(_ scalar: UInt32) -> Bool {
            if scalar < 64 { return low >> UInt64(scalar) & 1 != 0 }
            if scalar < 128 { return high >> UInt64(scalar - 64) & 1 != 0 }
            return nonASCII
        }

        mutating func formUnion(_ other: FirstScalars) {
            low |= other.low
            high |= other.high
            nonASCII = nonASCII || other.nonASCII
        }

        mutating func insert(_ scalar: UInt32) {
            if scalar < 64 {
                low |= 1 << UInt64(scalar)
            } else if scalar < 128 {
                high |= 1 << UInt64(scalar - 64)
            } else {
                nonASCII = true
            }
        }
    }
}

/// One NFA instruction: an opcode and two operands whose meaning depends on it (12 bytes).
struct ECMARegexInstruction: Sendable, Equatable {
    enum Opcode: UInt8, Sendable {
        /// Consume the code point `a` (forward; `…Backward` variants consume the one before the
        /// position, for lookbehind, which ECMA-262 matches right to left).
        case scalar, scalarBackward
        /// Consume a code point in `sets[a]`.
        case set, setBackward
        /// Consume any code point but a line terminator (`.`).
        case any, anyBackward
        /// Continue at `a`, and (with lower priority) at `b`.
        case split
        case jump
        case assertStart, assertEnd, assertWordBoundary, assertNotWordBoundary
        /// Backtracking only: record the position in capture slot `a`.
        case save
        /// Backtracking only: forget captures `a...b` (ECMA-262 resets a quantified atom's groups).
        case clearCaptures
        /// Backtracking only: remember the position in register `a` at the start of an iteration…
        case markPosition
        /// …and fail the iteration if it consumed nothing (ECMA-262's empty-check).
        case requireProgress
        /// Backtracking only: match what group `a` captured.
        case backreference, backreferenceBackward
        /// Backtracking only: run the lookaround body at the next instruction (kind `b`: bit 0
        /// negative, bit 1 behind) up to its `match`, then continue at `a`.
        case lookaround
        case match
    }

    var opcode: Opcode
    var a: Int32
    var b: Int32

    init(_ opcode: Opcode, _ a: Int32 = 0, _ b: Int32 = 0) {
        self.opcode = opcode
        self.a = a
        self.b = b
    }
}
