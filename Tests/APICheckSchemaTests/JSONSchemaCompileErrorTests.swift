@testable import APICheckSchema
import APICheckJSON
import Testing

@Suite struct JSONSchemaCompileErrorTests {
    func node(_ text: String) throws -> JSONNode { try JSONParser().parse(Array(text.utf8)) }

    func compileError(_ text: String, file: String? = "schema.json", options: JSONSchemaOptions = .init(), registry: JSONSchemaRegistry = .init()) throws -> JSONSchemaError {
        let parsed = try node(text)
        do {
            _ = try JSONSchema(parsed, file: file, registry: registry, options: options)
        } catch {
            return error
        }
        Issue.record("expected a compile error")
        return JSONSchemaError(message: "")
    }

    @Test func locatesMalformedKeywords() throws {
        let error = try compileError("""
        {
          "type": "object",
          "properties": {
            "name": {"type": "string", "minLength": -1}
          }
        }
        """)
        #expect(error.description == "schema.json:4:32: error: \"minLength\" must be a non-negative integer")
        #expect(error.keywordLocation == "/properties/name/minLength")
        #expect(error.unresolvedReference == nil)
    }

    @Test func locatesInvalidPatternsAndTypes() throws {
        let pattern = try compileError("{\n  \"pattern\": \"(unclosed\"\n}")
        #expect(pattern.line == 2 && pattern.column == 3)
        #expect(pattern.message.hasPrefix("invalid regular expression"))
        let keyed = try compileError("{\n  \"patternProperties\": {\n    \"[a-\": {}\n  }\n}")
        #expect(keyed.line == 3 && keyed.column == 5)
        #expect(keyed.keywordLocation == "/patternProperties/[a-")
        let type = try compileError("{\"items\": {\"type\": \"strin\"}}")
        #expect(type.message.contains("unknown type \"strin\""))
        #expect(type.keywordLocation == "/items/type")
        let notSchema = try compileError("{\"properties\": {\"a\": 3}}")
        #expect(notSchema.message == "a schema must be an object or a boolean, found an integer")
        #expect(notSchema.keywordLocation == "/properties/a")
    }

    /// Django REST framework writes Python's `\z` into every URL field's pattern: with `.ignore`
    /// that `pattern` is left unchecked and said where, the rest of the schema still asserts.
    @Test func anUnusablePatternIsIgnoredOnlyWhenAsked() throws {
        let text = "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"url\": {\"type\": \"string\", \"pattern\": \"^https?://\\\\S+\\\\z\"},\n    \"n\": {\"type\": \"integer\"}\n  }\n}"
        let rejected = try compileError(text)
        #expect(rejected.message.hasPrefix("invalid regular expression"), "\(rejected)")
        var options = JSONSchemaOptions()
        options.unusablePatterns = .ignore
        let schema = try JSONSchema(JSONParser().parse(Array(text.utf8)), file: "schema.json", options: options)
        let ignored = try #require(schema.ignoredPatterns.first)
        #expect(schema.ignoredPatterns.count == 1)
        #expect(ignored.line == 4 && ignored.keywordLocation == "/properties/url/pattern", "\(ignored)")
        #expect(ignored.message.contains("is not an ECMA-262 regular expression, so it is not checked"))
        #expect(schema.isValid(try JSONParser().parseValue(Array(#"{"url": "anything at all", "n": 1}"#.utf8))))
        #expect(!schema.isValid(try JSONParser().parseValue(Array(#"{"url": 3, "n": "x"}"#.utf8))))
        // A well-formed pattern still asserts, and the size budget is never ignored.
        let good = try JSONSchema(.object([JSONMember("pattern", .string("^a+$"))]), options: options)
        #expect(good.ignoredPatterns.isEmpty && !good.isValid(.string("b")))
        options.regexSizeBudget = 10
        #expect(throws: JSONSchemaError.self) { try JSONSchema(.object([JSONMember("pattern", .string("^[a-z]{50}$"))]), options: options) }
    }

    @Test func reportsUnresolvedReferencesWithTheirLocation() throws {
        let error = try compileError("{\"$id\": \"https://example.com/a.json\", \"properties\": {\"b\": {\"$ref\": \"b.json#/x\"}}}")
        #expect(error.unresolvedReference == "https://example.com/b.json")
        #expect(error.keywordLocation == "/properties/b/$ref")
        #expect(error.line == 1)
        let local = try compileError("{\"$ref\": \"#/$defs/missing\"}")
        #expect(local.unresolvedReference != nil)
    }

    @Test func retrievesUnknownDocumentsAtCompileTime() throws {
        var registry = JSONSchemaRegistry()
        registry.retrieve = { uri in uri == "https://example.com/b.json" ? .object(["type": "integer"]) : nil }
        let schema = try JSONSchema(.object(["$id": "https://example.com/a.json", "items": .object(["$ref": "b.json"])]), registry: registry)
        #expect(schema.isValid([1, 2]))
        #expect(!schema.isValid(["x"]))
    }

