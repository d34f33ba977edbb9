import APICheckJSON

extension InstanceBuilder {
    /// The subschemas element `index` must match.
    private func sites(forElement index: Int, _ c: SchemaConstraints) -> [SchemaSite] {
        c.itemRules.compactMap { rule in index < rule.prefix.count ? rule.prefix[index] : rule.rest }
    }

    mutating func makeArray(_ c: SchemaConstraints, depth: Int, short: Bool, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        var minimum = c.minItems
        let containsNeeded = c.contains.reduce(0) { $0 + $1.minimum }
        minimum = max(minimum, containsNeeded)
        if c.duplicateItems { minimum = max(minimum, 2) }
        var maximum = c.maxItems ?? Int.max
        for rule in c.itemRules where rule.rest?.schema == .bool(false) { maximum = min(maximum, rule.prefix.count) }
        guard minimum <= maximum else {
            throw .unsatisfiable(at: c.maxItemsPath.isEmpty ? c.minItemsPath : c.maxItemsPath, "at least \(minimum) items needed, at most \(maximum) allowed")
        }
        guard minimum <= 10_000 else { throw .budgetExceeded(at: c.minItemsPath, "minItems \(minimum) is more than the generator makes") }
        let extra = short ? 0 : random.int(in: 0...(depth < 2 ? 4 : 2))
        let count = min(maximum, minimum + extra)
        // Positions that carry a `contains` match.
        var containsAt: [Int: [SchemaSite]] = [:]
        var free = Array(0..<count)
        if !short { free.shuffle(using: &random) }
        for rule in c.contains {
            for _ in 0..<rule.minimum {
                let position = free.isEmpty ? random.int(in: 0...max(0, count - 1)) : free.removeFirst()
                containsAt[position, default: []].append(rule.site)
            }
        }
        let limitedContains = c.contains.filter { $0.maximum != nil }.map(\.site) + c.noContains
        var elements: [JSONValue] = []
        for index in 0..<count {
            let elementSites = sites(forElement: index, c) + (containsAt[index] ?? [])
            let elementPath = path + "/" + String(index)
            var made: JSONValue?
            for _ in 0..<(c.uniqueItems || !limitedContains.isEmpty ? 6 : 1) {
                let value: JSONValue
                do throws(JSONSchemaGenerationError) {
                    value = try self.value(for: elementSites, depth: depth + 1, at: elementPath)
                } catch {
                    if index >= minimum && budget > 0 { break }
                    throw error
                }
                if c.uniqueItems && elements.contains(value) { continue }
                if containsAt[index] == nil, limitedContains.contains(where: { env.probes.matches(value, $0) == true }) { continue }
                made = value
                break
            }
            guard let made else {
                if index >= minimum { break }
                throw .attemptsExhausted(at: c.uniqueItems ? path : (c.noContains.first?.path ?? path), attempts: 6, "could not make \(minimum) distinct elements")
            }
            elements.append(made)
        }
        if c.duplicateItems, elements.count >= 2 {
            elements[elements.count - 1] = elements[elements.count - 2]
        }
        if let counted = c.contains.first(where: { $0.maximum != nil }), let maximum = counted.maximum {
            let matches = elements.filter { env.probes.matches($0, counted.site) == true }.count
            if matches > maximum { throw .attemptsExhausted(at: counted.site.path, attempts: 1, "more than maxContains \(maximum) elements match contains") }
        }
        return .array(elements)
    }

    /// The subschemas the value of property `name` must match.
    private func sites(forProperty name: String, _ c: SchemaConstraints) -> [SchemaSite] {
        var result = c.properties[name] ?? []
        for (pattern, site) in c.patternProperties where env.probes.matches(name, pattern: pattern) == true { result.append(site) }
        for rule in c.additional where !covers(rule, name) { result.append(rule.site) }
        return result
    }

    /// Whether `name` is one the rule's own schema object names (so its additionalProperties does not apply).
    private func covers(_ rule: SchemaConstraints.AdditionalRule, _ name: String) -> Bool {
        rule.names.contains(name) || rule.patterns.contains { env.probes.matches(name, pattern: $0) == true }
    }

    /// Whether an extra name may appear at all (`additionalProperties: false`, unevaluated).
    private func admits(_ name: String, _ c: SchemaConstraints) -> Bool {
        if c.forbidden.contains(name) { return false }
        for rule in c.additional where rule.site.schema == .bool(false) && !covers(rule, name) { return false }
        if c.closedToUnevaluated, c.properties[name] == nil,
            !c.patternProperties.contains(where: { env.probes.matches(name, pattern: $0.pattern) == true }),
            c.additional.isEmpty
        {
            return false
        }
        return c.propertyNames.allSatisfy { env.probes.matches(.string(name), $0) != false }
    }

    private static let extraNames = ["note", "label", "extra", "meta", "tag", "info", "source", "kind"]

    /// A property name not yet used that the object admits; from `patternProperties` when it has
    /// them, else from `propertyNames`, else a word.
    private mutating func extraName(_ c: SchemaConstraints, taken: [String], outside scope: SchemaConstraints.AdditionalRule? = nil) -> String? {
        for attempt in 0..<12 {
            var name: String?
            if scope == nil, attempt < 6, let (pattern, _) = random.pick(c.patternProperties.map { ($0.pattern, $0.site) }) {
                name = PatternGenerator(pattern)?.generate(minLength: 1, maxLength: 24, short: false, &random)
            } else if !c.propertyNames.isEmpty, attempt < 10 {
                var names = SchemaConstraints()
                names.kinds = [.string]
                for site in c.propertyNames { try? names.add(site, env) }
                if case .string(let made)? = try? makeString(names, short: false, at: "") { name = made }
            }
            if name == nil {
                let word = random.pick(Self.extraNames) ?? "extra"
                name = attempt < 3 ? word : word + String(random.int(in: 2...999))
            }
            guard let name, !taken.contains(name), admits(name, c) else { continue }
            if let scope, covers(scope, name) { continue }
            return name
        }
        return nil
    }

