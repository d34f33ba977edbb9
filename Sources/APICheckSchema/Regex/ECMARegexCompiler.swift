/// Turns a parsed pattern into an `ECMARegexProgram`.
struct ECMARegexCompiler {
    private var program = ECMARegexProgram()
    private var setIndices: [ECMAScalarSet: Int32] = [:]
    private var loopDepth = 0

    static func compile(_ node: ECMARegexNode, captureCount: Int) throws(ECMARegexError) -> ECMARegexProgram {
        var compiler = ECMARegexCompiler()
        compiler.program.needsBacktracking = node.needsBacktracking
        compiler.program.captureCount = captureCount
        compiler.program.isAnchoredAtStart = node.isAnchoredAtStart
        // Refuse a huge expansion up front rather than after emitting 100,000 instructions.
        guard Self.minimumSize(of: node) < ECMARegexProgram.instructionLimit else {
            throw .programTooLarge(limit: ECMARegexProgram.instructionLimit, at: 0)
        }
        try compiler.compile(node, backward: false)
        try compiler.emit(.match)
        let first = Self.firstScalars(of: node)
        if !first.nullable && first.scalars != .all { compiler.program.firstScalars = first.scalars }
        compiler.program.dfa = ECMARegexDFA.build(compiler.program)
        return compiler.program
    }

    private var forBacktracking: Bool { program.needsBacktracking }
    private var count: Int32 { Int32(program.instructions.count) }

    @discardableResult
    private mutating func emit(_ opcode: ECMARegexInstruction.Opcode, _ a: Int32 = 0, _ b: Int32 = 0) throws(ECMARegexError) -> Int {
        guard program.instructions.count < ECMARegexProgram.instructionLimit else {
            throw .programTooLarge(limit: ECMARegexProgram.instructionLimit, at: 0)
        }
        program.instructions.append(ECMARegexInstruction(opcode, a, b))
        return program.instructions.count - 1
    }

    private mutating func compile(_ node: ECMARegexNode, backward: Bool) throws(ECMARegexError) {
        switch node {
        case .empty:
            break
        case .scalar(let value):
            try emit(backward ? .scalarBackward : .scalar, Int32(bitPattern: value))
        case .set(let set):
            let index: Int32
            if let known = setIndices[set] {
                index = known
            } else {
                index = Int32(program.sets.count)
                program.sets.append(set)
                setIndices[set] = index
            }
            try emit(backward ? .setBackward : .set, index)
        case .anyButLineTerminator:
            try emit(backward ? .anyBackward : .any)
        case .sequence(let items):
            for item in backward ? items.reversed() : items {
                try compile(item, backward: backward)
            }
        case .alternation(let branches):
            var jumpsToEnd: [Int] = []
            for (index, branch) in branches.enumerated() {
                guard index < branches.count - 1 else {
                    try compile(branch, backward: backward)
                    break
                }
                let split = try emit(.split, count + 1)
                try compile(branch, backward: backward)
                jumpsToEnd.append(try emit(.jump))
                program.instructions[split].b = count
            }
            for jump in jumpsToEnd { program.instructions[jump].a = count }
        case .group(let body, let capture):
            guard let capture, forBacktracking else {
                try compile(body, backward: backward)
                return
            }
            let startSlot = Int32(capture * 2)
            try emit(.save, backward ? startSlot + 1 : startSlot)
            try compile(body, backward: backward)
            try emit(.save, backward ? startSlot : startSlot + 1)
        case .assertion(let assertion):
            switch assertion {
            case .start: try emit(.assertStart)
            case .end: try emit(.assertEnd)
            case .wordBoundary: try emit(.assertWordBoundary)
            case .notWordBoundary: try emit(.assertNotWordBoundary)
            }
        case .lookaround(let body, let behind, let negative):
            let look = try emit(.lookaround, 0, (negative ? 1 : 0) | (behind ? 2 : 0))
            try compile(body, backward: behind)
            try emit(.match)
            program.instructions[look].a = count
        case .backreference(let group):
            try emit(backward ? .backreferenceBackward : .backreference, Int32(group))
        case .quantified(let body, let min, let max, let greedy, let captures):
            try compileQuantified(body, min: min, max: max, greedy: greedy, captures: captures, backward: backward)
        }
    }

