import APICheckJSON

/// How each keyword compiles; the rows of `KeywordTables` point here. Each function checks the
/// keyword's value (a located error when it is malformed) and returns its validators.
enum KeywordCompilers {
    // MARK: Values of keywords

    static func nonNegativeInteger(_ compiler: SchemaCompiler, _ site: KeywordSite) throws -> Int {
        guard case .number(let lexeme) = site.value, let number = DecimalNumber(lexeme: lexeme), number.isInteger, !number.negative else {
            throw compiler.invalid(site, "\"\(site.keyword)\" must be a non-negative integer")
        }
        return number.int64.map { Int(clamping: $0) } ?? Int.max
    }

    static func number(_ compiler: SchemaCompiler, _ site: KeywordSite) throws -> DecimalNumber {
        guard case .number(let lexeme) = site.value, let number = DecimalNumber(lexeme: lexeme) else {
            throw compiler.invalid(site, "\"\(site.keyword)\" must be a number")
        }
        return number
    }

    static func schemaArray(_ compiler: inout SchemaCompiler, _ site: KeywordSite, inPlace: Bool) throws -> [SchemaNode] {
        guard case .array(let elements) = site.value, !elements.isEmpty else {
            throw compiler.invalid(site, "\"\(site.keyword)\" must be a non-empty array of schemas")
        }
        var result: [SchemaNode] = []
        for (index, element) in elements.enumerated() { result.append(try compiler.subschema(site, [String(index)], element, inPlace: inPlace)) }
        return result
    }

    static func stringArray(_ compiler: SchemaCompiler, _ site: KeywordSite, _ value: JSONValue) throws -> [String] {
        guard case .array(let elements) = value else { throw compiler.invalid(site, "\"\(site.keyword)\" must be an array of strings") }
        return try elements.map { element in
            guard case .string(let name) = element else { throw compiler.invalid(site, "\"\(site.keyword)\" must be an array of strings") }
            return name
        }
    }

    /// Compiles a pattern; `key` names the member holding it (`patternProperties`) for the error's place.
    /// Compiled once per distinct source in a schema (`SchemaCompiler.compiledRegex`), within the
    /// schema's `regexSizeBudget`.
    static func regex(_ compiler: inout SchemaCompiler, _ site: KeywordSite, _ pattern: String, key: String? = nil) throws -> ECMARegex {
        let message: String
        do {
            switch try compiler.compiledRegex(pattern) {
            case .success(let regex): return regex
            case .failure(let exceeded):
                message = "the schema's patterns are too large to compile: with \(JSONValue.string(pattern).shortDescription) they take \(exceeded.total) "
                    + "instructions and table entries, over the limit of \(exceeded.budget) (JSONSchemaOptions.regexSizeBudget)"
            }
        } catch {
            message = "invalid regular expression \(JSONValue.string(pattern).shortDescription): \(error.message) (at offset \(error.offset))"
        }
        guard let key else { throw compiler.invalid(site, message) }
        let pointer = site.keywordPointer + "/" + JSONPointer.escape(key)
        throw compiler.located(JSONSchemaRegistry.Location(document: site.location.document, pointer: pointer), message)
    }

    // MARK: Validation vocabulary

    static let type: KeywordCompile = { compiler, site in
        [.keyword(try typeKeyword(compiler, site, addingNull: false))]
    }

    /// Draft 4: `1.0` is a number but not an integer.
    static let draft4Type: KeywordCompile = { compiler, site in
        [.keyword(try typeKeyword(compiler, site, addingNull: false, integersAsWritten: true))]
    }

    static func typeKeyword(_ compiler: SchemaCompiler, _ site: KeywordSite, addingNull: Bool, integersAsWritten: Bool = false) throws -> TypeKeyword {
        var names: [String]
        switch site.value {
        case .string(let name): names = [name]
        case .array(let elements):
            names = try elements.map { element in
                guard case .string(let name) = element else { throw compiler.invalid(site, "\"type\" must be a type name or an array of type names") }
                return name
            }
        default: throw compiler.invalid(site, "\"type\" must be a type name or an array of type names")
        }
        if addingNull && !names.contains("null") { names.append("null") }
        var allowed: UInt8 = 0
        for name in names {
            guard let bit = TypeKeyword.names.first(where: { $0.0 == name })?.1 else {
                throw compiler.invalid(site, "unknown type \(JSONValue.string(name).shortDescription) (expected null, boolean, object, array, number, string or integer)")
            }
            allowed |= bit
        }
        return TypeKeyword(allowed: allowed, written: names, integersAsWritten: integersAsWritten)
    }

    static let enumeration: KeywordCompile = { compiler, site in
        guard case .array(let values) = site.value else { throw compiler.invalid(site, "\"enum\" must be an array") }
        guard values.count <= compiler.options.maximumEnumCount else {
            throw compiler.invalid(site, "\"enum\" lists \(values.count) values, over the limit of \(compiler.options.maximumEnumCount)")
        }
        return [.keyword(EnumKeyword(keyword: "enum", values: values))]
    }

    static let const: KeywordCompile = { _, site in [.keyword(EnumKeyword(keyword: "const", values: [site.value]))] }

    static let multipleOf: KeywordCompile = { compiler, site in
        let divisor = try number(compiler, site)
        guard !divisor.negative, !divisor.isZero else { throw compiler.invalid(site, "\"multipleOf\" must be a number greater than 0") }
        return [.keyword(MultipleOfKeyword(divisor: divisor))]
    }

