import APICheckJSON
import Foundation
import Testing

@testable import APICheckSchema

/// Schemas shaped like the ones the generator serves: a vendor's movie API, cases modelled on the
/// JSON-Schema-Test-Suite, a recursive tree, an OpenAPI 3.0 nullable object.
@Suite struct JSONSchemaGeneratorTests {
    static func parse(_ text: String) -> JSONValue {
        // Test input is fixed text; a parse failure is a bug in the test.
        try! JSONParser().parseValue(Array(text.utf8))
    }

    static let movie = parse(
        #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://vendor.example/schemas/movie.json",
          "type": "object",
          "required": ["id", "title", "year", "cast"],
          "properties": {
            "id": {"type": "string", "format": "uuid"},
            "title": {"type": "string", "minLength": 1, "maxLength": 80},
            "year": {"type": "integer", "minimum": 1888, "maximum": 2100},
            "rating": {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 0.1},
            "genres": {"type": "array", "items": {"enum": ["drama", "comedy", "horror", "documentary"]}, "uniqueItems": true, "maxItems": 3},
            "released": {"type": "string", "format": "date"},
            "homepage": {"type": "string", "format": "uri"},
            "code": {"type": "string", "pattern": "^[A-Z]{2}-\\d{4}$"},
            "cast": {"type": "array", "minItems": 1, "maxItems": 4, "items": {"$ref": "#/$defs/person"}},
            "tags": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 10}, "maxProperties": 3}
          },
          "additionalProperties": false,
          "$defs": {
            "person": {
              "type": "object",
              "required": ["name"],
              "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 40},
                "born": {"type": ["string", "null"], "format": "date"},
                "email": {"type": "string", "format": "email"},
                "role": {"enum": ["actor", "director", "writer"]}
              },
              "dependentRequired": {"email": ["role"]}
            }
          },
          "examples": [
            {"id": "0b8e7a4e-4f57-4c35-9a8b-3f0c2d6e9a11", "title": "Metropolis", "year": 1927, "cast": [{"name": "Brigitte Helm"}]}
          ]
        }
        """#)

    static let tree = parse(
        #"""
        {
          "$ref": "#/$defs/node",
          "$defs": {
            "node": {
              "type": "object",
              "required": ["value"],
              "properties": {
                "value": {"type": "integer", "minimum": 0, "maximum": 99},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 3}
              },
              "additionalProperties": false
            }
          }
        }
        """#)

    static let linkedList = parse(
        ##"{"type": "object", "required": ["value", "next"], "properties": {"value": {"type": "string", "maxLength": 3}, "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}"##)

    static let pet = parse(
        #"""
        {
          "type": "object",
          "nullable": true,
          "required": ["id", "status"],
          "properties": {
            "id": {"type": "integer", "format": "int64", "minimum": 1},
            "name": {"type": "string", "nullable": true, "example": "Rex", "maxLength": 20},
            "status": {"type": "string", "enum": ["available", "pending", "sold"]},
            "price": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1000},
            "tags": {"type": "array", "items": {"type": "string", "minLength": 2}, "default": []}
          }
        }
        """#)

    /// An embedded resource with its own `$id`: references inside it resolve against it, and the
    /// `oneOf` needs the other branch checked where the value is made.
    static let embedded = parse(
        #"""
        {
          "$id": "https://vendor.example/schemas/order.json",
          "type": "object",
          "required": ["quantity"],
          "properties": {"quantity": {"$ref": "inner.json"}, "lines": {"type": "array", "items": {"$ref": "inner.json"}, "maxItems": 5}},
          "$defs": {
            "inner": {
              "$id": "inner.json",
              "$defs": {"atLeastThree": {"type": "integer", "minimum": 3}},
              "oneOf": [{"$ref": "#/$defs/atLeastThree"}, {"type": "integer", "maximum": 5}]
            }
          }
        }
        """#)

    static let recursiveRef2019 = parse(
        #"""
        {
          "$schema": "https://json-schema.org/draft/2019-09/schema",
          "$recursiveAnchor": true,
          "type": "object",
          "required": ["name"],
          "properties": {"name": {"type": "string", "minLength": 1}, "kids": {"type": "array", "items": {"$recursiveRef": "#"}, "maxItems": 2}}
        }
        """#)

    /// OpenAPI 3.0's polymorphism: a `oneOf` of `$ref`s told apart by a property.
    static let discriminated = parse(
        #"""
        {
          "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}, {"$ref": "#/components/schemas/Lizard"}],
          "discriminator": {"propertyName": "petType", "mapping": {"dog": "#/components/schemas/Dog", "lizard": "Lizard"}},
          "components": {
            "schemas": {
              "Cat": {"type": "object", "required": ["petType", "meows"], "properties": {"petType": {"type": "string"}, "meows": {"type": "boolean"}}},
              "Dog": {"type": "object", "required": ["petType", "barks"], "properties": {"petType": {"type": "string"}, "barks": {"type": "boolean"}, "name": {"type": "string", "nullable": true}}},
              "Lizard": {"type": "object", "properties": {"petType": {"type": "string"}, "id": {"type": "integer", "readOnly": true}, "secret": {"type": "string", "writeOnly": true}}, "required": ["petType", "id", "secret"]}
            }
          }
        }
        """#)

    /// Small schemas after the test suite's cases, one concern each.
    static let suiteLike: [String] = [
        ##"{"type": "integer", "multipleOf": 7, "exclusiveMinimum": 10, "maximum": 100}"##,
        ##"{"type": "number", "multipleOf": 0.01, "minimum": -1, "maximum": 1}"##,
        ##"{"type": "number", "exclusiveMinimum": 0.5, "exclusiveMaximum": 0.75}"##,
        ##"{"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer", "minimum": 5}]}"##,
        ##"{"oneOf": [{"type": "integer", "multipleOf": 2}, {"type": "integer", "multipleOf": 3}]}"##,
        ##"{"oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}], "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}"##,
        ##"{"not": {"type": "string"}}"##,
        ##"{"not": {"anyOf": [{"type": "integer"}, {"type": "object"}]}}"##,
        ##"{"type": "object", "patternProperties": {"^x-[a-z]+$": {"type": "integer"}}, "additionalProperties": false, "minProperties": 2}"##,
        ##"{"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 5}, "minProperties": 1}"##,
        ##"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": {"type": "null"}, "minItems": 3}"##,
        ##"{"type": "array", "contains": {"type": "integer", "minimum": 10}, "minContains": 2, "maxContains": 3, "items": {"type": "integer", "maximum": 20}}"##,
        ##"{"type": "object", "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}"##,
        ##"{"type": "object", "properties": {"card": {"type": "string"}}, "dependentSchemas": {"card": {"required": ["billing"], "properties": {"billing": {"type": "string"}}}}}"##,
        ##"{"allOf": [{"type": "string", "minLength": 3}, {"maxLength": 5}, {"pattern": "^a"}]}"##,
        ##"{"const": {"a": [1, 2], "b": null}}"##,
        ##"{"enum": [1, "x", null, [true]]}"##,
        ##"{"type": ["integer", "string"], "minimum": 3, "minLength": 2}"##,
        ##"{"type": "string", "pattern": "^(foo|bar)-(\\d{2,3})(?:-[a-f]+)?$"}"##,
        ##"{"type": "string", "pattern": "^([a-c])x\\1$"}"##,
        ##"{"type": "string", "pattern": "[0-9]{3}", "minLength": 8}"##,
        ##"{"type": "array", "items": {"type": "boolean"}, "uniqueItems": true, "minItems": 2}"##,
        ##"{"type": "string", "minLength": 2, "maxLength": 2}"##,
        ##"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "integer"}], "additionalItems": false}"##,
        ##"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}, "properties": {"a": {}, "c": {}}}"##,
        ##"{"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "minimum": 4, "maximum": 5, "exclusiveMaximum": true}"##,
        ##"{"$schema": "http://json-schema.org/draft-04/schema#", "definitions": {"a": {"type": "integer"}}, "properties": {"x": {"$ref": "#/definitions/a"}}, "required": ["x"]}"##,
        ##"{"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false}"##,
        ##"{"$defs": {"s": {"$dynamicAnchor": "s", "type": "string", "maxLength": 4}}, "$dynamicRef": "#s"}"##,
        ##"{"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 3, "maxProperties": 4}"##,
        ##"{"type": "integer", "minimum": 9007199254740990, "maximum": 9007199254741000}"##,
        ##"{"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 1}, "minItems": 1}"##,
    ]

    static let formats = [
        "date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "duration", "json-pointer", "uri-template", "regex",
    ]

    static func namedSchemas() -> [(String, JSONValue, JSONSchemaOptions)] {
        var schemas: [(String, JSONValue, JSONSchemaOptions)] = [
            ("movie", movie, .init()), ("tree", tree, .init()), ("linked list", linkedList, .init()),
        ]
        var openAPI = JSONSchemaOptions()
        openAPI.defaultDraft = .openAPI30
        schemas.append(("pet (OpenAPI 3.0)", pet, openAPI))
        schemas.append(("discriminated (OpenAPI 3.0)", discriminated, openAPI))
        schemas.append(("embedded resource", embedded, .init()))
        schemas.append(("2019-09 $recursiveRef", recursiveRef2019, .init()))
        for text in suiteLike { schemas.append((text, parse(text), .init())) }
        var asserting = JSONSchemaOptions()
        asserting.formatAssertion = true
        for format in formats {
            schemas.append(("format \(format)", .object([JSONMember("type", "string"), JSONMember("format", .string(format))]), asserting))
        }
        return schemas
    }

    // MARK: valid instances

    @Test func everyValidInstanceValidates() throws {
        for (name, schema, options) in Self.namedSchemas() {
            let generator = try JSONSchemaGenerator(schema: schema, options: options)
            let validator = try JSONSchema(schema, options: options)
            for seed: UInt64 in [1, 2] {
                let instances = generator.validInstances(count: 200, seed: seed)
                #expect(instances.count == 200, "\(name): \(instances.count) instances")
                for instance in instances where !validator.isValid(instance) {
                    Issue.record("\(name), seed \(seed): invalid instance \(JSONWriter().string(instance)): \(validator.validate(instance).errors.map(\.keywordLocation))")
                }
            }
        }
    }

    @Test func sameSeedSameInstancesDifferentSeedsDiffer() throws {
        for (name, schema, options) in Self.namedSchemas() where name != "format date-time" || true {
            let generator = try JSONSchemaGenerator(schema: schema, options: options)
            let first = generator.validInstances(count: 20, seed: 7)
            let again = try JSONSchemaGenerator(schema: schema, options: options).validInstances(count: 20, seed: 7)
            #expect(first == again, "\(name) is not deterministic")
            let single = try generator.validInstance(seed: 99)
            #expect(single == (try generator.validInstance(seed: 99)))
        }
        for schema in [Self.movie, Self.tree, Self.pet] {
            let generator = try JSONSchemaGenerator(schema: schema)
            let a = try (0..<10).map { try generator.validInstance(seed: $0) }
            let b = try (100..<110).map { try generator.validInstance(seed: $0) }
            #expect(a != b)
            #expect(Set(a).count > 5, "instances should vary with the seed")
        }
    }

    @Test func concurrentUseGivesTheSameInstances() async throws {
        let generator = try JSONSchemaGenerator(schema: Self.movie)
        let sequential = try (0..<16).map { try generator.validInstance(seed: UInt64($0)) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
            for seed in 0..<16 { group.addTask { (seed, try generator.validInstance(seed: UInt64(seed))) } }
            var results = [JSONValue](repeating: .null, count: 16)
            for try await (seed, value) in group { results[seed] = value }
            return results
        }
        #expect(sequential == concurrent)
    }

    @Test func examplesAndDefaultsComeFirst() throws {
        let generator = try JSONSchemaGenerator(schema: Self.movie)
        let instances = generator.validInstances(count: 3, seed: 1)
        #expect(instances.first == Self.parse(##"{"id": "0b8e7a4e-4f57-4c35-9a8b-3f0c2d6e9a11", "title": "Metropolis", "year": 1927, "cast": [{"name": "Brigitte Helm"}]}"##))
        let enumGenerator = try JSONSchemaGenerator(schema: Self.parse(##"{"enum": ["b", "a", 3], "default": "a"}"##))
        #expect(Array(enumGenerator.validInstances(count: 4, seed: 1).prefix(3)) == ["a", "b", 3])
        // An example the schema rejects is not offered.
        let wrong = try JSONSchemaGenerator(schema: Self.parse(##"{"type": "integer", "examples": ["no", 4]}"##))
        #expect(wrong.validInstances(count: 1, seed: 1) == [4])
    }

    @Test func recursiveSchemasTerminate() throws {
        for schema in [Self.tree, Self.linkedList] {
            let generator = try JSONSchemaGenerator(schema: schema)
            let validator = try JSONSchema(schema)
            for seed: UInt64 in 0..<50 {
                let instance = try generator.validInstance(seed: seed)
                #expect(validator.isValid(instance))
                #expect(Self.depth(instance) <= 2 * GenerationEnvironment.maximumDepth)
            }
        }
    }

    @Test func numbersAreExactMultiples() throws {
        let generator = try JSONSchemaGenerator(schema: Self.parse(##"{"type": "number", "multipleOf": 0.1, "minimum": 0, "maximum": 3}"##))
        for seed: UInt64 in 0..<100 {
            guard case .number(let lexeme) = try generator.validInstance(seed: seed) else { Issue.record("not a number"); continue }
            #expect(DecimalLexeme.decimalPlaces(lexeme) <= 1, "\(lexeme)")
            #expect(!lexeme.contains("e"))
        }
        #expect(DecimalLexeme.format(-5, scale: 2) == "-0.05")
        #expect(DecimalLexeme.format(250, scale: 2) == "2.5")
        #expect(DecimalLexeme.scaledFloor("-1.25", scale: 1)! == (-13, false))
        #expect(DecimalLexeme.scaledFloor("1e2", scale: 0)! == (100, true))
    }

    @Test func unsatisfiableSchemasThrow() throws {
        let cases: [(String, String)] = [
            (##"{"type": "string", "minLength": 5, "maxLength": 2}"##, "/maxLength"),
            ("false", ""),
            (##"{"allOf": [{"type": "string"}, {"type": "integer"}]}"##, ""),
            (##"{"type": "integer", "minimum": 1.2, "maximum": 1.8}"##, ""),
            (##"{"type": "object", "required": ["a"], "properties": {"a": false}}"##, "/properties/a"),
            (##"{"enum": [1, 2], "type": "string"}"##, "/enum"),
        ]
        for (text, location) in cases {
            let generator = try JSONSchemaGenerator(schema: Self.parse(text))
            #expect(generator.validInstances(count: 5, seed: 1).isEmpty, "\(text)")
            do {
                let instance = try generator.validInstance(seed: 1)
                Issue.record("\(text) gave \(JSONWriter().string(instance))")
            } catch {
                #expect(error.isUnsatisfiable, "\(text): \(error)")
                if !location.isEmpty { #expect(error.keywordLocation == location, "\(text): \(error)") }
            }
        }
    }

    @Test func pathologicalSchemasEndWithAnError() throws {
        let cases = [
            ##"{"type": "object", "required": ["child"], "properties": {"child": {"$ref": "#"}}}"##,
            ##"{"type": "array", "minItems": 1000000}"##,
            ##"{"type": "string", "pattern": "^(a|b)*c{1000}$", "maxLength": 5}"##,
            ##"{"type": "string", "minLength": 3, "not": {"minLength": 1}}"##,
            ##"{"type": "integer", "minimum": 1e40}"##,
            Self.doubling(depth: 30),
        ]
        for text in cases {
            let generator = try JSONSchemaGenerator(schema: Self.parse(text))
            let start = ContinuousClock.now
            #expect(throws: JSONSchemaGenerationError.self, "\(text)") { try generator.validInstance(seed: 3) }
            _ = generator.violableKeywords()
            #expect(ContinuousClock.now - start < .seconds(20), "\(text)")
        }
    }

    @Test func referencesIntoTheRegistry() throws {
        var registry = JSONSchemaRegistry()
        try registry.add(Self.parse(#"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 12}}}"#), uri: "https://vendor.example/schemas/person.json")
        let schema = Self.parse(#"{"$id": "https://vendor.example/schemas/credits.json", "type": "array", "minItems": 1, "items": {"$ref": "person.json"}}"#)
        let generator = try JSONSchemaGenerator(schema: schema, registry: registry)
        let validator = try JSONSchema(schema, registry: registry)
        for instance in generator.validInstances(count: 50, seed: 4) { #expect(validator.isValid(instance)) }
        #expect(generator.violableKeywords().contains("/items/$ref/properties/name/maxLength"))
        let long = try generator.invalidInstance(violating: "/items/$ref/properties/name/maxLength", seed: 4)
        #expect(validator.validate(long).errors.allSatisfy { $0.keywordLocation == "/items/$ref/properties/name/maxLength" })
    }

    @Test func openAPIDiscriminatorAndDirection() throws {
        var options = JSONSchemaOptions()
        options.defaultDraft = .openAPI30
        var names: Set<JSONValue> = []
        for direction in [JSONSchemaOptions.OpenAPIDirection.request, .response] {
            options.openAPIDirection = direction
            let generator = try JSONSchemaGenerator(schema: Self.discriminated, options: options)
            let validator = try JSONSchema(Self.discriminated, options: options)
            for instance in generator.validInstances(count: 60, seed: 2) {
                #expect(validator.isValid(instance))
                names.insert(instance["petType"] ?? .null)
                if instance["petType"] == "lizard" || instance["petType"] == "Lizard" {
                    #expect((direction == .request ? instance["id"] : instance["secret"]) == nil)
                }
            }
        }
        #expect(names == ["Cat", "Dog", "dog", "Lizard", "lizard"])
    }

    @Test func oneOfBranchesAreExclusive() throws {
        let generator = try JSONSchemaGenerator(schema: Self.embedded)
        for instance in generator.validInstances(count: 100, seed: 8) {
            guard case .number(let lexeme)? = instance["quantity"], let quantity = Int(lexeme) else { Issue.record("no quantity"); continue }
            #expect(quantity < 3 || quantity > 5, "\(quantity) matches both branches")
        }
    }

    /// `d0 = allOf[d1, d1]`, `d1 = allOf[d2, d2]`, …: 2^depth subschemas apply at the root.
    static func doubling(depth: Int) -> String {
        let reference = { (n: Int) in "{\"$ref\": \"#/$defs/d\(n)\"}" }
        let definitions = (0..<depth).map { "\"d\($0)\": {\"allOf\": [\(reference($0 + 1)), \(reference($0 + 1))]}" }
        return "{\"$ref\": \"#/$defs/d0\", \"$defs\": {" + definitions.joined(separator: ", ") + ", \"d\(depth)\": {\"type\": \"string\"}}}"
    }

    // MARK: invalid instances

    @Test func eachViolableKeywordFailsAlone() throws {
        for (name, schema, options) in Self.namedSchemas() {
            let generator = try JSONSchemaGenerator(schema: schema, options: options)
            let validator = try JSONSchema(schema, options: options)
            for keyword in generator.violableKeywords() {
                for seed: UInt64 in [1, 2, 3] {
                    let instance: JSONValue
                    do {
                        instance = try generator.invalidInstance(violating: keyword, seed: seed)
                    } catch {
                        Issue.record("\(name): \(keyword) listed as violable but seed \(seed) threw \(error)")
                        continue
                    }
                    let output = validator.validate(instance)
                    #expect(!output.valid, "\(name): \(keyword) instance is valid")
                    #expect(output.errors.contains { $0.keywordLocation == keyword || $0.keywordLocation.hasPrefix(keyword + "/") }, "\(name): \(keyword) not reported")
                    for unit in output.errors where !JSONSchemaGenerator.belongs(unit.keywordLocation, to: keyword) {
                        Issue.record("\(name): violating \(keyword) also failed \(unit.keywordLocation) with \(JSONWriter().string(instance))")
                    }
                }
            }
        }
    }

    @Test func movieKeywordsAreViolable() throws {
        let generator = try JSONSchemaGenerator(schema: Self.movie)
        let violable = Set(generator.violableKeywords())
        let expected = [
            "/type", "/required", "/additionalProperties", "/properties/title/maxLength", "/properties/title/minLength",
            "/properties/year/type", "/properties/year/minimum", "/properties/year/maximum", "/properties/rating/multipleOf",
            "/properties/genres/items/enum", "/properties/genres/uniqueItems", "/properties/genres/maxItems", "/properties/code/pattern",
            "/properties/cast/minItems", "/properties/cast/items/$ref/required", "/properties/cast/items/$ref/properties/name/type",
            "/properties/cast/items/$ref/dependentRequired", "/properties/tags/maxProperties", "/properties/tags/additionalProperties/maxLength",
        ]
        for keyword in expected { #expect(violable.contains(keyword), "\(keyword) missing from \(violable.sorted())") }
        #expect(!violable.contains("/properties/id/format"), "format is an annotation unless asserted")
        // The plain pointer into the document names the same keyword.
        let missingName = try generator.invalidInstance(violating: "/$defs/person/required", seed: 5)
        let output = try JSONSchema(Self.movie).validate(missingName)
        #expect(output.errors.contains { $0.keywordLocation == "/properties/cast/items/$ref/required" })
        #expect(throws: JSONSchemaGenerationError.self) { try generator.invalidInstance(violating: "/properties/nope/maxLength", seed: 1) }
    }

    @Test func violationsLookLikeTheirKeyword() throws {
        let generator = try JSONSchemaGenerator(schema: Self.movie)
        let long = try generator.invalidInstance(violating: "/properties/title/maxLength", seed: 1)
        guard case .string(let title)? = long["title"] else { Issue.record("no title"); return }
        #expect(title.unicodeScalars.count > 80)
        let missing = try generator.invalidInstance(violating: "/required", seed: 1)
        #expect(missing["id"] == nil || missing["title"] == nil || missing["year"] == nil || missing["cast"] == nil)
        let year = try generator.invalidInstance(violating: "/properties/year/type", seed: 1)
        if case .number(let lexeme)? = year["year"] { #expect(!DecimalLexeme.isInteger(lexeme)) }
        let rating = try generator.invalidInstance(violating: "/properties/rating/multipleOf", seed: 1)
        guard case .number(let lexeme)? = rating["rating"] else { Issue.record("no rating"); return }
        #expect(DecimalLexeme.decimalPlaces(lexeme) > 1)
        let genre = try generator.invalidInstance(violating: "/properties/genres/items/enum", seed: 1)
        #expect(genre["genres"] != nil)
    }

    @Test func keywordsThatCannotBeViolatedAloneThrow() throws {
        // Violating type here breaks the enum too; `minLength: 0` has no violation at all.
        let generator = try JSONSchemaGenerator(schema: Self.parse(##"{"type": "string", "enum": ["a", "b"], "minLength": 0}"##))
        #expect(!generator.violableKeywords().contains("/type"))
        #expect(throws: JSONSchemaGenerationError.self) { try generator.invalidInstance(violating: "/type", seed: 1) }
        #expect(throws: JSONSchemaGenerationError.self) { try generator.invalidInstance(violating: "/minLength", seed: 1) }
        #expect(generator.violableKeywords().contains("/enum"))
    }

    // MARK: the official test suite's schemas

    /// Satisfiable suite schemas the generator does not handle, with the reason.
    /// None at the moment; a schema listed here that starts working fails the test, so the list
    /// stays honest.
    static let knownSuiteGaps: Set<String> = []

    /// Every schema of the vendored JSON-Schema-Test-Suite that has a valid test gets valid
    /// instances (checked by the engine inside the generator, and again here).
    @Test(arguments: ["draft2020-12", "draft2019-09", "draft7", "draft4"])
    func suiteSchemasYieldValidInstances(_ draft: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Suite/tests/" + draft)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && $0 != "refRemote.json" }
        #expect(files.count > 20)
        var options = JSONSchemaOptions()
        options.defaultDraft = ["draft2019-09": .draft2019_09, "draft7": .draft7, "draft4": .draft4][draft] ?? .draft2020_12
        var generated = 0
        for file in files.sorted() {
            guard case .array(let groups) = try JSONParser().parseValue(Array(Data(contentsOf: folder.appendingPathComponent(file)))) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"], case .string(let description)? = group["description"],
                    tests.contains(where: { $0["valid"] == .bool(true) }),
                    let generator = try? JSONSchemaGenerator(schema: schema, options: options)
                else { continue }
                let validator = try JSONSchema(schema, options: options)
                let name = "\(draft)/\(file): \(description)"
                do {
                    for seed: UInt64 in 0..<3 {
                        let instance = try generator.validInstance(seed: seed)
                        #expect(validator.isValid(instance), "\(name)")
                        generated += 1
                    }
                    #expect(!Self.knownSuiteGaps.contains(name), "\(name) works now: remove it from knownSuiteGaps")
                } catch {
                    if !Self.knownSuiteGaps.contains(name) { Issue.record("\(name): \(error)") }
                }
            }
        }
        #expect(generated > 400)
    }

    // MARK: parts

    @Test func splitMixMatchesTheReference() {
        // SplitMix64's published first outputs for seed 0.
        var random = GeneratorRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func patternsGenerateMatchingStrings() throws {
        let patterns = [
            #"^[A-Z]{2}-\d{4}$"#, #"^(foo|bar)+$"#, #"^\w+@\w+\.(com|org)$"#, #"^[^aeiou\s]{3,6}$"#, #"^\u00e9+\u{1F600}?$"#,
            #"^(?:[01]\d|2[0-3]):[0-5]\d$"#, #"^a.c$"#, #"^(a)(b)\2\1$"#, #"^[\d\-]{4}$"#, #"^x{2,}y?$"#, "abc", #"^\p{Lu}\p{Ll}+$"#,
        ]
        for pattern in patterns {
            guard let generator = PatternGenerator(pattern) else { Issue.record("\(pattern) not parsed"); continue }
            let validator = try JSONSchema(.object([JSONMember("pattern", .string(pattern))]))
            var random = GeneratorRandom(seed: 11)
            for _ in 0..<50 {
                guard let made = generator.generate(minLength: 0, maxLength: 100, short: false, &random) else {
                    Issue.record("\(pattern): nothing generated"); continue
                }
                #expect(validator.isValid(.string(made)), "\(pattern) gave \(made)")
            }
        }
        #expect(PatternGenerator("(unclosed") == nil)
        #expect(PatternGenerator(#"\k<name>"#) == nil)
    }

    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return 1 + (elements.map(depth).max() ?? 0)
        case .object(let members): return 1 + (members.map { depth($0.value) }.max() ?? 0)
        default: return 0
        }
    }
}
