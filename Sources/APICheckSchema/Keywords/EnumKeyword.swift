import APICheckJSON

/// `enum` and `const`: scalars in typed hash sets (a 1,000,000-value enum is one lookup),
/// arrays and objects by canonical value.
final class EnumKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword: String
    override var reportedKeyword: String { keyword }
    let strings: Set<String>
    let numbers: Set<DecimalNumber>
    let booleans: (allowsFalse: Bool, allowsTrue: Bool)
    let allowsNull: Bool
    let composites: Set<CanonicalValue>
    /// For messages: the first few values as written, and how many there are.
    let shown: [JSONValue]
    let count: Int

    init(keyword: String, values: [JSONValue]) {
        self.keyword = keyword
        var strings = Set<String>(), numbers = Set<DecimalNumber>(), composites = Set<CanonicalValue>()
        var allowsFalse = false, allowsTrue = false, allowsNull = false
        for value in values {
            switch value {
            case .null: allowsNull = true
            case .bool(let b): if b { allowsTrue = true } else { allowsFalse = true }
            case .string(let s): strings.insert(s)
            case .number(let lexeme): numbers.insert(DecimalNumber(lexeme: lexeme) ?? .zero)
            case .array, .object: composites.insert(CanonicalValue(value))
            }
        }
        self.strings = strings
        self.numbers = numbers
        self.composites = composites
        self.booleans = (allowsFalse, allowsTrue)
        self.allowsNull = allowsNull
        self.shown = Array(values.prefix(10))
        self.count = values.count
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        switch instance {
        case .string(let s): return strings.contains(s)
        case .number(let lexeme):
            guard !numbers.isEmpty, let number = DecimalNumber(lexeme: lexeme) else { return false }
            return numbers.contains(number)
        case .bool(let b): return b ? booleans.allowsTrue : booleans.allowsFalse
        case .null: return allowsNull
        case .array, .object: return !composites.isEmpty && composites.contains(CanonicalValue(instance))
        }
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        if keyword == "const" { return "\(instance.shortDescription) is not \(shown.first?.shortDescription ?? "")" }
        let list = shown.map(\.shortDescription).joined(separator: ",") + (count > shown.count ? ",…" : "")
        return "\(instance.shortDescription) is not one of [\(list)]"
    }
}
