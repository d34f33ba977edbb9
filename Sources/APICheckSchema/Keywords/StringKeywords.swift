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
        if case .match = regex.matches(string, stepBudget: ctx.regexStepBudget) { return true }
        return false
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        if case .string(let string) = instance, case .budgetExceeded = regex.matches(string, stepBudget: ctx.regexStepBudget) {
            return "pattern too costly to evaluate (over \(ctx.regexStepBudget) steps)"
        }
        return "must match pattern \(JSONValue.string(source).shortDescription)"
    }
}

/// `format` when it asserts (option or format-assertion vocabulary); unknown formats pass.
final class FormatKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "format"
    override var reportedKeyword: String { keyword }
    let format: String

    init(format: String) { self.format = format }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .string(let string) = instance else { return true }
        return FormatChecker.check(format, string, isRegex: { (try? ECMARegex($0)) != nil }) ?? true
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        "\(instance.shortDescription) is not a valid \"\(format)\""
    }
}
