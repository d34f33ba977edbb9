import APICheckJSON

/// Draws one instance from merged constraints: picks branches, a type, then a value of that type,
/// checking what merging could not express (`not`, other `oneOf` branches) with probe validators
/// and retrying locally a bounded number of times.
struct InstanceBuilder {
    let env: GenerationEnvironment
    var random: GeneratorRandom
    /// Prefer the smallest value everywhere (a later attempt after failures, as Hypothesis shrinks).
    var shortest: Bool
    /// Values left to make in this attempt: a pathological schema stops here, not in a hang.
    var budget = 20_000

    static let localAttempts = 4
    static let choiceRounds = 64

    init(env: GenerationEnvironment, seed: UInt64, shortest: Bool) {
        self.env = env
        self.random = GeneratorRandom(seed: seed)
        self.shortest = shortest
    }

    /// A value valid against every site (their conjunction).
    mutating func value(for sites: [SchemaSite], depth: Int, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        guard depth <= GenerationEnvironment.maximumDepth else {
            throw .budgetExceeded(at: path, "instance nesting deeper than \(GenerationEnvironment.maximumDepth)")
        }
        var base = SchemaConstraints()
        for site in sites { try base.add(site, env) }
        if let conflict = base.conflict { throw .unsatisfiable(at: conflict.path, conflict.reason) }
        let hasChoices = !base.anyOf.isEmpty || !base.oneOf.isEmpty || !base.conditionals.isEmpty || !base.discriminated.isEmpty
        var lastError: JSONSchemaGenerationError?
        for _ in 0..<Self.localAttempts {
            do throws(JSONSchemaGenerationError) {
                var constraints = base
                try resolveChoices(&constraints)
                let short = shortest || depth >= GenerationEnvironment.shortestBranchDepth
                    || constraints.prefersShortest
                let made = try make(constraints, depth: depth, short: short, at: path)
                if let rejected = rejection(of: made, by: constraints) {
                    lastError = .attemptsExhausted(at: rejected, attempts: Self.localAttempts, "the value matched a subschema it must not match")
                    continue
                }
                return made
            } catch {
                if budget <= 0 || error.isBudget { throw error }
                if error.isUnsatisfiable && !hasChoices { throw error }
                lastError = error
            }
        }
        if let lastError, lastError.isUnsatisfiable, hasChoices {
            throw .attemptsExhausted(at: lastError.keywordLocation, attempts: Self.localAttempts, lastError.message)
        }
        throw lastError ?? .attemptsExhausted(at: path, attempts: Self.localAttempts, "no value found")
    }

    /// Folds in one branch of each `anyOf`/`oneOf` and one side of each `if`, until none is left.
    mutating func resolveChoices(_ constraints: inout SchemaConstraints) throws(JSONSchemaGenerationError) {
        for _ in 0..<Self.choiceRounds {
            if !constraints.discriminated.isEmpty {
                var options = constraints.discriminated.removeFirst()
                if shortest { options.sort { Self.cost($0.branch.schema) < Self.cost($1.branch.schema) } } else { options.shuffle(using: &random) }
                var folded = false
                for option in options {
                    var trial = constraints
                    guard (try? trial.add(option.branch, env)) != nil, (try? trial.add(option.tag, env)) != nil else { continue }
                    if trial.conflict == nil, !trial.kinds.isEmpty { constraints = trial; folded = true; break }
                }
                if !folded { throw .unsatisfiable(at: options.first?.tag.path ?? "", "no discriminator branch is compatible with the other constraints here") }
            } else if !constraints.anyOf.isEmpty {
                let branches = constraints.anyOf.removeFirst()
                _ = try fold(oneOf: branches, into: &constraints)
            } else if !constraints.oneOf.isEmpty {
                let branches = constraints.oneOf.removeFirst()
                let chosen = try fold(oneOf: branches, into: &constraints)
                constraints.mustNotMatch += branches.indices.filter { $0 != chosen }.map { branches[$0] }
            } else if !constraints.conditionals.isEmpty {
                let conditional = constraints.conditionals.removeFirst()
                var sides: [Bool] = random.chance(1, in: 2) ? [true, false] : [false, true]
                if shortest, conditional.thenSite == nil { sides = [true, false] }
                var folded = false
                for takeThen in sides {
                    var trial = constraints
                    if takeThen {
                        try trial.add(conditional.ifSite, env)
                        if let thenSite = conditional.thenSite { try trial.add(thenSite, env) }
                    } else {
                        trial.mustNotMatch.append(conditional.ifSite)
                        if let elseSite = conditional.elseSite { try trial.add(elseSite, env) }
                    }
                    if trial.conflict == nil, !trial.kinds.isEmpty { constraints = trial; folded = true; break }
                }
                if !folded { throw .unsatisfiable(at: conditional.ifSite.path, "neither then nor else can hold") }
            } else {
                return
            }
        }
        throw .budgetExceeded(at: "", "more than \(Self.choiceRounds) nested anyOf/oneOf/if choices at one place")
    }

