/// The parsed form of a pattern, before compilation to an `ECMARegexProgram`.
indirect enum ECMARegexNode: Sendable, Equatable {
    case empty
    /// One code point (a literal or a character escape).
    case scalar(UInt32)
    case set(ECMAScalarSet)
    /// `.`: any code point but a line terminator.
    case anyButLineTerminator
    case sequence([ECMARegexNode])
    case alternation([ECMARegexNode])
    /// `( … )` with its 1-based capture index, or `(?: … )` with nil.
    case group(ECMARegexNode, capture: Int?)
    /// `captures` are the groups inside `body`, which ECMA-262 resets at each iteration.
    case quantified(ECMARegexNode, min: Int, max: Int?, greedy: Bool, captures: ClosedRange<Int>?)
    case assertion(Assertion)
    case lookaround(ECMARegexNode, behind: Bool, negative: Bool)
    case backreference(Int)

    enum Assertion: Sendable, Equatable {
        case start, end, wordBoundary, notWordBoundary
    }

    /// Whether the node can match without consuming input (then a loop over it needs ECMA-262's
    /// empty-iteration check when backtracking).
    var canMatchEmpty: Bool {
        switch self {
        case .empty, .assertion, .lookaround, .backreference: true
        case .scalar, .set, .anyButLineTerminator: false
        case .sequence(let items): items.allSatisfy(\.canMatchEmpty)
        case .alternation(let branches): branches.contains(where: \.canMatchEmpty)
        case .group(let body, _): body.canMatchEmpty
        case .quantified(let body, let min, _, _, _): min == 0 || body.canMatchEmpty
        }
    }

    /// Whether matching needs the backtracking matcher (backreferences and lookaround).
    var needsBacktracking: Bool {
        switch self {
        case .empty, .scalar, .set, .anyButLineTerminator, .assertion: false
        case .lookaround, .backreference: true
        case .sequence(let items), .alternation(let items): items.contains(where: \.needsBacktracking)
        case .group(let body, _), .quantified(let body, _, _, _, _): body.needsBacktracking
        }
    }

    /// Whether every match must start at the beginning of the input (`^…`, or all branches so).
    var isAnchoredAtStart: Bool {
        switch self {
        case .assertion(.start): true
        case .sequence(let items): items.first?.isAnchoredAtStart ?? false
        case .alternation(let branches): !branches.isEmpty && branches.allSatisfy(\.isAnchoredAtStart)
        case .group(let body, _): body.isAnchoredAtStart
        case .quantified(let body, let min, _, _, _): min > 0 && body.isAnchoredAtStart
        default: false
        }
    }
}
