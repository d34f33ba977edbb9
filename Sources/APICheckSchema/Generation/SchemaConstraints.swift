import APICheckJSON

/// Everything the schemas that apply at one place of the instance ask of it, merged: `allOf`
/// branches and `$ref` targets folded in, bounds tightened, property schemas collected per name.
/// hypothesis-jsonschema's `merged()` works the same way; what cannot be merged (a choice among
/// `anyOf` branches, a `not`) stays as a list for the builder to resolve and check.
///
/// When a violation is asked for, the targeted keyword is left out and its negation put in its
/// place (`maxLength: 5` becomes `minLength: 6`), so every other constraint still holds.
struct SchemaConstraints {
    struct NumberBound { var lexeme: String; var exclusive: Bool }
    /// One schema's rule for array elements: its own prefix and the schema for the rest.
    struct ItemRule { var prefix: [SchemaSite]; var rest: SchemaSite? }
    struct ContainsRule { var site: SchemaSite; var minimum: Int; var maximum: Int? }
    /// `additionalProperties` applies to names the same schema object does not otherwise name.
    struct AdditionalRule { var site: SchemaSite; var names: Set<String>; var patterns: [String] }
    struct Conditional { var ifSite: SchemaSite; var thenSite: SchemaSite?; var elseSite: SchemaSite? }

    /// The first contradiction found, with the keyword it is at.
    var conflict: (path: String, reason: String)?
    var kinds = Set(JSONKind.allCases)
    var typePath: String?
    var candidates: [JSONValue]?
    var candidatesPath = ""
    var excluded: [JSONValue] = []
    var examples: [JSONValue] = []
    /// A negated keyword applies here: examples would not do.
    var violating = false
    var hintedKinds: Set<JSONKind> = []

    var minLength = 0, minLengthPath = ""
    var maxLength: Int?, maxLengthPath = ""
    var patterns: [(pattern: String, path: String)] = []
    var notPatterns: [String] = []
    var format: String?
    var badFormat: String?

    var lowerBounds: [NumberBound] = []
    var upperBounds: [NumberBound] = []
    var multiples: [String] = []
    var nonMultiples: [String] = []

    var minItems = 0, minItemsPath = ""
    var maxItems: Int?, maxItemsPath = ""
    var uniqueItems = false
    var duplicateItems = false
    var itemRules: [ItemRule] = []
    var contains: [ContainsRule] = []
    var noContains: [SchemaSite] = []

    var propertyOrder: [String] = []
    var properties: [String: [SchemaSite]] = [:]
    var patternProperties: [(pattern: String, site: SchemaSite)] = []
    var additional: [AdditionalRule] = []
    var required: [String] = []
    var forbidden: Set<String> = []
    var minProperties = 0, minPropertiesPath = ""
    var maxProperties: Int?, maxPropertiesPath = ""
    var propertyNames: [SchemaSite] = []
    /// Violating `propertyNames`: one name must fail these.
    var badNames: [SchemaSite] = []
    var dependentRequired: [(key: String, names: [String])] = []
    var dependentSchemas: [(key: String, site: SchemaSite)] = []
    /// Violating `additionalProperties: false`: one name outside this scope must be present.
    var extraPropertyScope: AdditionalRule?
    /// Names needed to reach a violation under `additionalProperties` or `patternProperties`.
    var extraNeeded: [AdditionalRule] = []
    var patternNeeded: [String] = []
    var closedToUnevaluated = false

    var anyOf: [[SchemaSite]] = []
    /// OpenAPI `discriminator` choices: a branch with its property fixed.
    var discriminated: [[Tagged]] = []
    var oneOf: [[SchemaSite]] = []
    var conditionals: [Conditional] = []
    /// Subschemas the instance must not match (`not`, the other `oneOf` branches, a failed `if`).
    var mustNotMatch: [SchemaSite] = []
    /// Largest `$ref` count among the merged sites: recursion depth, for the shortest-branch rule.
    var hops = 0
    var recursion = 0

    /// Deep enough in a recursion (or a reference chain) that the shortest branch is wanted.
    var prefersShortest: Bool {
        recursion >= GenerationEnvironment.shortestBranchRecursion || hops >= GenerationEnvironment.shortestBranchHops
    }