    /// Adds one compatible branch (random, or the cheapest when shortest) and returns its index.
    private mutating func fold(oneOf branches: [SchemaSite], into constraints: inout SchemaConstraints) throws(JSONSchemaGenerationError) -> Int {
        var order = Array(branches.indices)
        if shortest || constraints.prefersShortest {
            order.sort { (Self.cost(branches[$0].schema), $0) < (Self.cost(branches[$1].schema), $1) }
        } else {
            order.shuffle(using: &random)
        }
        for index in order {
            var trial = constraints
            do throws(JSONSchemaGenerationError) {
                try trial.add(branches[index], env)
            } catch {
                continue
            }
            if trial.conflict == nil, !trial.kinds.isEmpty {
                constraints = trial
                return index
            }
        }
        let path = branches.first.map { String($0.path.dropLast(2)) } ?? ""
        throw .unsatisfiable(at: path, "no branch is compatible with the other constraints here")
    }

    /// A rough size of a branch: `null` first, then small schemas, references last (they recurse).
    static func cost(_ schema: JSONValue, depth: Int = 0) -> Int {
        guard depth < 4 else { return 8 }
        switch schema {
        case .object(let members):
            if schema["type"] == "null" { return 0 }
            var total = 1
            for member in members {
                if member.key == "$ref" || member.key == "$dynamicRef" { total += 20 }
                if member.key == "required", case .array(let names) = member.value { total += 3 * names.count }
                total += cost(member.value, depth: depth + 1)
            }
            return total
        case .array(let elements): return elements.reduce(1) { $0 + cost($1, depth: depth + 1) }
        default: return 1
        }
    }

    /// The location of a subschema the value matches but must not, if any.
    private func rejection(of value: JSONValue, by constraints: SchemaConstraints) -> String? {
        if constraints.excluded.contains(value) { return constraints.candidatesPath }
        for site in constraints.mustNotMatch where env.probes.matches(value, site) == true { return site.path }
        return nil
    }

