@testable import APICheckSchema
import APICheckJSON
import Testing

@Suite struct JSONSchemaValidationTests {
    func value(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }

    @Test func basicOutputLocatesErrorsThroughReferences() throws {
        let schema = try JSONSchema(try value("""
        {
          "$id": "https://example.com/movie.json",
          "type": "object",
          "required": ["title", "year"],
          "properties": {
            "title": {"type": "string", "pattern": "^[A-Z]"},
            "year": {"$ref": "#/$defs/year"},
            "genre": {"enum": ["a", "b"]},
            "price": {"type": "number", "multipleOf": 0.01}
          },
          "$defs": {"year": {"type": "integer", "minimum": 1888}}
        }
        """))
        let output = schema.validate(try value(#"{"title": "alien", "year": "1979", "genre": "x", "price": 1.001}"#))
        #expect(!output.valid)
        let units = Set(output.errors.map { "\($0.keywordLocation) \($0.instanceLocation) \($0.error)" })
        #expect(units.contains("/properties/title/pattern /title must match pattern \"^[A-Z]\""))
        #expect(units.contains("/properties/year/$ref/type /year expected an integer, found a string"))
        #expect(units.contains("/properties/genre/enum /genre \"x\" is not one of [\"a\",\"b\"]"))
        #expect(units.contains("/properties/price/multipleOf /price must be a multiple of 0.01"))
        let year = try #require(output.errors.first { $0.keyword == "type" })
        #expect(year.absoluteKeywordLocation == "https://example.com/movie.json#/$defs/year/type")
        let missing = schema.validate(try value(#"{"title": "Alien"}"#))
        #expect(missing.errors.map(\.error) == ["\"year\" is required"])
        #expect(missing.errors.first?.keywordLocation == "/required")
        #expect(missing.errors.first?.instanceLocation == "")
        #expect(schema.validate(try value(#"{"title": "Alien", "year": 1979}"#)).valid)
    }

    @Test func outputJSONFollowsTheSpecification() throws {
        let schema = try JSONSchema(.object(["items": .object(["type": "string"])]))
        let output = schema.validate([1])
        let json = JSONWriter().string(output.json)
        #expect(json.contains("\"valid\":false"))
        #expect(json.contains("\"keywordLocation\":\"/items/type\""))
        #expect(json.contains("\"instanceLocation\":\"/0\""))
        #expect(JSONWriter().string(schema.validate(["a"]).json) == "{\"valid\":true}")
    }

    @Test func unevaluatedPropertiesSeesThroughApplicators() throws {
        let schema = try JSONSchema(try value("""
        {
          "type": "object",
          "properties": {"kind": {"enum": ["a", "b"]}},
          "allOf": [{"properties": {"shared": true}}],
          "if": {"properties": {"kind": {"const": "a"}}},
          "then": {"properties": {"onlyA": {"type": "integer"}}},
          "else": {"properties": {"onlyB": {"type": "string"}}},
          "anyOf": [{"$ref": "#/$defs/extra"}, {"required": ["kind"]}],
          "dependentSchemas": {"trigger": {"properties": {"trigger": true, "triggered": true}}},
          "unevaluatedProperties": false,
          "$defs": {"extra": {"required": ["extra"], "properties": {"extra": true}}}
        }
        """))
        #expect(schema.isValid(try value(#"{"kind": "a", "shared": 1, "onlyA": 2}"#)))
        #expect(!schema.isValid(try value(#"{"kind": "a", "onlyB": "x"}"#)))
        #expect(schema.isValid(try value(#"{"kind": "b", "onlyB": "x"}"#)))
        #expect(schema.isValid(try value(#"{"extra": 1, "kind": "a"}"#)))
        #expect(schema.isValid(try value(#"{"kind": "a", "trigger": 1, "triggered": 2}"#)))
        #expect(!schema.isValid(try value(#"{"kind": "a", "triggered": 2}"#)))
        let output = schema.validate(try value(#"{"kind": "a", "stray": 1}"#))
        #expect(output.errors.map(\.keywordLocation) == ["/unevaluatedProperties"])
        #expect(output.errors.first?.instanceLocation == "/stray")
    }

    @Test func unevaluatedItemsWithPrefixItemsAndContains() throws {
        let schema = try JSONSchema(try value("""
        {"prefixItems": [{"type": "string"}], "contains": {"type": "integer"}, "unevaluatedItems": false}
        """))
        #expect(schema.isValid(["a", 1, 2]))
        #expect(!schema.isValid(["a", 1, true]))
    }

    @Test func millionValueEnumIsAHashLookup() throws {
        let values = (0..<1_000_000).map { JSONValue.string("value-\($0)") }
        let clock = ContinuousClock()
        var schema: JSONSchema? = nil
        let compile = try clock.measure { schema = try JSONSchema(.object(["enum": .array(values)])) }
        let compiled = try #require(schema)
        let lookups = clock.measure {
            for index in stride(from: 0, to: 1_000_000, by: 1_000) { #expect(compiled.isValid(.string("value-\(index)"))) }
            #expect(!compiled.isValid(.string("value-1000000")))
        }
        #expect(compile < .seconds(20))
        #expect(lookups < .seconds(1))
        let output = compiled.validate("nope")
        #expect(output.errors.first?.error.hasPrefix("\"nope\" is not one of [\"value-0\"") == true)
    }

    @Test func booleanSchemasAndFalseLocations() throws {
        let schema = try JSONSchema(.object(["properties": .object(["never": false])]))
        let output = schema.validate(.object(["never": 1]))
        #expect(output.errors.first?.keywordLocation == "/properties/never")
        #expect(output.errors.first?.keyword == "false")
        #expect(try JSONSchema(true).isValid(.null))
        #expect(!(try JSONSchema(false).isValid(.null)))
    }

    @Test func formatAssertsOnlyWhenAsked() throws {
        let annotation = try JSONSchema(.object(["format": "ipv4"]))
        #expect(annotation.isValid("not an address"))
        var options = JSONSchemaOptions()
        options.formatAssertion = true
        let assertion = try JSONSchema(.object(["format": "ipv4"]), options: options)
        #expect(assertion.isValid("127.0.0.1"))
        #expect(!assertion.isValid("not an address"))
        #expect(assertion.isValid(12))
    }

    @Test func draftsComeFromSchemaOrOptions() throws {
        let draft4 = try JSONSchema(.object(["$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true]))
        #expect(draft4.draft == .draft4)
        #expect(!draft4.isValid(5))
        var options = JSONSchemaOptions()
        options.defaultDraft = .draft7
        let draft7 = try JSONSchema(.object(["$ref": "#/definitions/a", "type": "string", "definitions": .object(["a": .object(["type": "integer"])])]), options: options)
        #expect(draft7.draft == .draft7)
        #expect(draft7.isValid(1))  // $ref siblings are ignored before 2019-09
        let current = try JSONSchema(.object(["$ref": "#/$defs/a", "type": "string", "$defs": .object(["a": .object(["type": "integer"])])]))
        #expect(!current.isValid(1))
        #expect(JSONSchemaDraft(metaSchemaURI: "https://json-schema.org/draft/2020-12/schema") == .draft2020_12)
        #expect(JSONSchemaDraft(metaSchemaURI: "http://json-schema.org/draft-07/schema") == .draft7)
        #expect(JSONSchemaDraft(metaSchemaURI: "http://example.com/custom") == nil)
    }

    @Test func registryResolvesAnchorsAndEmbeddedResources() throws {
        var registry = JSONSchemaRegistry()
        try registry.add(try value("""
        {"$id": "https://example.com/root.json", "$defs": {"a": {"$anchor": "thing", "type": "integer"},
         "b": {"$id": "nested/b.json", "type": "string"}, "c~/d": {"const": 1}}}
        """), uri: "https://example.com/root.json")
        let anchor = try #require(registry.resolve("root.json#thing", against: "https://example.com/other.json"))
        #expect(anchor.pointer == "/$defs/a")
        let embedded = try #require(registry.resolve("https://example.com/nested/b.json", against: ""))
        #expect(embedded.baseURI == "https://example.com/nested/b.json")
        #expect(embedded.schema["type"] == "string")
        let escaped = try #require(registry.resolve("#/$defs/c~0~1d", against: "https://example.com/root.json"))
        #expect(escaped.schema["const"] == 1)
        let meta = try #require(registry.resolve("https://json-schema.org/draft/2020-12/meta/validation", against: ""))
        #expect(meta.draft == .draft2020_12)
        let schema = try JSONSchema(.object(["$ref": "https://example.com/root.json#thing"]), registry: registry)
        #expect(schema.isValid(3) && !schema.isValid("3"))
    }

    @Test func compiledSchemasAreSharedAcrossTasks() async throws {
        let schema = try JSONSchema(try value("""
        {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 3}}, "required": ["n"], "unevaluatedProperties": false}
        """))
        let counts = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var valid = 0
                    for n in 0..<3_000 where schema.isValid(.object(["n": .number(String(n + task))])) { valid += 1 }
                    return valid
                }
            }
            var all: [Int] = []
            for await count in group { all.append(count) }
            return all
        }
        #expect(counts.count == 8)
        #expect(counts.allSatisfy { $0 == 1_000 })
    }
}
