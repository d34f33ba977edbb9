/// Backtracking matcher for what an NFA simulation cannot do: backreferences (`\1`, `\k<name>`)
/// and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`). It follows ECMA-262's semantics exactly
/// (priority order, captures reset per iteration, empty iterations rejected, lookaround atomic,
/// lookbehind matched right to left) and may take exponential time, so every instruction
/// executed counts against a step budget; past it the answer is `.budgetExceeded`.
///
/// The choice-point stack is an explicit array (no recursion per input character), so long
/// inputs cannot overflow the call stack; only nested lookarounds recurse, as deep as the pattern
/// nests them.
struct ECMARegexBacktracker {
    private enum RunResult {
        case match, noMatch, budgetExceeded
    }

    /// A choice point to resume from, or an undo record for a capture slot or a register.
    private struct Entry {
        enum Kind: UInt8 { case branch, capture, register }
        var kind: Kind
        var index: Int32
        var value: Int
    }

    private let instructions: UnsafeBufferPointer<ECMARegexInstruction>
    private let sets: UnsafeBufferPointer<ECMAScalarSet>
    private let input: ECMARegexInput
    /// Capture slots (two per group, -1 when unset) and empty-check registers, in one
    /// stack-allocated block per call.
    private let captures: UnsafeMutablePointer<Int>
    private let registers: UnsafeMutablePointer<Int>
    private var stack: [Entry] = []
    private var steps = 0
    private let budget: Int

    static func matches(_ program: ECMARegexProgram, _ input: ECMARegexInput, stepBudget: Int) -> ECMARegex.Outcome {
        var steps = 0
        return matches(program, input, stepBudget: stepBudget, steps: &steps)
    }

