import APICheckJSON
import APICheckSchema
import Testing

/// Hostile schemas and instances: each ends with an answer or a located error, never a crash, a
/// hang or unbounded memory.
@Suite struct SchemaBadInputTests {
    private func node(_ text: String) throws -> JSONNode { try JSONParser().parse(Array(text.utf8)) }
    private func value(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }
    private func compile(_ text: String, options: JSONSchemaOptions = JSONSchemaOptions()) throws(JSONSchemaError) -> JSONSchema {
        // The texts are valid JSON: what is under test is compilation.
        try JSONSchema(try! node(text), file: "s.json", options: options)
    }

    @Test func referenceCyclesThatConsumeNothingAreLocatedErrors() throws {
        for text in [
            ##"{"$ref": "#"}"##,
            "{\n  \"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"}, \"b\": {\"$ref\": \"#/$defs/a\"}},\n  \"$ref\": \"#/$defs/a\"\n}",
            ##"{"allOf": [{"$ref": "#"}]}"##,
        ] {
            #expect(throws: JSONSchemaError.self, "\(text)") { try compile(text) }
            do throws(JSONSchemaError) {
                _ = try compile(text)
            } catch {
                #expect(error.file == "s.json")
                #expect(error.line != nil)
            }
        }
    }

    @Test func recursiveSchemasThatConsumeInputValidateDeepInstances() throws {
        let tree = try compile(##"{"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}"##)
        var text = #"{"n": 1}"#
        for _ in 0..<200 { text = #"{"n": 1, "child": \#(text)}"# }
        #expect(tree.isValid(try value(text)))
        let bad = text.replacingOccurrences(of: #"{"n": 1}"#, with: #"{"n": "x"}"#)
        let output = tree.validate(try value(bad))
        #expect(!output.valid)
        #expect(output.errors.contains { $0.instanceLocation.hasSuffix("/child/n") && $0.keyword == "type" })
    }

    @Test func schemasDeeperThanTheLimitsAreRefusedWithALocation() throws {
        let deep = String(repeating: #"{"not":"#, count: 300) + "{}" + String(repeating: "}", count: 300)
        #expect(throws: JSONParseError.self) { _ = try node(deep) }
        let fifty = String(repeating: #"{"items":"#, count: 60) + "{}" + String(repeating: "}", count: 60)
        var options = JSONSchemaOptions()
        options.maximumSchemaDepth = 50
        #expect(throws: JSONSchemaError.self) { _ = try compile(fifty, options: options) }
        #expect(try compile(fifty).isValid(try value("[[[1]]]")))
    }

    @Test func anEnumOfAMillionValuesIsASetLookup() throws {
        var text = #"{"enum": ["#
        text.reserveCapacity(12_000_000)
        for index in 0..<1_000_000 {
            if index > 0 { text += "," }
            text += index % 2 == 0 ? String(index) : "\"v\(index)\""
        }
        text += "]}"
        let schema = try compile(text)
        #expect(schema.isValid(try value("999998")))
        #expect(schema.isValid(try value("999998.0")))
        #expect(schema.isValid(try value(#""v999999""#)))
        #expect(!schema.isValid(try value("999999")))
        #expect(!schema.validate(try value(#""nope""#)).valid)
    }

    @Test func catastrophicPatternsAreLinear() throws {
        let schema = try compile(#"{"type": "string", "pattern": "^(a+)+$"}"#)
        let attack = String(repeating: "a", count: 50) + "b"
        #expect(!schema.isValid(.string(attack)))
        #expect(schema.isValid(.string(String(repeating: "a", count: 10_000))))
        let alternation = try compile(#"{"pattern": "^(a|a)*b$"}"#)
        #expect(!alternation.isValid(.string(String(repeating: "a", count: 5_000))))
    }

    @Test func multipleOfIsExactForHugeAndTinyDecimals() throws {
        let cases: [(schema: String, instance: String, valid: Bool)] = [
            (#"{"multipleOf": 1e-300}"#, "1e300", true),
            (#"{"multipleOf": 0.123}"#, "1e308", false),
            (#"{"multipleOf": 0.123}"#, "0.246", true),
            (#"{"multipleOf": 3}"#, "1e400", false),
            (#"{"multipleOf": 2}"#, "1e400", true),
            (#"{"multipleOf": 0.01}"#, "19.99", true),
            (#"{"multipleOf": 0.01}"#, "19.999", false),
            (#"{"multipleOf": 1e-8}"#, "12345678901234567890.12345678", true),
            (#"{"multipleOf": 7}"#, "1e99999999", false),
        ]
        for test in cases {
            #expect(try compile(test.schema).isValid(try value(test.instance)) == test.valid, "\(test.instance) \(test.schema)")
        }
    }

    @Test func aRemoteReferenceIsRefusedUnlessTheCallerRetrievesIt() throws {
        let text = "{\n  \"$ref\": \"https://elsewhere.example/s.json\"\n}"
        do throws(JSONSchemaError) {
            _ = try compile(text)
            Issue.record("a remote $ref compiled without a retriever")
        } catch {
            #expect(error.unresolvedReference == "https://elsewhere.example/s.json")
            #expect(error.line == 2)
        }
        var registry = JSONSchemaRegistry()
        registry.retrieve = { uri in uri == "https://elsewhere.example/s.json" ? .object(["type": "string"]) : nil }
        let schema = try JSONSchema(node(text), registry: registry)
        #expect(schema.isValid("x"))
        #expect(!schema.isValid(1))
    }

    @Test func invalidSchemasAreLocatedErrors() throws {
        let cases: [(String, Int)] = [
            ("{\n  \"type\": 12\n}", 2),
            ("{\n  \"properties\": {\n    \"a\": {\"minLength\": -1}\n  }\n}", 3),
            ("{\n  \"pattern\": \"(unclosed\"\n}", 2),
            ("{\n  \"required\": [1]\n}", 2),
        ]
        for (text, line) in cases {
            do throws(JSONSchemaError) {
                _ = try compile(text)
                Issue.record("compiled: \(text)")
            } catch {
                #expect(error.line == line, "\(error)")
                #expect(error.description.hasPrefix("s.json:\(line):"), "\(error)")
            }
        }
    }

    @Test func aLargeSchemaCompilesInOnePass() throws {
        // 200,000 properties, about 6 MB: linear to compile, each check a lookup.
        var text = #"{"type": "object", "properties": {"#
        for index in 0..<200_000 {
            if index > 0 { text += "," }
            text += #""p\#(index)": {"type": "integer"}"#
        }
        text += "}}"
        let schema = try compile(text)
        #expect(schema.isValid(try value(#"{"p199999": 1}"#)))
        #expect(!schema.isValid(try value(#"{"p199999": "x"}"#)))
    }
}