    private mutating func contradiction(_ path: String, _ reason: String) {
        if conflict == nil { conflict = (path, reason) }
    }

    mutating func contradictionAt(_ path: String, _ reason: String) {
        contradiction(path, reason)
    }

    mutating func require(_ name: String) {
        if !required.contains(name) { required.append(name) }
    }

    mutating func restrict(to allowed: Set<JSONKind>) {
        kinds.formIntersection(allowed)
    }

    /// Subschemas folded in so far, and the most allowed at one place: `allOf`s of `$ref`s that
    /// each double the work (A = allOf[B, B], B = allOf[C, C], …) stop here instead of running 2^n.
    var folded = 0
    static let maximumFolded = 4_000

    /// Folds one subschema in.
    mutating func add(_ given: SchemaSite, _ env: GenerationEnvironment) throws(JSONSchemaGenerationError) {
        folded += 1
        guard folded <= Self.maximumFolded else {
            throw .budgetExceeded(at: given.path, "more than \(Self.maximumFolded) subschemas apply at one place")
        }
        hops = max(hops, given.hops)
        recursion = max(recursion, given.recursion)
        switch given.schema {
        case .bool(true): return
        case .bool(false): contradiction(given.path, "the schema is false: no value is valid"); return
        case .object: break
        default: return
        }
        let site = env.enteringResource(given)
        let schema = site.schema
        let legacy = [.draft4, .draft6, .draft7, .openAPI30].contains(site.draft)
        if case .string(let reference)? = schema["$ref"] {
            try add(try env.resolve(reference, from: site, keyword: "$ref"), env)
            if legacy { return }  // siblings of $ref are ignored before 2019-09
        }
        if site.draft == .draft2020_12, case .string(let reference)? = schema["$dynamicRef"] {
            try add(try env.resolve(reference, from: site, keyword: "$dynamicRef"), env)
        }
        if site.draft == .draft2019_09, case .string(let reference)? = schema["$recursiveRef"] {
            try add(try env.resolve(reference, from: site, keyword: "$recursiveRef"), env)
        }
        addGeneric(site, env)
        addString(site, env)
        addNumber(site, env, legacyExclusive: site.draft == .draft4 || site.draft == .openAPI30)
        addArray(site, env, legacyItems: site.draft != .draft2020_12)
        addObject(site, env)
        for branch in site.elements("allOf") { try add(branch, env) }
        addCombinators(site, env)
    }

    private mutating func addGeneric(_ site: SchemaSite, _ env: GenerationEnvironment) {
        let schema = site.schema
        if let type = schema["type"] {
            var allowed: Set<JSONKind> = []
            switch type {
            case .string(let name): allowed = JSONKind.kinds(forTypeName: name)
            case .array(let names): for case .string(let name) in names { allowed.formUnion(JSONKind.kinds(forTypeName: name)) }
            default: allowed = Set(JSONKind.allCases)
            }
            if site.draft == .openAPI30, schema["nullable"] == .bool(true) { allowed.insert(.null) }
            if env.isTarget(site, "type") {
                allowed = Set(JSONKind.allCases).subtracting(allowed)
                violating = true
            }
            restrict(to: allowed)
            typePath = site.path + "/type"
        }
        if case .array(let values)? = schema["enum"] {
            if env.isTarget(site, "enum") { excluded += values; violating = true } else { intersectCandidates(values, site.path + "/enum") }
        }
        if let value = schema["const"] {
            if env.isTarget(site, "const") { excluded.append(value); violating = true } else { intersectCandidates([value], site.path + "/const") }
        }
        if case .array(let values)? = schema["examples"] { examples += values }
        if let value = schema["example"] { examples.append(value) }
        if let value = schema["default"] { examples.append(value) }
    }

    private mutating func intersectCandidates(_ values: [JSONValue], _ path: String) {
        if let current = candidates {
            let allowed = Set(values)
            candidates = current.filter { allowed.contains($0) }
        } else {
            candidates = values
        }
        candidatesPath = path
        if candidates?.isEmpty == true { contradiction(path, "no value is allowed by every enum/const that applies here") }
    }

