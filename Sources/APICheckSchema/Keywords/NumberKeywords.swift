import APICheckJSON

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers only), compared exactly;
/// plain integers on both sides compare as `Int64`.
final class NumberBoundKeyword: AssertionKeyword, @unchecked Sendable {
    enum Kind: Sendable { case minimum, maximum, exclusiveMinimum, exclusiveMaximum }

    let keyword: String
    override var reportedKeyword: String { keyword }
    let kind: Kind
    let limit: DecimalNumber
    let limitInt: Int64?

    init(keyword: String, kind: Kind, limit: DecimalNumber) {
        self.keyword = keyword
        self.kind = kind
        self.limit = limit
        self.limitInt = limit.int64
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .number(let lexeme) = instance else { return true }
        if limitInt != nil, let value = NumberFacts.plainInt64(lexeme) { return accepts(value) }
        guard let value = DecimalNumber(lexeme: lexeme) else { return false }
        return accepts(value)
    }

    @inline(__always) func accepts(_ value: Int64) -> Bool {
        let limitInt = limitInt.unsafelyUnwrapped
        return accepts(order: value < limitInt ? -1 : (value == limitInt ? 0 : 1))
    }

    @inline(__always) func accepts(_ value: DecimalNumber) -> Bool {
        accepts(order: DecimalNumber.compare(value, limit))
    }

    @inline(__always) private func accepts(order: Int) -> Bool {
        switch kind {
        case .minimum: return order >= 0
        case .maximum: return order <= 0
        case .exclusiveMinimum: return order > 0
        case .exclusiveMaximum: return order < 0
        }
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        let value = instance.shortDescription
        switch kind {
        case .minimum: return "\(value) is less than the minimum of \(limit.description)"
        case .maximum: return "\(value) is greater than the maximum of \(limit.description)"
        case .exclusiveMinimum: return "\(value) must be greater than \(limit.description)"
        case .exclusiveMaximum: return "\(value) must be less than \(limit.description)"
        }
    }
}

/// `multipleOf`, exactly: integer division for plain integers, else modular arithmetic on the
/// decimal significands (`1e308 multipleOf 0.123` in a few steps).
final class MultipleOfKeyword: AssertionKeyword, @unchecked Sendable {
    let keyword = "multipleOf"
    override var reportedKeyword: String { keyword }
    let divisor: DecimalNumber
    let divisorInt: Int64?

    init(divisor: DecimalNumber) {
        self.divisor = divisor
        self.divisorInt = divisor.int64
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .number(let lexeme) = instance else { return true }
        if let divisorInt, divisorInt != 0, let value = NumberFacts.plainInt64(lexeme) { return value % divisorInt == 0 }
        guard let value = DecimalNumber(lexeme: lexeme) else { return false }
        return accepts(value, &ctx)
    }

    /// A division too costly to finish is a limit: the instance is then invalid as a whole.
    @inline(__always) func accepts(_ value: DecimalNumber, _ ctx: inout ValidationContext) -> Bool {
        guard let multiple = value.isMultiple(of: divisor) else {
            ctx.reachLimit(.division(DecimalNumber.longDivisionWorkLimit), keyword: keyword)
            return false
        }
        return multiple
    }

    override func message(for instance: JSONValue, _ ctx: inout ValidationContext) -> String {
        if case .number(let lexeme) = instance, let value = DecimalNumber(lexeme: lexeme), value.isMultiple(of: divisor) == nil {
            return "\(instance.shortDescription) is too costly to check as a multiple of \(divisor.description)"
        }
        return "must be a multiple of \(divisor.description)"
    }
}

/// A schema's numeric keywords together (the compiler folds them), so that an instance's lexeme
/// is read once for `minimum`, `maximum`, the exclusive bounds and `multipleOf`.
final class NumberChecksKeyword: KeywordValidator, @unchecked Sendable {
    let bounds: [NumberBoundKeyword]
    let multipleOf: MultipleOfKeyword?
    /// Every limit (and divisor) is an `Int64`: plain integer instances never need a `DecimalNumber`.
    private let integral: Bool

    init(bounds: [NumberBoundKeyword], multipleOf: MultipleOfKeyword?) {
        self.bounds = bounds
        self.multipleOf = multipleOf
        self.integral = bounds.allSatisfy { $0.limitInt != nil } && (multipleOf.map { ($0.divisorInt ?? 0) != 0 } ?? true)
    }

    override func isValid(_ instance: JSONValue, _ ctx: inout ValidationContext) -> Bool {
        guard case .number(let lexeme) = instance else { return true }
        if integral, let value = NumberFacts.plainInt64(lexeme) {
            for bound in bounds where !bound.accepts(value) { return false }
            if let multipleOf { return value % multipleOf.divisorInt.unsafelyUnwrapped == 0 }
            return true
        }
        guard let value = DecimalNumber(lexeme: lexeme) else { return false }
        for bound in bounds where !bound.accepts(value) { return false }
        return multipleOf?.accepts(value, &ctx) ?? true
    }

    override func validate(_ instance: JSONValue, _ ctx: inout ValidationContext) {
        for bound in bounds { bound.validate(instance, &ctx) }
        multipleOf?.validate(instance, &ctx)
    }

    /// Replaces two or more numeric keywords of one schema by one `NumberChecksKeyword`.
    static func fold(_ keywords: [KeywordValidator]) -> [KeywordValidator] {
        let numeric = keywords.filter { $0 is NumberBoundKeyword || $0 is MultipleOfKeyword }
        guard numeric.count >= 2 else { return keywords }
        let fused = NumberChecksKeyword(bounds: numeric.compactMap { $0 as? NumberBoundKeyword }, multipleOf: numeric.lazy.compactMap { $0 as? MultipleOfKeyword }.first)
        guard numeric.filter({ $0 is MultipleOfKeyword }).count <= 1 else { return keywords }
        var result: [KeywordValidator] = []
        var placed = false
        for keyword in keywords {
            if keyword is NumberBoundKeyword || keyword is MultipleOfKeyword {
                if !placed { result.append(fused) }
                placed = true
            } else {
                result.append(keyword)
            }
        }
        return result
    }
}