    /// The same, adding the steps taken to `steps` (a caller bounding many matches together).
    static func matches(_ program: ECMARegexProgram, _ input: ECMARegexInput, stepBudget: Int, steps: inout Int) -> ECMARegex.Outcome {
        program.instructions.withUnsafeBufferPointer { instructions in
            program.sets.withUnsafeBufferPointer { sets in
                let captureSlots = 2 * (program.captureCount + 1)
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: captureSlots + program.registerCount) { slots in
                    let base = slots.baseAddress!
                    base.initialize(repeating: -1, count: slots.count)
                    defer { base.deinitialize(count: slots.count) }
                    var matcher = ECMARegexBacktracker(
                        instructions: instructions, sets: sets, input: input,
                        captures: base, registers: base + captureSlots, budget: stepBudget)
                    let outcome = matcher.search(anchored: program.isAnchoredAtStart, filter: program.firstScalars)
                    steps += min(matcher.steps, stepBudget)
                    return outcome
                }
            }
        }
    }

    private init(
        instructions: UnsafeBufferPointer<ECMARegexInstruction>, sets: UnsafeBufferPointer<ECMAScalarSet>,
        input: ECMARegexInput, captures: UnsafeMutablePointer<Int>, registers: UnsafeMutablePointer<Int>, budget: Int
    ) {
        self.instructions = instructions
        self.sets = sets
        self.input = input
        self.captures = captures
        self.registers = registers
        self.budget = budget
        stack.reserveCapacity(64)
    }

    /// Tries each start position in turn, as `RegExp.prototype.test` does.
    private mutating func search(anchored: Bool, filter: ECMARegexProgram.FirstScalars?) -> ECMARegex.Outcome {
        var start = 0
        while true {
            let (scalar, length) = input.scalar(at: start)
            if filter?.contains(scalar) ?? true {
                switch run(from: 0, at: start) {
                case .match: return .match
                case .budgetExceeded: return .budgetExceeded
                case .noMatch: break
                }
            }
            if anchored || scalar == ECMARegexInput.none { return .noMatch }
            start += length
        }
    }

    /// Runs from `startPC` until a `match` instruction (the pattern's, or a lookaround body's end).
    /// On `.match` the entries pushed stay on the stack (the caller decides what to keep); otherwise
    /// the stack is back where it was, with every capture and register restored.
    private mutating func run(from startPC: Int, at startPosition: Int) -> RunResult {
        let base = stack.count
        var pc = startPC
        var position = startPosition
        while true {
            steps += 1
            if steps > budget { return .budgetExceeded }
            let instruction = instructions[pc]
            var failed = false
            switch instruction.opcode {
            case .scalar, .set, .any:
                let (scalar, length) = input.scalar(at: position)
                if scalar != ECMARegexInput.none, accepts(instruction, scalar) {
                    position += length
                    pc += 1
                } else {
                    failed = true
                }
            case .scalarBackward, .setBackward, .anyBackward:
                let (scalar, length) = input.scalar(before: position)
                if scalar != ECMARegexInput.none, accepts(instruction, scalar) {
                    position -= length
                    pc += 1
                } else {
                    failed = true
                }
            case .split:
                stack.append(Entry(kind: .branch, index: instruction.b, value: position))
                pc = Int(instruction.a)
            case .jump:
                pc = Int(instruction.a)
            case .assertStart:
                failed = position != 0
                pc += 1
            case .assertEnd:
                failed = position != input.count
                pc += 1
            case .assertWordBoundary, .assertNotWordBoundary:
                let before = ECMAScalarSet.isWordScalar(input.scalar(before: position).value)
                let after = ECMAScalarSet.isWordScalar(input.scalar(at: position).value)
                failed = (before != after) != (instruction.opcode == .assertWordBoundary)
                pc += 1
            case .save:
                setCapture(Int(instruction.a), position)
                pc += 1
            case .clearCaptures:
                for slot in Int(instruction.a) * 2...Int(instruction.b) * 2 + 1 where captures[slot] != -1 {
                    setCapture(slot, -1)
                }
                pc += 1
            case .markPosition:
                let register = Int(instruction.a)
                stack.append(Entry(kind: .register, index: instruction.a, value: registers[register]))
                registers[register] = position
                pc += 1
            case .requireProgress:
                failed = registers[Int(instruction.a)] == position
                pc += 1
            case .backreference, .backreferenceBackward:
                if let end = matchBackreference(Int(instruction.a), at: position, backward: instruction.opcode == .backreferenceBackward) {
                    position = end
                    pc += 1
                } else {
                    failed = true
                }
            case .lookaround:
                let negative = instruction.b & 1 != 0
                let bodyBase = stack.count
                switch run(from: pc + 1, at: position) {
                case .budgetExceeded:
                    return .budgetExceeded
                case .match where negative:
                    unwind(to: bodyBase)
                    failed = true
                case .match:
                    // Lookaround is atomic: drop its choice points, keep the undo records so its
                    // captures are forgotten if the outer match backtracks past this point.
                    keepOnlyUndoRecords(above: bodyBase)
                    pc = Int(instruction.a)
                case .noMatch where negative:
                    pc = Int(instruction.a)
                case .noMatch:
                    failed = true
                }
            case .match:
                return .match
            }
            guard failed else { continue }
            // Backtrack to the most recent choice point, undoing captures and registers on the way.
            var resumed = false
            while stack.count > base {
                let entry = stack.removeLast()
                switch entry.kind {
                case .branch:
                    pc = Int(entry.index)
                    position = entry.value
                    resumed = true
                case .capture:
                    captures[Int(entry.index)] = entry.value
                case .register:
                    registers[Int(entry.index)] = entry.value
                }
                if resumed { break }
            }
            if !resumed { return .noMatch }
        }
    }

    @inline(__always)
    private func accepts(_ instruction: ECMARegexInstruction, _ scalar: UInt32) -> Bool {
        switch instruction.opcode {
        case .scalar, .scalarBackward: scalar == UInt32(bitPattern: instruction.a)
        case .set, .setBackward: sets[Int(instruction.a)].contains(scalar)
        default: !ECMAScalarSet.isLineTerminator(scalar)
        }
    }

    private mutating func setCapture(_ slot: Int, _ value: Int) {
        stack.append(Entry(kind: .capture, index: Int32(slot), value: captures[slot]))
        captures[slot] = value
    }

    /// The position after matching group `group`'s text (before it, going backward), or nil. A group
    /// that has not participated matches the empty string, as ECMA-262 says.
    private func matchBackreference(_ group: Int, at position: Int, backward: Bool) -> Int? {
        let start = captures[group * 2]
        let end = captures[group * 2 + 1]
        guard start >= 0, end >= 0 else { return position }
        let length = end - start
        if backward {
            guard position - length >= 0, input.bytesEqual(position - length, start, length: length) else { return nil }
            return position - length
        }
        guard position + length <= input.count, input.bytesEqual(position, start, length: length) else { return nil }
        return position + length
    }

    /// Pops everything above `base`, applying undo records.
    private mutating func unwind(to base: Int) {
        while stack.count > base {
            let entry = stack.removeLast()
            switch entry.kind {
            case .branch: break
            case .capture: captures[Int(entry.index)] = entry.value
            case .register: registers[Int(entry.index)] = entry.value
            }
        }
    }

    /// Removes choice points above `base` and keeps undo records in their order (the earliest record
    /// of a slot holds its value from before the lookaround, and is popped last).
    private mutating func keepOnlyUndoRecords(above base: Int) {
        var write = base
        for read in base..<stack.count where stack[read].kind != .branch {
            stack[write] = stack[read]
            write += 1
        }
        stack.removeSubrange(write...)
    }
}
