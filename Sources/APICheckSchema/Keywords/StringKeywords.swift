import APICheckJSON

/// `minLength` / `maxLength`, in Unicode code points.
final class LengthKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword: String
    override var reportedKeyword: String { keyword }
    let limit: Int
    let isMinimum: Bool

    init(keyword: String, limit: Int, isMinimum: Bool) {
        self.keyword = keyword
        self.limit = limit
        self.isMinimum = isMinimum
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .string(let string) = instance else { return true }
        let bytes = string.utf8.count
        if isMinimum {
            if bytes < limit { return false }
            // A code point takes at most 4 UTF-8 bytes.
            if limit == 0 || bytes >= 4 * limit { return true }
            return string.unicodeScalars.count >= limit
        }
        if bytes <= limit { return true }
        return string.unicodeScalars.count <= limit
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        let unit = limit == 1 ? "character" : "characters"
        return isMinimum ? "must be at least \(limit) \(unit) long" : "must be at most \(limit) \(unit) long"
    }
}

/// `pattern`: an ECMA-262 regular expression compiled once, searched (not anchored).
final class PatternKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "pattern"
    override var reportedKeyword: String { keyword }
    let regex: ECMARegex
    let source: String

    init(regex: ECMARegex, source: String) {
        self.regex = regex
        self.source = source
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .string(let string) = instance else { return true }
        return ctx.match(regex, string, keyword: keyword) == .match
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        guard case .string(let string) = instance else { return }
        switch ctx.match(regex, string, keyword: keyword) {
        case .match: return
        case .noMatch: ctx.report(keyword, message(for: instance, &ctx))
        case .budgetExceeded: ctx.report(keyword, "pattern too costly to evaluate (over \(ctx.regexStepBudget) steps)")
        }
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        "must match pattern \(JSONValue.string(source).shortDescription)"
    }
}

/// `format` when it asserts (option or format-assertion vocabulary), for a format the checkers
/// know (resolved when compiling; an unknown format compiles to no keyword).
final class FormatKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "format"
    override var reportedKeyword: String { keyword }
    let kind: FormatChecker.Kind

    init(kind: FormatChecker.Kind) { self.kind = kind }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .string(let string) = instance else { return true }
        // "regex" asks whether the string is ECMA-262 syntax, which the parser alone answers:
        // building the automata would cost far more, for a pattern never matched with.
        return FormatChecker.check(kind, string, isRegex: ECMARegex.isValidSyntax)
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        "\(instance.shortDescription) is not a valid \"\(kind.rawValue)\""
    }
}