    private mutating func addString(_ site: SchemaSite, _ env: GenerationEnvironment) {
        let schema = site.schema
        if let n = Self.count(schema["minLength"]) {
            hintedKinds.insert(.string)
            if env.isTarget(site, "minLength") {
                violating = true
                restrict(to: [.string])
                if n == 0 { contradiction(site.path + "/minLength", "minLength 0 cannot be violated") }
                tightenMaxLength(n - 1, site.path + "/minLength")
            } else if n > minLength {
                minLength = n
                minLengthPath = site.path + "/minLength"
            }
        }
        if let n = Self.count(schema["maxLength"]) {
            hintedKinds.insert(.string)
            if env.isTarget(site, "maxLength") {
                violating = true
                restrict(to: [.string])
                if n + 1 > minLength { minLength = n + 1; minLengthPath = site.path + "/maxLength" }
            } else {
                tightenMaxLength(n, site.path + "/maxLength")
            }
        }
        if case .string(let pattern)? = schema["pattern"] {
            hintedKinds.insert(.string)
            if env.isTarget(site, "pattern") { notPatterns.append(pattern); restrict(to: [.string]); violating = true } else { patterns.append((pattern, site.path + "/pattern")) }
        }
        if case .string(let name)? = schema["format"] {
            if env.isTarget(site, "format") { badFormat = name; restrict(to: [.string]); violating = true } else if format == nil { format = name }
        }
    }

    private mutating func tightenMaxLength(_ n: Int, _ path: String) {
        if maxLength.map({ n < $0 }) ?? true { maxLength = n; maxLengthPath = path }
    }

    private mutating func addNumber(_ site: SchemaSite, _ env: GenerationEnvironment, legacyExclusive: Bool) {
        let schema = site.schema
        let numbers: Set<JSONKind> = [.integer, .fraction]
        let exclusiveLow = legacyExclusive && schema["exclusiveMinimum"] == .bool(true)
        let exclusiveHigh = legacyExclusive && schema["exclusiveMaximum"] == .bool(true)
        if case .number(let m)? = schema["minimum"] {
            hintedKinds.insert(.integer)
            if env.isTarget(site, "minimum") {
                violating = true; restrict(to: numbers)
                upperBounds.append(NumberBound(lexeme: m, exclusive: !exclusiveLow))
            } else {
                lowerBounds.append(NumberBound(lexeme: m, exclusive: exclusiveLow))
            }
        }
        if case .number(let m)? = schema["maximum"] {
            hintedKinds.insert(.integer)
            if env.isTarget(site, "maximum") {
                violating = true; restrict(to: numbers)
                lowerBounds.append(NumberBound(lexeme: m, exclusive: !exclusiveHigh))
            } else {
                upperBounds.append(NumberBound(lexeme: m, exclusive: exclusiveHigh))
            }
        }
        if !legacyExclusive, case .number(let m)? = schema["exclusiveMinimum"] {
            hintedKinds.insert(.integer)
            if env.isTarget(site, "exclusiveMinimum") {
                violating = true; restrict(to: numbers)
                upperBounds.append(NumberBound(lexeme: m, exclusive: false))
            } else {
                lowerBounds.append(NumberBound(lexeme: m, exclusive: true))
            }
        }
        if !legacyExclusive, case .number(let m)? = schema["exclusiveMaximum"] {
            hintedKinds.insert(.integer)
            if env.isTarget(site, "exclusiveMaximum") {
                violating = true; restrict(to: numbers)
                lowerBounds.append(NumberBound(lexeme: m, exclusive: false))
            } else {
                upperBounds.append(NumberBound(lexeme: m, exclusive: true))
            }
        }
        if case .number(let m)? = schema["multipleOf"] {
            hintedKinds.insert(.integer)
            if env.isTarget(site, "multipleOf") { violating = true; restrict(to: numbers); nonMultiples.append(m) } else { multiples.append(m) }
        }
    }