    /// `min` copies of the body, then a loop (no maximum) or `max - min` optional copies, each
    /// behind a split that prefers entering (greedy) or leaving (lazy).
    private mutating func compileQuantified(
        _ body: ECMARegexNode, min: Int, max: Int?, greedy: Bool, captures: ClosedRange<Int>?, backward: Bool
    ) throws(ECMARegexError) {
        let emptyCheck = forBacktracking && body.canMatchEmpty
        for _ in 0..<min {
            try compileIteration(body, captures: captures, emptyCheck: false, backward: backward)
        }
        func patch(_ split: Int, exit: Int32, into compiler: inout ECMARegexCompiler) {
            let enter = Int32(split + 1)
            compiler.program.instructions[split].a = greedy ? enter : exit
            compiler.program.instructions[split].b = greedy ? exit : enter
        }
        if let max {
            guard max > min else { return }
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(try emit(.split))
                try compileIteration(body, captures: captures, emptyCheck: emptyCheck, backward: backward)
            }
            for split in splits { patch(split, exit: count, into: &self) }
        } else {
            let split = try emit(.split)
            try compileIteration(body, captures: captures, emptyCheck: emptyCheck, backward: backward)
            try emit(.jump, Int32(split))
            patch(split, exit: count, into: &self)
        }
    }

    private mutating func compileIteration(
        _ body: ECMARegexNode, captures: ClosedRange<Int>?, emptyCheck: Bool, backward: Bool
    ) throws(ECMARegexError) {
        let register = Int32(loopDepth)
        if emptyCheck {
            try emit(.markPosition, register)
            loopDepth += 1
            program.registerCount = Swift.max(program.registerCount, loopDepth)
        }
        if forBacktracking, let captures {
            try emit(.clearCaptures, Int32(captures.lowerBound), Int32(captures.upperBound))
        }
        try compile(body, backward: backward)
        if emptyCheck {
            loopDepth -= 1
            try emit(.requireProgress, register)
        }
    }

    /// A lower bound on the instructions `node` compiles to (saturating).
    private static func minimumSize(of node: ECMARegexNode) -> Int {
        func add(_ a: Int, _ b: Int) -> Int { a.addingReportingOverflow(b).overflow ? .max : a + b }
        func multiply(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? .max : a * b }
        switch node {
        case .empty: return 0
        case .scalar, .set, .anyButLineTerminator, .assertion, .backreference: return 1
        case .sequence(let items): return items.reduce(0) { add($0, minimumSize(of: $1)) }
        case .alternation(let branches): return branches.reduce(0) { add($0, minimumSize(of: $1)) }
        case .group(let body, _): return minimumSize(of: body)
        case .lookaround(let body, _, _): return add(minimumSize(of: body), 2)
        case .quantified(let body, let min, let max, _, _):
            let size = minimumSize(of: body)
            let optional = max.map { multiply($0 - min, add(size, 1)) } ?? add(size, 2)
            return add(multiply(min, size), optional)
        }
    }

    /// What a match can start with, and whether it can be empty (then no filter applies).
    private static func firstScalars(of node: ECMARegexNode) -> (scalars: ECMARegexProgram.FirstScalars, nullable: Bool) {
        typealias First = ECMARegexProgram.FirstScalars
        switch node {
        case .empty, .assertion, .lookaround:
            return (First(), true)
        case .backreference:
            return (.all, true)
        case .scalar(let value):
            var first = First()
            first.insert(value)
            return (first, false)
        case .set(let set):
            let bitmap = set.asciiBitmap
            return (First(low: bitmap.low, high: bitmap.high, nonASCII: set.mayContainNonASCII), false)
        case .anyButLineTerminator:
            return (First(low: ~(1 << 0x0A | 1 << 0x0D), high: ~0, nonASCII: true), false)
        case .sequence(let items):
            var result = First()
            for item in items {
                let first = firstScalars(of: item)
                result.formUnion(first.scalars)
                if !first.nullable { return (result, false) }
            }
            return (result, true)
        case .alternation(let branches):
            var result = First()
            var nullable = false
            for branch in branches {
                let first = firstScalars(of: branch)
                result.formUnion(first.scalars)
                nullable = nullable || first.nullable
            }
            return (result, nullable)
        case .group(let body, _):
            return firstScalars(of: body)
        case .quantified(let body, let min, _, _, _):
            let first = firstScalars(of: body)
            return (first.scalars, first.nullable || min == 0)
        }
    }
}