    @Test func detectsReferenceCyclesThatNeverConsumeInput() throws {
        let root = try compileError("{\"$ref\": \"#\"}", options: { var o = JSONSchemaOptions(); o.defaultDraft = .draft2020_12; return o }())
        #expect(root.message.contains("cycle"))
        #expect(root.keywordLocation == "/$ref")
        let pair = try compileError("""
        {"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}
        """)
        #expect(pair.message.contains("cycle"))
    }

    @Test func acceptsRecursionThroughTheInstance() throws {
        let tree = try JSONSchema(try node("""
        {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}, "value": {"type": "integer"}}}
        """))
        #expect(tree.isValid(.object(["value": 1, "children": [.object(["value": 2, "children": []])]])))
        #expect(!tree.isValid(.object(["children": [.object(["value": "x"])]])))
        // A reference to itself under `properties`/`additionalProperties` consumes input.
        let selfRef = try JSONSchema(.object(["additionalProperties": .object(["$ref": "#"]), "maxProperties": 1]))
        #expect(selfRef.isValid(.object(["a": .object(["b": .object([:])])])))
        #expect(!selfRef.isValid(.object(["a": .object(["b": 1, "c": 2])])))
    }

    @Test func boundsSchemaNesting() throws {
        var text = ""
        for _ in 0..<300 { text += "{\"not\": " }
        text += "{}"
        for _ in 0..<300 { text += "}" }
        var options = JSONSchemaOptions()
        options.maximumSchemaDepth = 256
        let parsed = try JSONParser(maximumDepth: 1000).parse(Array(text.utf8))
        #expect(throws: JSONSchemaError.self) { try JSONSchema(parsed, options: options) }
        do {
            _ = try JSONSchema(parsed, file: "deep.json", options: options)
        } catch {
            #expect(error.message.contains("deeper than 256"))
            #expect(error.file == "deep.json")
        }
        options.maximumSchemaDepth = 1000
        let deep = try JSONSchema(parsed, options: options)
        #expect(deep.isValid(1) == true)  // 300 `not`s: an even number
    }

    @Test func boundsEvaluationDepthForDeepInstances() throws {
        var options = JSONSchemaOptions()
        options.maximumEvaluationDepth = 50
        let schema = try JSONSchema(.object(["items": .object(["$ref": "#"])]), options: options)
        var instance: JSONValue = []
        for _ in 0..<100 { instance = [instance] }
        #expect(!schema.isValid(instance))
        #expect(schema.validate(instance).errors.first?.error.contains("deeper than 50") == true)
        var shallow: JSONValue = []
        for _ in 0..<20 { shallow = [shallow] }
        #expect(schema.isValid(shallow))
    }

    @Test func boundsEvaluationDepthForLongReferenceChains() async throws {
        // 5,000 `$defs` each referring to the next: no cycle, but deeper than the evaluation
        // bound; compiling is iterative and validating stops at the bound, on a task's stack.
        var defs: [JSONMember] = []
        for index in 0..<5_000 { defs.append(JSONMember("d\(index)", .object(["$ref": .string("#/$defs/d\(index + 1)")]))) }
        defs.append(JSONMember("d5000", .object(["type": "integer"])))
        let schema = try JSONSchema(.object(["$defs": .object(defs), "$ref": "#/$defs/d0"]))
        let (fast, output) = await Task.detached { (schema.isValid(1), schema.validate(1)) }.value
        #expect(!fast)
        #expect(!output.valid)
        var options = JSONSchemaOptions()
        options.maximumEvaluationDepth = 6_000
        let roomy = try JSONSchema(.object(["$defs": .object(defs), "$ref": "#/$defs/d0"]), options: options)
        #expect(roomy.isValid(1))
        #expect(!roomy.isValid("1"))
    }

    @Test func costlyPatternsAreReportedNotRun() throws {
        var options = JSONSchemaOptions()
        options.regexStepBudget = 1_000
        let schema = try JSONSchema(.object(["pattern": "^(a+)+\\1b$"]), options: options)
        let instance = JSONValue.string(String(repeating: "a", count: 40))
        #expect(!schema.isValid(instance))
        #expect(schema.validate(instance).errors.first?.error == "pattern too costly to evaluate (over 1000 steps)")
        #expect(schema.isValid("aab"))
    }

    @Test func errorsPrintLikeACompiler() {
        #expect(JSONSchemaError(message: "bad", keywordLocation: "/a", file: "f.json", line: 3, column: 7).description == "f.json:3:7: error: bad")
        #expect(JSONSchemaError(message: "bad", keywordLocation: "/a").description == "error: bad (at /a)")
    }
}