    private mutating func addArray(_ site: SchemaSite, _ env: GenerationEnvironment, legacyItems: Bool) {
        let schema = site.schema
        if let n = Self.count(schema["minItems"]) {
            hintedKinds.insert(.array)
            if env.isTarget(site, "minItems") {
                violating = true; restrict(to: [.array])
                if n == 0 { contradiction(site.path + "/minItems", "minItems 0 cannot be violated") }
                tightenMaxItems(n - 1, site.path + "/minItems")
            } else {
                raiseMinItems(n, site.path + "/minItems")
            }
        }
        if let n = Self.count(schema["maxItems"]) {
            hintedKinds.insert(.array)
            if env.isTarget(site, "maxItems") {
                violating = true; restrict(to: [.array])
                raiseMinItems(n + 1, site.path + "/maxItems")
            } else {
                tightenMaxItems(n, site.path + "/maxItems")
            }
        }
        if schema["uniqueItems"] == .bool(true) {
            if env.isTarget(site, "uniqueItems") { violating = true; restrict(to: [.array]); duplicateItems = true } else { uniqueItems = true }
        }
        var rule = ItemRule(prefix: [], rest: nil)
        if legacyItems {
            if case .array = schema["items"] {
                rule.prefix = site.elements("items")
                rule.rest = site.child("additionalItems")
            } else {
                rule.rest = site.child("items")
            }
        } else {
            rule.prefix = site.elements("prefixItems")
            rule.rest = site.child("items")
        }
        let restKeyword = legacyItems ? (rule.prefix.isEmpty ? "items" : "additionalItems") : "items"
        if rule.rest?.schema == .bool(false), env.isTarget(site, restKeyword) {
            // One element past the prefix, where the schema allows none.
            violating = true; restrict(to: [.array])
            raiseMinItems(rule.prefix.count + 1, site.path + "/" + restKeyword)
            rule.rest = nil
        }
        if !rule.prefix.isEmpty || rule.rest != nil {
            hintedKinds.insert(.array)
            itemRules.append(rule)
            // An invalid instance for a keyword under `items` needs an element to carry it.
            for (index, element) in rule.prefix.enumerated() where env.routes(through: element.path) {
                raiseMinItems(index + 1, element.path)
                restrict(to: [.array])
            }
            if let rest = rule.rest, env.routes(through: rest.path) {
                raiseMinItems(rule.prefix.count + 1, rest.path)
                restrict(to: [.array])
            }
        }
        if let containsSite = site.child("contains"), site.draft != .draft4 {
            hintedKinds.insert(.array)
            let minimum = Self.count(schema["minContains"]) ?? 1
            let maximum = Self.count(schema["maxContains"])
            if env.isTarget(site, "contains") {
                violating = true; restrict(to: [.array]); noContains.append(containsSite)
            } else if minimum >= 2, env.isTarget(site, "minContains") {
                violating = true; restrict(to: [.array])
                contains.append(ContainsRule(site: containsSite, minimum: minimum - 1, maximum: minimum - 1))
            } else if let maximum, env.isTarget(site, "maxContains") {
                violating = true; restrict(to: [.array])
                contains.append(ContainsRule(site: containsSite, minimum: maximum + 1, maximum: nil))
            } else {
                contains.append(ContainsRule(site: containsSite, minimum: minimum, maximum: maximum))
            }
        }
        if schema["unevaluatedItems"] == .bool(false), itemRules.isEmpty {
            itemRules.append(ItemRule(prefix: [], rest: SchemaSite(schema: false, baseURI: site.baseURI, pointer: site.pointer + "/unevaluatedItems", path: site.path + "/unevaluatedItems", draft: site.draft, hops: site.hops, trail: site.trail, recursion: site.recursion, scope: site.scope)))
        }
    }

    mutating func raiseMinItems(_ n: Int, _ path: String) {
        if n > minItems { minItems = n; minItemsPath = path }
    }

    private mutating func tightenMaxItems(_ n: Int, _ path: String) {
        if maxItems.map({ n < $0 }) ?? true { maxItems = n; maxItemsPath = path }
    }

