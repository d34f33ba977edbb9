import APICheckJSON
@testable import APICheckSchema
import Testing

/// Limits on what one schema or one instance may cost: each test proves a bound by a count, or by
/// an input that would take hours without it (never by a timing).
@Suite struct SchemaHardeningTests {
    private func value(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }
    private func compile(_ text: String, options: JSONSchemaOptions = JSONSchemaOptions()) throws -> JSONSchema {
        try JSONSchema(try value(text), options: options)
    }

    // MARK: Error collection

    @Test func errorsStopAtTheLimitAndTheInstanceStaysInvalid() throws {
        let schema = try compile(#"{"items": {"type": "string"}}"#)
        let instance = JSONValue.array(Array(repeating: .number("1"), count: 5_000))
        let output = schema.validate(instance)
        #expect(!output.valid)
        #expect(output.errors.count <= JSONSchemaOptions().maximumErrors)
        #expect(JSONSchemaOptions().maximumErrors == 1_000)

        var options = JSONSchemaOptions()
        options.maximumErrors = 10
        let limited = try compile(#"{"items": {"type": "string"}}"#, options: options).validate(instance)
        #expect(!limited.valid)
        #expect(limited.errors.count == 10)
    }

    /// The relevance filter as it was first written (quadratic), kept as the oracle.
    private static func naiveRelevant(_ errors: [JSONSchemaOutput.Unit]) -> [JSONSchemaOutput.Unit] {
        let containers: Set<String> = [
            "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "additionalItems", "$ref",
            "$dynamicRef", "$recursiveRef", "allOf", "dependentSchemas", "dependencies", "then", "else", "propertyNames",
            "contains", "discriminator",
        ]
        let alternativeKeywords: Set<String> = ["anyOf", "oneOf", "not"]
        let unevaluated: Set<String> = ["unevaluatedProperties", "unevaluatedItems"]
        let alternatives = errors.filter { alternativeKeywords.contains($0.keyword) }.map(\.keywordLocation)
        let explained = errors.filter { !unevaluated.contains($0.keyword) }.map(\.instanceLocation)
        var seen = Set<String>()
        return errors.filter { unit in
            let location = unit.keywordLocation
            if alternatives.contains(where: { location.count > $0.count && location.hasPrefix($0 + "/") }) { return false }
            if containers.contains(unit.keyword), errors.contains(where: { $0.keywordLocation.count > location.count && $0.keywordLocation.hasPrefix(location + "/") }) {
                return false
            }
            // An unevaluated member is explained by an error at it, below it, or anywhere in its parent.
            let parent = unit.instanceLocation.lastIndex(of: "/").map { String(unit.instanceLocation[..<$0]) } ?? unit.instanceLocation
            if unevaluated.contains(unit.keyword),
                explained.contains(where: {
                    $0 == unit.instanceLocation || $0.hasPrefix(unit.instanceLocation + "/") || $0 == parent || $0.hasPrefix(parent + "/")
                })
            {
                return false
            }
            return seen.insert(unit.instanceLocation + "\u{0}" + location).inserted
        }
    }

    @Test func relevantErrorsPickWhatTheQuadraticFilterPicked() throws {
        // Deterministic pseudo-random units over a small vocabulary of places and keywords, so
        // that prefixes, repeats, branches and unevaluated members all occur.
        let keywordPaths = ["", "/properties/a", "/properties/ab", "/anyOf/0", "/anyOf/1", "/oneOf/0/properties/a", "/not", "/allOf/0", "/items", "/$ref"]
        let keywords = ["type", "properties", "anyOf", "oneOf", "not", "items", "unevaluatedProperties", "unevaluatedItems", "required", "$ref", "allOf"]
        let instances = ["", "/a", "/ab", "/a/b", "/0", "/0/x"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<300 {
            var errors: [JSONSchemaOutput.Unit] = []
            for _ in 0..<(1 + next(12)) {
                let keyword = keywords[next(keywords.count)]
                errors.append(JSONSchemaOutput.Unit(
                    keywordLocation: keywordPaths[next(keywordPaths.count)] + "/" + keyword, absoluteKeywordLocation: nil,
                    instanceLocation: instances[next(instances.count)], error: "e", keyword: keyword))
            }
            let output = JSONSchemaOutput(valid: false, errors: errors)
            #expect(output.relevantErrors == Self.naiveRelevant(errors))
        }
    }

    @Test func relevantErrorsAreLinearInTheErrorCount() {
        // 200,000 containers, none explained by another: the quadratic filter compared each with
        // every other (4·10^10 prefix checks, hours in a debug build).
        let count = 200_000
        var errors: [JSONSchemaOutput.Unit] = []
        errors.reserveCapacity(count + 1)
        for index in 0..<count {
            errors.append(JSONSchemaOutput.Unit(
                keywordLocation: "/properties/p\(index)/properties", absoluteKeywordLocation: nil, instanceLocation: "/p\(index)",
                error: "e", keyword: "properties"))
        }
        errors.append(JSONSchemaOutput.Unit(
            keywordLocation: "/properties/p7/properties/x/type", absoluteKeywordLocation: nil, instanceLocation: "/p7/x", error: "e", keyword: "type"))
        let relevant = JSONSchemaOutput(valid: false, errors: errors).relevantErrors
        #expect(relevant.count == count)
        #expect(!relevant.contains { $0.keywordLocation == "/properties/p7/properties" })
    }
}

extension SchemaHardeningTests {
    // MARK: uniqueItems

    @Test func objectEqualityIsLinearInTheMemberCount() throws {
        // Two objects of a million members with the same names, differing only in the last value:
        // a scan per member took 5·10^11 string comparisons (hours).
        let count = 1_000_000
        var first: [JSONMember] = []
        var second: [JSONMember] = []
        first.reserveCapacity(count)
        second.reserveCapacity(count)
        for index in 0..<count {
            first.append(JSONMember("k\(index)", .number("1")))
            second.append(JSONMember("k\(count - 1 - index)", .number(index == 0 ? "2" : "1")))
        }
        let schema = try compile(#"{"uniqueItems": true}"#)
        #expect(schema.isValid(.array([.object(first), .object(second)])))
        #expect(!schema.isValid(.array([.object(first), .object(first)])))
        // Member order and repeated names are handled as before.
        #expect(SchemaEquality.equal(try value(#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}"#),
                                     try value(#"{"i":9,"h":8,"g":7,"f":6,"e":5,"d":4,"c":3,"b":2,"a":1.0}"#)))
        #expect(!SchemaEquality.equal(try value(#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}"#),
                                      try value(#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"j":9}"#)))
    }
}

extension SchemaHardeningTests {
    // MARK: Patterns

    /// `{"properties": {"p0": {"pattern": …}, …}}` with one pattern per property.
    private func schemaOfPatterns(_ patterns: [String]) -> JSONValue {
        .object([JSONMember("properties", .object(patterns.enumerated().map { index, pattern in
            JSONMember("p\(index)", .object([JSONMember("pattern", .string(pattern))]))
        }))])
    }

    @Test func aRepeatedPatternIsCompiledAndCountedOnce() throws {
        let size = try ECMARegex("^x{300}$").compiledSize
        var options = JSONSchemaOptions()
        options.regexSizeBudget = size + size / 2
        // 1,000 copies fit a budget of one and a half: the pattern is compiled once.
        let schema = try JSONSchema(schemaOfPatterns(Array(repeating: "^x{300}$", count: 1_000)), options: options)
        #expect(schema.isValid(.object([JSONMember("p5", .string(String(repeating: "x", count: 300)))])))
        #expect(!schema.isValid(.object([JSONMember("p5", .string("x"))])))
        // patternProperties and additionalProperties share the same compiled patterns too.
        _ = try JSONSchema(try value(#"{"patternProperties": {"^x{300}$": true}, "additionalProperties": false, "properties": {"a": {"pattern": "^x{300}$"}}}"#), options: options)
    }

    @Test func theSchemasPatternsTogetherHaveABudget() throws {
        let size = try ECMARegex("^x{300}$").compiledSize
        var options = JSONSchemaOptions()
        options.regexSizeBudget = size * 3
        _ = try JSONSchema(schemaOfPatterns(["^x{300}$", "^y{300}$", "^z{300}$"]), options: options)
        do {
            _ = try JSONSchema(schemaOfPatterns(["^x{300}$", "^y{300}$", "^z{300}$", "^w{300}$"]), options: options)
            Issue.record("four patterns over a budget of three compiled")
        } catch {
            #expect(error.message.hasPrefix("the schema's patterns are too large to compile: "))
            #expect(error.keywordLocation == "/properties/p3/pattern")
        }
        let properties = try value(#"{"patternProperties": {"^x{300}$": true, "^y{300}$": true, "^z{300}$": true, "^w{300}$": true}}"#)
        do {
            _ = try JSONSchema(properties, options: options)
            Issue.record("four patterns over a budget of three compiled")
        } catch {
            #expect(error.keywordLocation == "/patternProperties/^w{300}$")
        }
        #expect(JSONSchemaOptions().regexSizeBudget == 4_000_000)
    }

    @Test func formatRegexChecksSyntaxWithoutCompiling() throws {
        var options = JSONSchemaOptions()
        options.formatAssertion = true
        let schema = try compile(#"{"format": "regex"}"#, options: options)
        // Valid ECMA-262, too large to compile (over 100,000 instructions): still a regex.
        #expect(schema.isValid(.string("a{1000000}")))
        #expect(!schema.isValid(.string("(")))
        // The format is resolved when compiling: an unknown one compiles to no keyword.
        let unknown = try compile(#"{"format": "no-such-format"}"#, options: options)
        #expect(unknown.program.root.keywords.isEmpty)
        let date = try compile(#"{"format": "date"}"#, options: options)
        #expect((date.program.root.keywords.first as? FormatKeyword)?.kind == .date)
        #expect(!date.isValid(.string("2024-02-30")))
    }
}

extension SchemaHardeningTests {
    // MARK: Limits never turn into "valid"

    /// Arrays nested `depth` deep: `[[[…]]]`.
    private func nestedArrays(_ depth: Int) -> JSONValue {
        var instance: JSONValue = .array([])
        for _ in 0..<depth { instance = .array([instance]) }
        return instance
    }

    private func expectLimit(_ schema: JSONSchema, _ instance: JSONValue, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!schema.isValid(instance), sourceLocation: sourceLocation)
        let output = schema.validate(instance)
        #expect(!output.valid, sourceLocation: sourceLocation)
        let limit = output.errors.first { $0.keyword == "evaluationLimit" }
        #expect(limit?.error.hasPrefix("evaluation limit reached at #") == true, sourceLocation: sourceLocation)
        #expect(limit?.error.contains(reason) == true, "\(output.errors)", sourceLocation: sourceLocation)
        #expect(output.relevantErrors.contains { $0.keyword == "evaluationLimit" }, sourceLocation: sourceLocation)
    }

    @Test func anExceededDepthIsInvalidUnderNotAndIf() throws {
        var options = JSONSchemaOptions()
        options.maximumEvaluationDepth = 50
        let defs = ##""$defs": {"t": {"items": {"$ref": "#/$defs/t"}}}"##
        let negated = try compile(##"{"not": {"$ref": "#/$defs/t"}, \##(defs)}"##, options: options)
        let conditional = try compile(##"{"if": {"$ref": "#/$defs/t"}, "then": false, "else": true, \##(defs)}"##, options: options)
        // Shallow: answered exactly (every nested array matches "t").
        #expect(!negated.isValid(nestedArrays(10)))
        #expect(!conditional.isValid(nestedArrays(10)))
        #expect(negated.isValid(.number("1")) == false)  // 1 matches "t" too (items ignores numbers)
        // Deep: the limit is reached inside `not`/`if`; it must not read as "not matched".
        expectLimit(negated, nestedArrays(100), "too deep (over 50 nested schema evaluations)")
        expectLimit(conditional, nestedArrays(100), "too deep")
    }

    @Test func anExceededPatternBudgetIsInvalidWherever() throws {
        var options = JSONSchemaOptions()
        options.regexStepBudget = 1_000
        let costly = String(repeating: "a", count: 40)
        let pattern = #"^(a+)+\\1b$"#
        // Each schema, and its exact answer for a member named "x" (no costly match).
        for (text, validForX) in [
            (#"{"patternProperties": {"\#(pattern)": false}}"#, true),
            (#"{"propertyNames": {"not": {"pattern": "\#(pattern)"}}}"#, true),
            (#"{"if": {"patternProperties": {"\#(pattern)": false}}, "then": true, "else": false}"#, true),
            (#"{"patternProperties": {"\#(pattern)": true}, "additionalProperties": false}"#, false),
        ] {
            let schema = try compile(text, options: options)
            expectLimit(schema, .object([JSONMember(costly, .string(costly))]), "over 1000 backtracking steps")
            #expect(schema.isValid(.object([JSONMember("x", .null)])) == validForX, "\(text)")
        }
        expectLimit(try compile(#"{"not": {"pattern": "\#(pattern)"}}"#, options: options), .string(costly), "over 1000 backtracking steps")
    }

    @Test func thePatternsOfOneValidationShareABudget() throws {
        let regex = try ECMARegex(#"^(a+)+\1b$"#)
        let text = String(repeating: "a", count: 16) + "b"
        var steps = 0
        #expect(regex.matches(text, stepBudget: .max, steps: &steps) == .match)
        #expect(steps > 10)
        var options = JSONSchemaOptions()
        // Each match fits its own budget; 20 of them do not fit ten times that.
        options.regexStepBudget = steps + 1
        let schema = try compile(#"{"items": {"pattern": "^(a+)+\\1b$"}}"#, options: options)
        #expect(schema.isValid(.array(Array(repeating: .string(text), count: 5))))
        expectLimit(schema, .array(Array(repeating: .string(text), count: 20)), "backtracking steps in all")
    }
}

extension SchemaHardeningTests {
    // MARK: multipleOf

    @Test func longDivisionIsBoundedByItsWorkNotItsSteps() throws {
        // A 100,000-digit divisor and a 200,000-digit dividend: 200,000 steps (under the old step
        // limit), each comparing and subtracting 100,000 digits up to ten times (10^11 digit
        // operations with an allocation each: hours).
        let divisorText = "1" + String(repeating: "0", count: 99_998) + "7"
        let dividendText = String(repeating: "9", count: 200_000)
        let divisor = try #require(DecimalNumber(lexeme: divisorText))
        let dividend = try #require(DecimalNumber(lexeme: dividendText))
        #expect(dividend.isMultiple(of: divisor) == nil)
        // Within the bound, still exact.
        let thirty = try #require(DecimalNumber(lexeme: "123456789012345678901234567890"))
        #expect(try #require(DecimalNumber(lexeme: "370370367037037036703703703670")).isMultiple(of: thirty) == true)
        #expect(try #require(DecimalNumber(lexeme: "370370367037037036703703703671")).isMultiple(of: thirty) == false)
        // The moduli that need 128-bit products and those that do not agree (one helper now).
        #expect(try #require(DecimalNumber(lexeme: "1e1000000")).isMultiple(of: try #require(DecimalNumber(lexeme: "9223372036854775783"))) == false)
        #expect(try #require(DecimalNumber(lexeme: "4e30")).isMultiple(of: try #require(DecimalNumber(lexeme: "1024"))) == true)
        #expect(try #require(DecimalNumber(lexeme: "4e30")).isMultiple(of: try #require(DecimalNumber(lexeme: "9223372036854775808"))) == false)
        #expect(try #require(DecimalNumber(lexeme: "1e64")).isMultiple(of: try #require(DecimalNumber(lexeme: "9223372036854775808"))) == true)

        // Through a schema, even under `not`, an unfinished division is invalid.
        let schema = try JSONSchema(.object([JSONMember("not", .object([JSONMember("multipleOf", .number(divisorText))]))]))
        expectLimit(schema, .number(dividendText), "\"multipleOf\" division is too costly")
    }
}
