/// An ECMA-262 regular expression with the `u` flag, for JSON Schema's `pattern`,
/// `patternProperties` and format "regex", which the specification defines by ECMA-262.
///
/// `matches(_:stepBudget:)` answers what JavaScript's `new RegExp(pattern, "u").test(string)`
/// answers: an unanchored search over code points (a non-BMP character is one character).
///
/// Cost, which matters because schemas come from outside and one pattern may run on every
/// property of 100,000 instances:
/// - **Linear** (no budget needed): everything but backreferences and lookaround, run by a Pike VM
///   (`ECMARegexPikeVM`) in O(input × program) time, so `^(a+)+$`, `(a|a)*b` or `(x+x+)+y` cannot
///   explode. When the automaton is small it is also made deterministic at compile time
///   (`ECMARegexDFA`): a match then costs one table lookup per code point. Counted repetition
///   `{n,m}` is expanded when compiling, and a pattern whose program would exceed
///   `ECMARegexProgram.instructionLimit` instructions (or that nests groups deeper than
///   `ECMARegexParser.maximumGroupDepth`) is refused.
/// - **Budgeted**: a pattern with a backreference (`\1`, `\k<n>`) or lookaround (`(?=`, `(?!`,
///   `(?<=`, `(?<!`) runs by backtracking (`ECMARegexBacktracker`); each instruction it executes is
///   a step, and past `stepBudget` steps the outcome is `.budgetExceeded`.
///
/// Syntax is ECMA-262's with the `u` flag; what is refused although valid is listed on
/// `ECMARegexParser` (modifiers, escapes in group names, duplicate names) and `ECMAUnicodeProperty`
/// (scripts beyond a common dozen, a few emoji properties). No flags: no `i`, `m`, `s`, `v`.
///
/// ```swift
/// let regex = try ECMARegex("^[a-z0-9-]+$")
/// regex.matches("kebab-case-1", stepBudget: 1_000_000)   // .match
/// ```
struct ECMARegex: Sendable {
    /// What a search found; `.budgetExceeded` only for patterns that need backtracking.
    enum Outcome: Sendable, Equatable {
        case match, noMatch, budgetExceeded
    }

    /// The source text, as given.
    let pattern: String
    /// Behind one reference, so copying a regex or calling `matches` retains one object, not
    /// every array of the program (which showed as a fixed cost per call).
    private let compiled: Compiled

    private final class Compiled: Sendable {
        let program: ECMARegexProgram
        init(_ program: ECMARegexProgram) { self.program = program }
    }

    private var program: ECMARegexProgram { compiled.program }

    /// Parses and compiles `pattern`, throwing where `new RegExp(pattern, "u")` throws a
    /// SyntaxError (and for the few valid constructs this engine does not support).
    init(_ pattern: String) throws(ECMARegexError) {
        self.pattern = pattern
        let parsed = try ECMARegexParser.parse(pattern)
        compiled = Compiled(try ECMARegexCompiler.compile(parsed.node, captureCount: parsed.captureCount))
    }

    /// Whether `pattern` is ECMA-262 syntax (with the `u` flag), without compiling it: for format
    /// "regex", which checks many strings and never matches with them. About a microsecond for a
    /// short pattern, where `init` also builds the automata. (A pattern too large to compile is
    /// still valid syntax; the few unsupported properties count as invalid.)
    static func isValidSyntax(_ pattern: String) -> Bool {
        (try? ECMARegexParser.parse(pattern)) != nil
    }

    /// Whether the pattern matches somewhere in `string`. `stepBudget` bounds the backtracking
    /// matcher only; linear-time patterns never exceed it.
    func matches(_ string: String, stepBudget: Int) -> Outcome {
        let compiled = self.compiled
        return ECMARegexInput.withInput(string) { input in
            if compiled.program.needsBacktracking {
                return ECMARegexBacktracker.matches(compiled.program, input, stepBudget: stepBudget)
            }
            if let dfa = compiled.program.dfa {
                return dfa.matches(input) ? .match : .noMatch
            }
            return ECMARegexPikeVM.matches(compiled.program, input) ? .match : .noMatch
        }
    }

    /// The same search, adding the backtracking steps it took to `steps` (0 for a linear
    /// pattern), so that a validator can bound the steps of many matches together.
    func matches(_ string: String, stepBudget: Int, steps: inout Int) -> Outcome {
        let compiled = self.compiled
        guard compiled.program.needsBacktracking else { return matches(string, stepBudget: stepBudget) }
        return ECMARegexInput.withInput(string) { input in
            ECMARegexBacktracker.matches(compiled.program, input, stepBudget: stepBudget, steps: &steps)
        }
    }

    /// True when matching runs in linear time (no backreference or lookaround), so the step budget
    /// never applies.
    var isLinear: Bool { !program.needsBacktracking }

    /// Instructions in the compiled program (tests and diagnostics).
    var programSize: Int { program.instructions.count }

    /// What the compiled pattern occupies, in instructions plus DFA table entries: a schema
    /// compiler sums it over a schema's patterns to bound their total.
    var compiledSize: Int { program.instructions.count + (program.dfa?.tableSize ?? 0) }

    /// Whether matching uses the deterministic automaton (tests and diagnostics).
    var usesDFA: Bool { program.dfa != nil }

    /// The same search by the Pike VM even when a DFA exists (tests compare the two).
    func matchesByPikeVM(_ string: String) -> Bool? {
        guard !program.needsBacktracking else { return nil }
        return ECMARegexInput.withInput(string) { ECMARegexPikeVM.matches(program, $0) }
    }
}