    mutating func makeObject(_ given: SchemaConstraints, depth: Int, short: Bool, at path: String) throws(JSONSchemaGenerationError) -> JSONValue {
        var c = given
        var keys = c.required
        var optional: Set<String> = []
        let maximum = c.maxProperties ?? Int.max
        for name in c.propertyOrder where !keys.contains(name) && !c.forbidden.contains(name) {
            guard keys.count < maximum, !short, random.chance(1, in: 2) else { continue }
            keys.append(name)
            optional.insert(name)
        }
        // Dependencies: required names and extra schemas that presence of a key brings in.
        var applied: Set<String> = []
        for _ in 0..<8 {
            var changed = false
            for (key, names) in c.dependentRequired where keys.contains(key) {
                for name in names where !keys.contains(name) {
                    if c.forbidden.contains(name) {
                        guard optional.contains(key) else { throw .unsatisfiable(at: "", "\(key) needs \(name), which must be absent") }
                        keys.removeAll { $0 == key }
                    } else {
                        keys.append(name)
                        optional.remove(name)
                    }
                    changed = true
                }
            }
            for (key, site) in c.dependentSchemas where keys.contains(key) && !applied.contains(key) {
                applied.insert(key)
                try c.add(site, env)
                try resolveChoices(&c)
                if let conflict = c.conflict { throw .unsatisfiable(at: conflict.path, conflict.reason) }
                for name in c.required where !keys.contains(name) { keys.append(name) }
                changed = true
            }
            if !changed { break }
        }
        if let clash = keys.first(where: { c.forbidden.contains($0) }) {
            throw .unsatisfiable(at: "", "property \(clash) is both required and excluded")
        }
        // Enough properties: optional named ones first, then extra names.
        for name in c.propertyOrder where keys.count < c.minProperties && !keys.contains(name) && !c.forbidden.contains(name) {
            keys.append(name)
            optional.insert(name)
        }
        for scope in c.extraNeeded + (c.extraPropertyScope.map { [$0] } ?? []) {
            guard let name = extraName(c, taken: keys, outside: scope) else {
                throw .unsatisfiable(at: scope.site.path, "no property name outside this object's properties and patterns is allowed")
            }
            keys.append(name)
        }
        for namesSite in c.badNames {
            var found: String?
            for attempt in 0..<16 where found == nil {
                let word = random.pick(Self.extraNames) ?? "extra"
                let candidates = [word.uppercased(), "1" + word, word + "-" + String(random.int(in: 0...99)), "", String(repeating: word, count: 4), "x y"]
                let name = candidates[attempt % candidates.count]
                var allowed = c
                allowed.propertyNames = []
                if !keys.contains(name), admits(name, allowed), env.probes.matches(.string(name), namesSite) == false { found = name }
            }
            guard let found else { throw .unsatisfiable(at: namesSite.path, "no property name fails propertyNames") }
            keys.append(found)
        }
        for pattern in c.patternNeeded {
            var found: String?
            for _ in 0..<8 where found == nil {
                if let name = PatternGenerator(pattern)?.generate(minLength: 1, maxLength: 40, short: false, &random),
                    !keys.contains(name), admits(name, c), env.probes.matches(name, pattern: pattern) != false
                {
                    found = name
                }
            }
            guard let found else { throw .unsatisfiable(at: "", "no allowed property name matches \(pattern)") }
            keys.append(found)
        }
        var extras = 0
        while keys.count < c.minProperties {
            guard let name = extraName(c, taken: keys), extras < 1_000 else {
                throw .unsatisfiable(at: c.minPropertiesPath, "cannot find \(c.minProperties) allowed property names")
            }
            keys.append(name)
            extras += 1
        }
        // An extra member now and then where the schema invites one, or where a `not` may need it.
        let explicitlyOpen = c.additional.contains { $0.site.schema != .bool(false) } || !c.patternProperties.isEmpty
        let extraChance = !c.mustNotMatch.isEmpty ? 2 : (explicitlyOpen ? 5 : 0)
        if !short, extraChance > 0, keys.count < maximum, random.chance(1, in: extraChance), let name = extraName(c, taken: keys) {
            keys.append(name)
            optional.insert(name)
        }
        guard keys.count <= maximum else {
            throw .unsatisfiable(at: c.maxPropertiesPath, "\(keys.count) properties needed, maxProperties is \(maximum)")
        }
        // Declared order first, as a person would write the object.
        let ordered = c.propertyOrder.filter { keys.contains($0) } + keys.filter { c.properties[$0] == nil }
        var members: [JSONMember] = []
        for name in ordered {
            if !c.propertyNames.isEmpty, !c.propertyNames.allSatisfy({ env.probes.matches(.string(name), $0) != false }) {
                if optional.contains(name) { continue }
                throw .unsatisfiable(at: c.propertyNames[0].path, "property \(name) is required but propertyNames rejects it")
            }
            let memberPath = path + "/" + JSONPointer.escape(name)
            do throws(JSONSchemaGenerationError) {
                members.append(JSONMember(name, try value(for: sites(forProperty: name, c), depth: depth + 1, at: memberPath)))
            } catch {
                // An optional property that cannot be made is left out, unless it is needed for the count.
                guard optional.contains(name), members.count + (ordered.count - members.count - 1) >= c.minProperties, budget > 0 else { throw error }
            }
        }
        return .object(members)
    }
}