    static let minimum: KeywordCompile = { compiler, site in
        [.keyword(NumberBoundKeyword(keyword: "minimum", kind: .minimum, limit: try number(compiler, site)))]
    }

    static let maximum: KeywordCompile = { compiler, site in
        [.keyword(NumberBoundKeyword(keyword: "maximum", kind: .maximum, limit: try number(compiler, site)))]
    }

    /// Draft 4 and OpenAPI 3.0: `exclusiveMinimum: true` makes `minimum` exclusive.
    static let minimumWithBooleanExclusive: KeywordCompile = { compiler, site in
        var exclusive = false
        if case .bool(true)? = site.object["exclusiveMinimum"] { exclusive = true }
        return [.keyword(NumberBoundKeyword(keyword: "minimum", kind: exclusive ? .exclusiveMinimum : .minimum, limit: try number(compiler, site)))]
    }

    static let maximumWithBooleanExclusive: KeywordCompile = { compiler, site in
        var exclusive = false
        if case .bool(true)? = site.object["exclusiveMaximum"] { exclusive = true }
        return [.keyword(NumberBoundKeyword(keyword: "maximum", kind: exclusive ? .exclusiveMaximum : .maximum, limit: try number(compiler, site)))]
    }

    /// A number from draft 6 on; a boolean modifier of `minimum` in draft 4 and OpenAPI 3.0.
    static let exclusiveMinimum: KeywordCompile = { compiler, site in
        if case .bool = site.value { return [] }
        return [.keyword(NumberBoundKeyword(keyword: "exclusiveMinimum", kind: .exclusiveMinimum, limit: try number(compiler, site)))]
    }

    static let exclusiveMaximum: KeywordCompile = { compiler, site in
        if case .bool = site.value { return [] }
        return [.keyword(NumberBoundKeyword(keyword: "exclusiveMaximum", kind: .exclusiveMaximum, limit: try number(compiler, site)))]
    }

    static let minLength: KeywordCompile = { compiler, site in
        [.keyword(LengthKeyword(keyword: "minLength", limit: try nonNegativeInteger(compiler, site), isMinimum: true))]
    }

    static let maxLength: KeywordCompile = { compiler, site in
        [.keyword(LengthKeyword(keyword: "maxLength", limit: try nonNegativeInteger(compiler, site), isMinimum: false))]
    }

    static let pattern: KeywordCompile = { compiler, site in
        guard case .string(let source) = site.value else { throw compiler.invalid(site, "\"pattern\" must be a string") }
        if compiler.options.unusablePatterns == .ignore {
            // Compiled (and cached) here so that only a syntax error is ignored, never the size budget.
            do throws(ECMARegexError) {
                _ = try compiler.compiledRegex(source)
            } catch {
                compiler.ignorePattern(compiler.invalid(
                    site, "the pattern \(JSONValue.string(source).shortDescription) is not an ECMA-262 regular expression, so it is not checked: "
                        + "\(error.message) (at offset \(error.offset))"))
                return []
            }
        }
        return [.keyword(PatternKeyword(regex: try regex(&compiler, site, source), source: source))]
    }

    static let format: KeywordCompile = { compiler, site in
        guard case .string(let name) = site.value else { return [] }
        guard compiler.options.formatAssertion || site.formatAsserts else { return [] }
        // An unknown format is an annotation only: nothing to check.
        guard let kind = FormatChecker.Kind(rawValue: name) else { return [] }
        return [.keyword(FormatKeyword(kind: kind))]
    }

    static let minItems: KeywordCompile = { compiler, site in
        [.keyword(ItemCountKeyword(keyword: "minItems", limit: try nonNegativeInteger(compiler, site), isMinimum: true))]
    }

    static let maxItems: KeywordCompile = { compiler, site in
        [.keyword(ItemCountKeyword(keyword: "maxItems", limit: try nonNegativeInteger(compiler, site), isMinimum: false))]
    }

    static let uniqueItems: KeywordCompile = { compiler, site in
        guard case .bool(let unique) = site.value else { throw compiler.invalid(site, "\"uniqueItems\" must be a boolean") }
        return unique ? [.keyword(UniqueItemsKeyword())] : []
    }

    static let minProperties: KeywordCompile = { compiler, site in
        [.keyword(PropertyCountKeyword(keyword: "minProperties", limit: try nonNegativeInteger(compiler, site), isMinimum: true))]
    }

    static let maxProperties: KeywordCompile = { compiler, site in
        [.keyword(PropertyCountKeyword(keyword: "maxProperties", limit: try nonNegativeInteger(compiler, site), isMinimum: false))]
    }

    static let required: KeywordCompile = { compiler, site in
        let names = try stringArray(compiler, site, site.value)
        return names.isEmpty ? [] : [.keyword(RequiredKeyword(names: names))]
    }

    static let dependentRequired: KeywordCompile = { compiler, site in
        guard case .object(let entries) = site.value else { throw compiler.invalid(site, "\"dependentRequired\" must be an object") }
        let dependencies = try entries.map { entry in (name: entry.key, required: try stringArray(compiler, site, entry.value)) }
        return [.keyword(DependentRequiredKeyword(keyword: "dependentRequired", dependencies: dependencies))]
    }
}