    private mutating func addObject(_ site: SchemaSite, _ env: GenerationEnvironment) {
        let schema = site.schema
        let named = site.members("properties")
        let directionForbidden = Self.directionForbidden(site, env)
        forbidden.formUnion(directionForbidden)
        for (name, property) in named {
            hintedKinds.insert(.object)
            if properties[name] == nil { propertyOrder.append(name) }
            properties[name, default: []].append(property)
            if env.routes(through: property.path) { require(name); restrict(to: [.object]) }
        }
        let patterned = site.members("patternProperties")
        for (pattern, property) in patterned {
            hintedKinds.insert(.object)
            patternProperties.append((pattern, property))
            if env.routes(through: property.path) { patternNeeded.append(pattern); restrict(to: [.object]) }
        }
        if let additionalSite = site.child("additionalProperties") {
            hintedKinds.insert(.object)
            let scope = AdditionalRule(site: additionalSite, names: Set(named.map(\.key)), patterns: patterned.map(\.key))
            if env.isTarget(site, "additionalProperties") {
                violating = true; restrict(to: [.object]); extraPropertyScope = scope
            } else {
                additional.append(scope)
                if env.routes(through: additionalSite.path) { extraNeeded.append(scope); restrict(to: [.object]) }
            }
        }
        if case .array(let names)? = schema["required"] {
            hintedKinds.insert(.object)
            let strings = names.compactMap { if case .string(let s) = $0 { s } else { nil } }.filter { !directionForbidden.contains($0) }
            if env.isTarget(site, "required") {
                violating = true; restrict(to: [.object])
                if let missing = strings.first { forbidden.insert(missing) } else { contradiction(site.path + "/required", "an empty required cannot be violated") }
                for name in strings.dropFirst() { require(name) }
            } else {
                for name in strings { require(name) }
            }
        }
        if let n = Self.count(schema["minProperties"]) {
            hintedKinds.insert(.object)
            if env.isTarget(site, "minProperties") {
                violating = true; restrict(to: [.object])
                if n == 0 { contradiction(site.path + "/minProperties", "minProperties 0 cannot be violated") }
                tightenMaxProperties(n - 1, site.path + "/minProperties")
            } else if n > minProperties {
                minProperties = n; minPropertiesPath = site.path + "/minProperties"
            }
        }
        if let n = Self.count(schema["maxProperties"]) {
            hintedKinds.insert(.object)
            if env.isTarget(site, "maxProperties") {
                violating = true; restrict(to: [.object])
                if n + 1 > minProperties { minProperties = n + 1; minPropertiesPath = site.path + "/maxProperties" }
            } else {
                tightenMaxProperties(n, site.path + "/maxProperties")
            }
        }
        if let namesSite = site.child("propertyNames"), site.draft != .draft4 {
            if env.isTarget(site, "propertyNames") { violating = true; restrict(to: [.object]); badNames.append(namesSite) } else { propertyNames.append(namesSite) }
        }
        addDependencies(site, env, keyword: "dependentRequired", schemasKeyword: "dependentSchemas")
        if site.draft != .draft2020_12 { addDependencies(site, env, keyword: "dependencies", schemasKeyword: "dependencies") }
        if schema["unevaluatedProperties"] == .bool(false) { closedToUnevaluated = true }
    }

    private mutating func addDependencies(_ site: SchemaSite, _ env: GenerationEnvironment, keyword: String, schemasKeyword: String) {
        let negate = env.isTarget(site, keyword)
        var negated = false
        if case .object(let members)? = site.schema[keyword] {
            for member in members {
                guard case .array(let names) = member.value else { continue }
                let strings = names.compactMap { if case .string(let s) = $0 { s } else { nil } }
                if negate, !negated, let missing = strings.first {
                    negated = true; violating = true; restrict(to: [.object])
                    require(member.key); forbidden.insert(missing)
                } else {
                    dependentRequired.append((member.key, strings))
                }
            }
        }
        if negate, !negated { contradiction(site.path + "/" + keyword, "no dependency to violate") }
        for (key, dependent) in site.members(schemasKeyword) where dependent.schema.isSchemaLike {
            dependentSchemas.append((key, dependent))
        }
    }

    private mutating func tightenMaxProperties(_ n: Int, _ path: String) {
        if maxProperties.map({ n < $0 }) ?? true { maxProperties = n; maxPropertiesPath = path }
    }

    /// A non-negative integer keyword value (`5`, `5.0`), clamped to a sane size.
    static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let lexeme)? = value, DecimalLexeme.isInteger(lexeme),
            let parts = DecimalLexeme.scaledFloor(lexeme, scale: 0)
        else {
            if case .number? = value { return Int.max / 4 }  // astronomically large: effectively unbounded
            return nil
        }
        return Int(max(0, min(parts.value, Int64(Int.max / 4))))
    }
}

extension JSONValue {
    var isSchemaLike: Bool {
        switch self {
        case .object, .bool: return true
        default: return false
        }
    }
}
