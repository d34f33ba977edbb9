/// A deterministic automaton built from the NFA program at compile time (subset construction), for
/// the patterns most schemas use: a match is then one table lookup per code point, several times
/// faster than the Pike VM (`^[a-z0-9-]+$` on 20 characters: about 0.1 µs).
///
/// A state is the set of NFA instructions about to run at a position, not yet followed through
/// jumps, splits and assertions, plus whether the previous code point was a word character. The
/// closure is taken when the next code point (or the end) is known, so `^`, `$`, `\b` and `\B`
/// are exact.
///
/// Input classes: without Unicode properties, code points are cut into intervals at every bound
/// an instruction tests and intervals treated alike share a class (a binary search for non-ASCII
/// input). With `\p{…}`, which does not cut into few intervals, a non-ASCII code point's class is
/// the bit mask of the (at most `propertyMatcherLimit`) distinct matchers that accept it.
///
/// Built only when small: no backreference or lookaround, at most `stateLimit` states, a bounded
/// table and bounded work; otherwise `build` returns nil and the Pike VM runs. Both are linear.
final class ECMARegexDFA: Sendable {
    static let stateLimit = 4_096
    static let tableLimit = 1 << 18
    static let workLimit = 500_000
    static let propertyMatcherLimit = 8

    private static let matchState: Int32 = -1
    private static let deadState: Int32 = -2

    /// What a consuming instruction tests, deduplicated; `word` is `\w`, for `\b` and `\B`.
    private enum Matcher: Hashable {
        case scalar(UInt32), set(Int32), any, word
    }

    private let classCount: Int
    private let asciiClasses: [UInt16]
    private let intervalStarts: [UInt32]
    private let intervalClasses: [UInt16]
    /// With Unicode properties: the matchers, and the class of each mask of them.
    private let maskMatchers: [Matcher]
    private let maskClasses: [UInt16]
    private let sets: [ECMAScalarSet]
    /// Indexed by a state's row (`state * classCount`) plus a class: the next state's row,
    /// `matchState` or `deadState`.
    private let transitions: [Int32]
    /// By state: whether the pattern matches if the input ends there.
    private let acceptsAtEnd: [Bool]

    /// Entries in the automaton's tables (transitions and input classes), for the compiler's
    /// budget of what a schema's patterns may occupy.
    var tableSize: Int {
        transitions.count + acceptsAtEnd.count + asciiClasses.count + intervalStarts.count + intervalClasses.count + maskClasses.count
    }

    private init(
        partition: InputPartition, sets: [ECMAScalarSet], transitions: [Int32], acceptsAtEnd: [Bool]
    ) {
        classCount = partition.signatures.count
        asciiClasses = partition.asciiClasses
        intervalStarts = partition.intervalStarts
        intervalClasses = partition.intervalClasses
        maskMatchers = partition.maskMatchers
        maskClasses = partition.maskClasses
        self.sets = sets
        self.transitions = transitions
        self.acceptsAtEnd = acceptsAtEnd
    }