    /// A value of one allowed type.
    private mutating func make(_ constraints: SchemaConstraints, depth: Int, short: Bool, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        budget -= 1
        guard budget > 0 else { throw .budgetExceeded(at: path, "more than 20000 values in one instance") }
        if let conflict = constraints.conflict { throw .unsatisfiable(at: conflict.path, conflict.reason) }
        if let candidates = constraints.candidates {
            let fitting = candidates.filter { constraints.kinds.contains(JSONKind.of($0)) && !constraints.excluded.contains($0) }
            guard let chosen = short ? fitting.first : random.pick(fitting) else {
                throw .unsatisfiable(at: constraints.candidatesPath, "no enum/const value has an allowed type")
            }
            return chosen
        }
        // A declared example now and then (never while making a violation: it would be valid).
        if !short, env.target == nil, random.chance(1, in: 3) {
            let fitting = constraints.examples.filter { constraints.kinds.contains(JSONKind.of($0)) && !constraints.excluded.contains($0) }
            if let example = random.pick(fitting) { return example }
        }
        // The chosen type first; another allowed type when that one turns out impossible
        // (no integer between 0.5 and 0.75, but a number).
        var firstError: JSONSchemaGenerationError?
        for kind in try chooseKinds(constraints, short: short) {
            do throws(JSONSchemaGenerationError) {
                return try make(kind, constraints, depth: depth, short: short, at: path)
            } catch {
                guard error.isUnsatisfiable, budget > 0 else { throw error }
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? .unsatisfiable(at: constraints.typePath ?? "", "no JSON type can be generated here")
    }

    private mutating func make(_ kind: JSONKind, _ constraints: SchemaConstraints, depth: Int, short: Bool, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        switch kind {
        case .null: return .null
        case .boolean: return .bool(short ? false : random.chance(1, in: 2))
        case .integer: return try makeNumber(constraints, integer: true, short: short)
        case .fraction: return try makeNumber(constraints, integer: false, short: short)
        case .string: return try makeString(constraints, short: short, at: path)
        case .array: return try makeArray(constraints, depth: depth, short: short, at: path)
        case .object: return try makeObject(constraints, depth: depth, short: short, at: path)
        }
    }

    /// Allowed kinds, the preferred one first.
    private mutating func chooseKinds(_ c: SchemaConstraints, short: Bool) throws(JSONSchemaGenerationError) -> [JSONKind] {
        let allowed = c.kinds
        var kinds = c.kinds
        var reason: (String, String)?
        if c.minLength > (c.maxLength ?? Int.max), kinds.remove(.string) != nil {
            reason = (c.maxLengthPath, "minLength \(c.minLength) exceeds maxLength \(c.maxLength ?? 0)")
        }
        if c.minItems > (c.maxItems ?? Int.max), kinds.remove(.array) != nil {
            reason = (c.maxItemsPath, "minItems \(c.minItems) exceeds maxItems \(c.maxItems ?? 0)")
        }
        if max(c.minProperties, c.required.count) > (c.maxProperties ?? Int.max), kinds.remove(.object) != nil {
            reason = (c.maxPropertiesPath, "\(max(c.minProperties, c.required.count)) properties needed, maxProperties is \(c.maxProperties ?? 0)")
        }
        if let clash = c.required.first(where: { c.forbidden.contains($0) }), kinds.remove(.object) != nil {
            reason = ("", "property \(clash) is both required and excluded")
        }
        guard !kinds.isEmpty else {
            if let reason { throw .unsatisfiable(at: reason.0, reason.1) }
            throw .unsatisfiable(at: c.typePath ?? "", "no JSON type satisfies every type constraint here")
        }
        if kinds.count == JSONKind.allCases.count || (c.typePath == nil && kinds.count > 1) {
            // No type given: lean to the type the other keywords describe.
            var hinted = c.hintedKinds.intersection(kinds)
            if hinted.contains(.integer), kinds.contains(.fraction) { hinted.insert(.fraction) }
            if !hinted.isEmpty, short || random.chance(9, in: 10) { kinds = hinted }
        }
        let sorted = kinds.sorted()
        // `null` beside a real type (nullable) is the dull answer: give it one draw in eight.
        let preferred = sorted.count > 1 && sorted[0] == .null && !random.chance(1, in: 8) ? Array(sorted.dropFirst()) : sorted
        let first = short ? sorted[0] : (random.pick(preferred) ?? sorted[0])
        return [first] + sorted.filter { $0 != first } + allowed.subtracting(kinds).sorted().filter { kind in
            // Kinds only set aside as less likely (not impossible) stay as a last resort.
            switch kind {
            case .string: return c.minLength <= (c.maxLength ?? Int.max)
            case .array: return c.minItems <= (c.maxItems ?? Int.max)
            case .object: return max(c.minProperties, c.required.count) <= (c.maxProperties ?? Int.max) && !c.required.contains { c.forbidden.contains($0) }
            default: return true
            }
        }
    }

    // MARK: numbers

    private mutating func makeNumber(_ c: SchemaConstraints, integer: Bool, short: Bool) throws(JSONSchemaGenerationError) -> JSONValue {
        let lexemes = c.lowerBounds.map(\.lexeme) + c.upperBounds.map(\.lexeme) + c.multiples + c.nonMultiples
        var scale = lexemes.map(DecimalLexeme.decimalPlaces).max() ?? 0
        if !integer { scale = max(scale, 1) + (short ? 0 : random.int(in: 0...1)) }
        // A non-multiple of 0.1 needs a finer grid than 0.1 itself.
        if !c.nonMultiples.isEmpty, !integer { scale += 1 }
        scale = min(scale, 15)
        guard let unit = DecimalLexeme.power10(scale) else { throw .budgetExceeded(at: "", "numbers with more than 15 decimals") }
        var step: Int64 = 1
        for multiple in c.multiples {
            guard let scaled = DecimalLexeme.scaledFloor(multiple, scale: scale), scaled.exact, scaled.value > 0,
                let combined = DecimalLexeme.lcm(step, scaled.value)
            else { throw .budgetExceeded(at: "", "multipleOf \(multiple) is beyond the generator's exact range") }
            step = combined
        }
        if integer {
            guard let combined = DecimalLexeme.lcm(step, unit) else { throw .budgetExceeded(at: "", "integer multiple out of range") }
            step = combined
        }
        let limit: Int64 = 1 << 60
        var low = -limit, high = limit
        var hasLow = false, hasHigh = false
        for bound in c.lowerBounds {
            guard let scaled = DecimalLexeme.scaledFloor(bound.lexeme, scale: scale) else {
                if bound.lexeme.hasPrefix("-") { continue }
                throw .budgetExceeded(at: "", "minimum \(bound.lexeme) is beyond the generator's exact range")
            }
            let ceiling = scaled.exact ? scaled.value : scaled.value + 1
            low = max(low, bound.exclusive && scaled.exact ? ceiling + 1 : ceiling)
            hasLow = true
        }
        for bound in c.upperBounds {
            guard let scaled = DecimalLexeme.scaledFloor(bound.lexeme, scale: scale) else {
                if !bound.lexeme.hasPrefix("-") { continue }
                throw .budgetExceeded(at: "", "maximum \(bound.lexeme) is beyond the generator's exact range")
            }
            high = min(high, bound.exclusive && scaled.exact ? scaled.value - 1 : scaled.value)
            hasHigh = true
        }
        var kLow = DecimalLexeme.ceilDiv(low, step), kHigh = DecimalLexeme.floorDiv(high, step)
        guard kLow <= kHigh else {
            throw .unsatisfiable(at: "", "no \(integer ? "integer" : "number")\(c.multiples.isEmpty ? "" : " multiple of \(c.multiples.joined(separator: ", "))") lies between the bounds")
        }
        let magnitude: Int64 = short ? 0 : (random.chance(1, in: 10) ? 1_000_000_000 : 1_000)
        let (scaledWindow, overflow) = magnitude.multipliedReportingOverflow(by: unit)
        let window = max(1, (overflow ? limit : min(scaledWindow, limit)) / step)
        switch (hasLow, hasHigh) {
        case (true, false): kHigh = min(kHigh, kLow.addingReportingOverflow(window).partialValue)
        case (false, true): kLow = max(kLow, kHigh.subtractingReportingOverflow(window).partialValue)
        case (false, false): kLow = max(kLow, -window); kHigh = min(kHigh, window)
        case (true, true): break
        }
        var forbiddenDivisors: [Int64] = []
        for multiple in c.nonMultiples {
            if let scaled = DecimalLexeme.scaledFloor(multiple, scale: scale), scaled.exact, scaled.value > 0 { forbiddenDivisors.append(scaled.value) }
        }
        if !integer { forbiddenDivisors.append(unit) }
        for attempt in 0..<32 {
            let k: Int64
            if short && attempt == 0 {
                k = kLow > 0 ? kLow : (kHigh < 0 ? kHigh : 0)
            } else if attempt < 2 && !short && (hasLow || hasHigh) && random.chance(1, in: 4) {
                // Bounds are where implementations go wrong: hit them often, as Hypothesis does.
                k = hasLow && (!hasHigh || random.chance(1, in: 2)) ? kLow : kHigh
            } else {
                k = Int64.random(in: kLow...kHigh, using: &random)
            }
            let value = k * step
            if forbiddenDivisors.contains(where: { value % $0 == 0 }) { continue }
            return .number(DecimalLexeme.format(value, scale: scale))
        }
        throw .unsatisfiable(at: "", "every number allowed here is a multiple of \((c.nonMultiples + (integer ? [] : ["1"])).joined(separator: ", "))")
    }
}
