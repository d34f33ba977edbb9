/// Thompson NFA simulation ("Pike VM" without captures): all threads advance together one code point
/// at a time, and a thread list holds each instruction at most once, so a match costs
/// O(input length × program size) whatever the pattern: `^(a+)+$` on 50 a's and a b is 51 steps.
///
/// `test()` only asks whether a match exists, so thread priority and captures are not tracked,
/// and the search stops at the first thread that reaches `match`. The thread lists are sparse sets
/// in one stack-allocated block per call: the hot loop allocates nothing.
enum ECMARegexPikeVM {
    private struct ThreadList {
        let dense: UnsafeMutablePointer<Int32>
        let sparse: UnsafeMutablePointer<Int32>
        var count: Int32 = 0

        @inline(__always)
        func contains(_ pc: Int32) -> Bool {
            let slot = sparse[Int(pc)]
            return slot < count && dense[Int(slot)] == pc
        }

        @inline(__always)
        mutating func insert(_ pc: Int32) {
            sparse[Int(pc)] = count
            dense[Int(count)] = pc
            count += 1
        }
    }

    static func matches(_ program: ECMARegexProgram, _ input: ECMARegexInput) -> Bool {
        let size = program.instructions.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6 * size + 2) { memory in
            let base = memory.baseAddress!
            base.initialize(repeating: 0, count: memory.count)
            defer { base.deinitialize(count: memory.count) }
            return program.instructions.withUnsafeBufferPointer { instructions in
                program.sets.withUnsafeBufferPointer { sets in
                    run(
                        instructions, sets, input, anchored: program.isAnchoredAtStart, filter: program.firstScalars,
                        current: ThreadList(dense: base, sparse: base + size),
                        next: ThreadList(dense: base + 2 * size, sparse: base + 3 * size),
                        stack: base + 4 * size)
                }
            }
        }
    }

    private static func run(
        _ instructions: UnsafeBufferPointer<ECMARegexInstruction>, _ sets: UnsafeBufferPointer<ECMAScalarSet>,
        _ input: ECMARegexInput, anchored: Bool, filter: ECMARegexProgram.FirstScalars?,
        current initialCurrent: ThreadList, next initialNext: ThreadList, stack: UnsafeMutablePointer<Int32>
    ) -> Bool {
        var current = initialCurrent
        var next = initialNext
        var position = 0
        var previous = ECMARegexInput.none
        var (scalar, length) = input.scalar(at: 0)
        if filter?.contains(scalar) ?? true {
            if addThread(0, to: &current, instructions, stack, previous: previous, current: scalar) { return true }
        }
        while true {
            if scalar == ECMARegexInput.none { return false }
            let nextPosition = position + length
            let (following, followingLength) = input.scalar(at: nextPosition)
            next.count = 0
            var index: Int32 = 0
            while index < current.count {
                let pc = current.dense[Int(index)]
                index += 1
                let instruction = instructions[Int(pc)]
                let consumed: Bool
                switch instruction.opcode {
                case .scalar: consumed = scalar == UInt32(bitPattern: instruction.a)
                case .set: consumed = sets[Int(instruction.a)].contains(scalar)
                case .any: consumed = !ECMAScalarSet.isLineTerminator(scalar)
                default: consumed = false
                }
                if consumed, addThread(pc + 1, to: &next, instructions, stack, previous: scalar, current: following) {
                    return true
                }
            }
            if !anchored, filter?.contains(following) ?? true {
                if addThread(0, to: &next, instructions, stack, previous: scalar, current: following) { return true }
            }
            swap(&current, &next)
            previous = scalar
            scalar = following
            length = followingLength
            position = nextPosition
            if current.count == 0 {
                if anchored { return false }
                guard let filter else { continue }
                // No thread alive: jump to the next position a match can start at.
                while scalar != ECMARegexInput.none, !filter.contains(scalar) {
                    previous = scalar
                    position += length
                    (scalar, length) = input.scalar(at: position)
                }
                if scalar == ECMARegexInput.none { return false }
                if addThread(0, to: &current, instructions, stack, previous: previous, current: scalar) { return true }
            }
        }
    }

    /// Adds `start` and everything reachable from it without consuming input (following jumps,
    /// splits and assertions that hold between `previous` and `current`). True when `match` is
    /// reachable: the search is over.
    @inline(__always)
    private static func addThread(
        _ start: Int32, to list: inout ThreadList, _ instructions: UnsafeBufferPointer<ECMARegexInstruction>,
        _ stack: UnsafeMutablePointer<Int32>, previous: UInt32, current: UInt32
    ) -> Bool {
        var depth = 1
        stack[0] = start
        while depth > 0 {
            depth -= 1
            let pc = stack[depth]
            if list.contains(pc) { continue }
            list.insert(pc)
            let instruction = instructions[Int(pc)]
            switch instruction.opcode {
            case .jump:
                stack[depth] = instruction.a
                depth += 1
            case .split:
                stack[depth] = instruction.b
                stack[depth + 1] = instruction.a
                depth += 2
            case .assertStart:
                if previous == ECMARegexInput.none {
                    stack[depth] = pc + 1
                    depth += 1
                }
            case .assertEnd:
                if current == ECMARegexInput.none {
                    stack[depth] = pc + 1
                    depth += 1
                }
            case .assertWordBoundary, .assertNotWordBoundary:
                let boundary = ECMAScalarSet.isWordScalar(previous) != ECMAScalarSet.isWordScalar(current)
                if boundary == (instruction.opcode == .assertWordBoundary) {
                    stack[depth] = pc + 1
                    depth += 1
                }
            case .save, .clearCaptures, .markPosition, .requireProgress:
                stack[depth] = pc + 1
                depth += 1
            case .match:
                return true
            default:
                break  // consuming instructions wait in the list for the next code point
            }
        }
        return false
    }
}