    func matches(_ input: ECMARegexInput) -> Bool {
        let bytes = input.bytes
        return transitions.withUnsafeBufferPointer { transitions in
            asciiClasses.withUnsafeBufferPointer { asciiClasses in
                var row = 0  // the initial state
                var index = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    let inputClass: Int
                    if byte < 0x80 {
                        inputClass = Int(asciiClasses[Int(byte)])
                        index += 1
                    } else {
                        let (scalar, length) = input.scalar(at: index)
                        inputClass = nonASCIIClass(scalar)
                        index += length
                    }
                    let next = transitions[row + inputClass]
                    if next < 0 { return next == Self.matchState }
                    row = Int(next)
                }
                return acceptsAtEnd[row / classCount]
            }
        }
    }

    private func nonASCIIClass(_ scalar: UInt32) -> Int {
        if !maskClasses.isEmpty {
            var mask = 0
            for (bit, matcher) in maskMatchers.enumerated() where Self.accepts(matcher, scalar, sets) {
                mask |= 1 << bit
            }
            return Int(maskClasses[mask])
        }
        var low = 0
        var high = intervalStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if intervalStarts[middle] <= scalar { low = middle } else { high = middle - 1 }
        }
        return Int(intervalClasses[low])
    }

    private static func accepts(_ matcher: Matcher, _ scalar: UInt32, _ sets: [ECMAScalarSet]) -> Bool {
        switch matcher {
        case .scalar(let value): scalar == value
        case .set(let index): sets[Int(index)].contains(scalar)
        case .any: !ECMAScalarSet.isLineTerminator(scalar)
        case .word: ECMAScalarSet.isWordScalar(scalar)
        }
    }

    // MARK: Construction

    static func build(_ program: ECMARegexProgram) -> ECMARegexDFA? {
        guard !program.needsBacktracking, program.instructions.count <= 2_000 else { return nil }
        var matchers: [Matcher] = []
        var matcherIndices: [Matcher: Int] = [:]
        var matcherOfPC = Array(repeating: -1, count: program.instructions.count)
        var hasProperties = false
        var hasWordAssertion = false
        for (pc, instruction) in program.instructions.enumerated() {
            let matcher: Matcher
            switch instruction.opcode {
            case .scalar: matcher = .scalar(UInt32(bitPattern: instruction.a))
            case .set:
                matcher = .set(instruction.a)
                hasProperties = hasProperties || !program.sets[Int(instruction.a)].properties.isEmpty
            case .any: matcher = .any
            case .assertWordBoundary, .assertNotWordBoundary:
                hasWordAssertion = true
                continue
            default: continue
            }
            if let known = matcherIndices[matcher] {
                matcherOfPC[pc] = known
            } else {
                matcherOfPC[pc] = matchers.count
                matcherIndices[matcher] = matchers.count
                matchers.append(matcher)
            }
        }
        var wordMatcher: Int?
        if hasWordAssertion {
            wordMatcher = matchers.count
            matchers.append(.word)
        }
        guard let partition = InputPartition(matchers, program.sets, byMask: hasProperties) else { return nil }
        var builder = Builder(
            program: program, partition: partition, matcherOfPC: matcherOfPC, wordMatcher: wordMatcher)
        guard let (transitions, acceptsAtEnd) = builder.run() else { return nil }
        return ECMARegexDFA(partition: partition, sets: program.sets, transitions: transitions, acceptsAtEnd: acceptsAtEnd)
    }

    /// The input classes, each with its signature: which matchers accept its code points.
    private struct InputPartition {
        var signatures: [[UInt64]] = []
        var asciiClasses: [UInt16] = []
        var intervalStarts: [UInt32] = []
        var intervalClasses: [UInt16] = []
        var maskMatchers: [Matcher] = []
        var maskClasses: [UInt16] = []
        private var classBySignature: [[UInt64]: UInt16] = [:]

        init?(_ matchers: [Matcher], _ sets: [ECMAScalarSet], byMask: Bool) {
            func signature(_ scalar: UInt32) -> [UInt64] {
                var words = Array(repeating: UInt64(0), count: matchers.count / 64 + 1)
                for (index, matcher) in matchers.enumerated() where accepts(matcher, scalar, sets) {
                    words[index / 64] |= 1 << UInt64(index % 64)
                }
                return words
            }
            if byMask {
                guard matchers.count <= ECMARegexDFA.propertyMatcherLimit else { return nil }
                maskMatchers = matchers
                maskClasses = (0..<(1 << matchers.count)).map { classOf([UInt64($0)]) }
                asciiClasses = (UInt32(0)..<128).map { classOf(signature($0)) }
                return
            }
            var bounds: Set<UInt32> = [0, 128]
            func insert(_ ranges: [UInt32]) {
                var index = 0
                while index + 1 < ranges.count {
                    bounds.insert(ranges[index])
                    bounds.insert(ranges[index + 1] &+ 1)
                    index += 2
                }
            }
            for matcher in matchers {
                switch matcher {
                case .scalar(let value): insert([value, value])
                case .set(let index): insert(sets[Int(index)].ranges)
                case .any: insert([0x0A, 0x0A, 0x0D, 0x0D, 0x2028, 0x2029])
                case .word: insert(ECMAScalarSet.wordRanges)
                }
            }
            let starts = bounds.filter { $0 <= ECMAScalarSet.maximumScalar }.sorted()
            guard starts.count <= 4_096 else { return nil }
            for start in starts {
                intervalStarts.append(start)
                intervalClasses.append(classOf(signature(start)))
            }
            asciiClasses = (UInt32(0)..<128).map { classOf(signature($0)) }
        }

        private mutating func classOf(_ signature: [UInt64]) -> UInt16 {
            if let known = classBySignature[signature] { return known }
            let index = UInt16(signatures.count)
            signatures.append(signature)
            classBySignature[signature] = index
            return index
        }
    }

    /// Subset construction over states of (pending instructions, previous is a word character).
    private struct Builder {
        let program: ECMARegexProgram
        let partition: InputPartition
        let matcherOfPC: [Int]
        let wordMatcher: Int?
        var work = 0
        var marks: [Int]
        var generation = 0
        var states: [(pcs: [Int32], previousIsWord: Bool)] = []
        var stateIndex: [[Int32]: Int32] = [:]

        init(program: ECMARegexProgram, partition: InputPartition, matcherOfPC: [Int], wordMatcher: Int?) {
            self.program = program
            self.partition = partition
            self.matcherOfPC = matcherOfPC
            self.wordMatcher = wordMatcher
            marks = Array(repeating: 0, count: program.instructions.count)
        }

        private func signatureHas(_ matcher: Int, _ inputClass: Int) -> Bool {
            partition.signatures[inputClass][matcher / 64] >> UInt64(matcher % 64) & 1 != 0
        }

        mutating func run() -> (transitions: [Int32], acceptsAtEnd: [Bool])? {
            let classCount = partition.signatures.count
            let restart: [Int32] = program.isAnchoredAtStart ? [] : [0]
            var transitions: [Int32] = []
            var acceptsAtEnd: [Bool] = []
            _ = intern([0], previousIsWord: false, initial: true)
            var current = 0
            while current < states.count {
                let (pcs, previousIsWord) = states[current]
                let atStart = current == 0
                acceptsAtEnd.append(
                    closure(pcs, atStart: atStart, previousIsWord: previousIsWord, nextIsWord: false, atEnd: true).matched)
                // The closure depends on the class only through "is it a word character".
                var closures: [Bool: (pcs: [Int32], matched: Bool)] = [:]
                for inputClass in 0..<classCount {
                    guard work <= workLimit else { return nil }
                    let nextIsWord = wordMatcher.map { signatureHas($0, inputClass) } ?? false
                    let reached: (pcs: [Int32], matched: Bool)
                    if let known = closures[nextIsWord] {
                        reached = known
                    } else {
                        reached = closure(pcs, atStart: atStart, previousIsWord: previousIsWord, nextIsWord: nextIsWord, atEnd: false)
                        closures[nextIsWord] = reached
                    }
                    if reached.matched {
                        transitions.append(matchState)
                        continue
                    }
                    var next = restart
                    for pc in reached.pcs where signatureHas(matcherOfPC[Int(pc)], inputClass) {
                        next.append(pc + 1)
                    }
                    work += reached.pcs.count
                    if next.isEmpty {
                        transitions.append(deadState)
                        continue
                    }
                    work += next.count * 8  // deduplicating, sorting and hashing the set
                    let state = intern(Array(Set(next)).sorted(), previousIsWord: wordMatcher != nil && nextIsWord, initial: false)
                    transitions.append(state * Int32(classCount))
                }
                guard states.count <= stateLimit, states.count * classCount <= tableLimit else { return nil }
                current += 1
            }
            return (transitions, acceptsAtEnd)
        }

        private mutating func intern(_ pcs: [Int32], previousIsWord: Bool, initial: Bool) -> Int32 {
            // The initial state alone is at the start of input: keep it apart from equal sets later.
            let key = pcs + [initial ? -3 : previousIsWord ? -2 : -1]
            if let known = stateIndex[key] { return known }
            let index = Int32(states.count)
            states.append((pcs, previousIsWord))
            stateIndex[key] = index
            work += pcs.count
            return index
        }

        /// Follows jumps, splits and the assertions that hold here; returns the consuming
        /// instructions reached, or `matched` when `match` is reachable.
        private mutating func closure(
            _ starts: [Int32], atStart: Bool, previousIsWord: Bool, nextIsWord: Bool, atEnd: Bool
        ) -> (pcs: [Int32], matched: Bool) {
            generation += 1
            var stack = starts
            var consuming: [Int32] = []
            while let pc = stack.popLast() {
                work += 1
                guard marks[Int(pc)] != generation else { continue }
                marks[Int(pc)] = generation
                let instruction = program.instructions[Int(pc)]
                switch instruction.opcode {
                case .jump: stack.append(instruction.a)
                case .split: stack.append(contentsOf: [instruction.b, instruction.a])
                case .assertStart: if atStart { stack.append(pc + 1) }
                case .assertEnd: if atEnd { stack.append(pc + 1) }
                case .assertWordBoundary: if previousIsWord != nextIsWord { stack.append(pc + 1) }
                case .assertNotWordBoundary: if previousIsWord == nextIsWord { stack.append(pc + 1) }
                case .match: return ([], true)
                case .scalar, .set, .any: consuming.append(pc)
                default: stack.append(pc + 1)
                }
            }
            return (consuming, false)
        }
    }
}
