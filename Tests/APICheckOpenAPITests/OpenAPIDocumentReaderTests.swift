import APICheckJSON
@testable import APICheckOpenAPI
import Foundation
import Testing

/// Reading documents: every version, both syntaxes, and every way a document can be wrong is a
/// located error, quickly.
@Suite struct OpenAPIDocumentReaderTests {
    static let yaml31 = """
        openapi: 3.1.0
        info: {title: Movies, version: "1"}
        servers:
          - url: https://{host}/api/{version}
            variables:
              host: {default: api.example.com}
              version: {default: v2}
        paths:
          /movies/{id}:
            get:
              responses:
                "200":
                  description: a movie
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Movie"}
                "4XX": {$ref: "#/components/responses/Problem"}
        components:
          schemas:
            Movie:
              type: object
              required: [year]
              properties: {year: {type: integer}}
          responses:
            Problem:
              description: a problem
              content: {application/problem+json: {}}
        """

    static let json30 = #"""
        {"openapi": "3.0.3", "info": {"title": "Movies", "version": "1"},
         "paths": {"/movies/{id}": {"get": {"responses": {
           "200": {"description": "a movie", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Movie"}}}},
           "default": {"description": "anything else"}}}}},
         "components": {"schemas": {"Movie": {"type": "object", "required": ["year"],
           "properties": {"year": {"type": "integer", "nullable": true}}}}}}
        """#

    func read(_ text: String, file: String = "openapi.yaml") throws(OpenAPIError) -> OpenAPIDocument {
        try OpenAPIDocumentReader().read(Array(text.utf8), file: file)
    }

    func error(_ text: String, file: String = "openapi.yaml") -> OpenAPIError? {
        do {
            _ = try read(text, file: file)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsOpenAPI31YAML() throws {
        let document = try read(Self.yaml31)
        #expect(document.version == "3.1.0")
        #expect(document.basePaths == ["/api/v2"])
        let operation = try #require(document.operations.first)
        #expect(operation.name == "GET /movies/{id}")
        #expect(operation.responses.map(\.status) == ["200", "4XX"])
        #expect(operation.responses[0].requiredHeaders == ["X-Rate-Limit"])
        #expect(operation.responses[0].mediaTypes.map(\.type) == ["application/json"])
        // The $ref'd response is resolved through the components.
        #expect(operation.responses[1].mediaTypes.map(\.type) == ["application/problem+json"])
    }

    @Test func readsOpenAPI30JSONThroughTheCompatibilityLayer() throws {
        let document = try read(Self.json30, file: "openapi.json")
        #expect(document.version == "3.0.3")
        #expect(document.basePaths == [""])
        #expect(document.operations.map(\.name) == ["GET /movies/{id}"])
        #expect(document.operations[0].responses.map(\.status) == ["200", "default"])
    }

    @Test func readsOpenAPI32() throws {
        let document = try read(Self.yaml31.replacingOccurrences(of: "openapi: 3.1.0", with: "openapi: 3.2.0"))
        #expect(document.version == "3.2.0")
        #expect(document.operations.map(\.name) == ["GET /movies/{id}"])
    }

    @Test func swagger2IsRefusedByName() throws {
        let found = try #require(error("swagger: \"2.0\"\ninfo: {title: x, version: \"1\"}\npaths: {}\n"))
        #expect(found.description.hasPrefix("openapi.yaml:1:1: error: this is a Swagger 2.0 document"))
        #expect(found.message.contains("convert it"))
    }

    @Test func malformedYAMLIsLocated() throws {
        let found = try #require(error("openapi: 3.1.0\ninfo: {title: x\npaths: {}\n"))
        #expect(found.line >= 2, "\(found)")
        #expect(found.description.contains("error: not valid YAML"))
    }

    @Test func aYAMLErrorAtTheEndIsLocatedInsideTheInput() throws {
        // No final line break: Yams puts this error on line 3, after the last line (fuzzing found it).
        let found = try #require(error("openapi: 3.1.0\ninfo:\n  x: \nAc#m "))
        #expect(found.line == 4 && found.column == 6, "\(found)")
        let inside = YAMLDocumentReader.clamped(line: 9, column: 1, in: "a\nbé")
        #expect(inside.line == 2 && inside.column == 3)
        #expect(YAMLDocumentReader.clamped(line: 1, column: 4, in: "a\nb") == (1, 4))
    }

    @Test func malformedJSONIsLocated() throws {
        let found = try #require(error("{\"openapi\": \"3.1.0\",\n  \"info\": }", file: "openapi.json"))
        #expect(found.description.hasPrefix("openapi.json:2:"), "\(found)")
    }

    @Test func aWrongFieldTypeIsLocatedAtTheField() throws {
        let text = """
            openapi: 3.1.0
            info: {title: x, version: "1"}
            paths:
              /movies:
                get:
                  responses:
                    "200":
                      description: [not, a, string]
            """
        let found = try #require(error(text))
        #expect(found.file == "openapi.yaml")
        #expect(found.line == 8, "\(found)")
        #expect(found.description.contains("error: not a valid OpenAPI document"))
    }

    @Test func duplicateKeysAreRefusedInYAMLAndJSON() throws {
        let yaml = try #require(error("openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\npaths: {}\n"))
        #expect(yaml.message.contains("duplicate key 'paths'"), "\(yaml)")
        #expect(yaml.line == 4 || yaml.line == 3, "\(yaml)")
        let json = try #require(error(#"{"openapi": "3.1.0", "openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}"#, file: "o.json"))
        #expect(json.message.contains("duplicate key 'openapi'"), "\(json)")
    }

    @Test func aBillionLaughsBombIsRefusedQuickly() throws {
        var text = "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        text += "paths: {}\n"
        let found = try #require(error(text))
        #expect(found.isLimit, "\(found)")
        // Measured, not walked: refused at a6 (line 9), the first anchor past 2,000,000 nodes
        // (a5 stands for 1,111,111), each anchor's total reused at its aliases.
        #expect(found.line == 9 && found.column == 5, "\(found)")
        #expect(found.message.contains("alias"))
    }

    /// Yams hashes mapping keys to find duplicates: an alias bomb used as a key would hash a
    /// billion nodes inside Yams, before any budget of ours; such keys are refused from the text.
    @Test(arguments: ["  ? *a8\n  : boom\n", "  *a8 : boom\n", "  [*a8, x]: boom\n", "  y: {x: 1, *a8}\n"])
    func aliasBombsAsKeysAreRefusedBeforeComposing(key: String) throws {
        var text = "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\nx:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...8 {
            text += "  a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n"
        }
        text += key
        let start = ContinuousClock.now
        let found = try #require(error(text))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(found.isLimit && found.line == 14, "\(found)")
        // Aliases as values, and plain keys, are fine.
        _ = try read("openapi: 3.1.0\ninfo: &i {title: x, version: \"1\"}\npaths: {}\nx-copy: *i\nx-list: [*i]\n")
    }

    @Test func oversizedAndOverdeepDocumentsAreLimits() throws {
        var limits = OpenAPIReadLimits()
        limits.maximumBytes = 1_000_000
        let big = "openapi: 3.1.0\n# " + String(repeating: "x", count: 1_000_000) + "\n"
        do {
            _ = try OpenAPIDocumentReader(limits: limits).read(Array(big.utf8), file: "big.yaml")
            Issue.record("a document over the size limit was read")
        } catch {
            #expect(error.isLimit && error.message.contains("more than the 1000000 allowed"), "\(error)")
        }
        let deep = "openapi: 3.1.0\nx: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n"
        let found = try #require(error(deep))
        #expect(found.isLimit && found.message.contains("deeper than 200"), "\(found)")
    }

    @Test func aSchemaRefCycleIsBounded() throws {
        // A recursive schema compiles (lazily resolved); a response $ref loop is an error.
        let recursive = """
            openapi: 3.1.0
            info: {title: x, version: "1"}
            paths:
              /tree:
                get:
                  responses:
                    "200":
                      description: a tree
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/Node"}
            components:
              schemas:
                Node:
                  type: object
                  properties:
                    children: {type: array, items: {$ref: "#/components/schemas/Node"}}
                Loop: {$ref: "#/components/schemas/Loop"}
            """
        _ = try read(recursive)
        let loop = """
            openapi: 3.1.0
            info: {title: x, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200": {$ref: "#/components/responses/A"}
            components:
              responses:
                A: {$ref: "#/components/responses/B"}
                B: {$ref: "#/components/responses/A"}
            """
        let found = try #require(error(loop))
        #expect(found.line > 0, "\(found)")
    }

    @Test func remoteRefsAreRefusedAndFilesBesideTheDocumentAreRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("schemas"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func document(_ ref: String) -> String {
            """
            openapi: 3.1.0
            info: {title: x, version: "1"}
            paths:
              /movies:
                get:
                  responses:
                    "200":
                      description: movies
                      content:
                        application/json:
                          schema: {$ref: "\(ref)"}
            """
        }
        try Data(#"{"type": "array", "items": {"type": "string"}}"#.utf8).write(to: folder.appendingPathComponent("schemas/movies.json"))
        try Data(document("schemas/movies.json").utf8).write(to: folder.appendingPathComponent("local.yaml"))
        try Data(document("https://schemas.example.com/movies.json").utf8).write(to: folder.appendingPathComponent("remote.yaml"))
        try Data(document("../../etc/passwd").utf8).write(to: folder.appendingPathComponent("escape.yaml"))

        let local = try OpenAPIDocumentReader().read(path: folder.appendingPathComponent("local.yaml").path)
        #expect(local.operations.count == 1)
        #expect(throws: OpenAPIError.self) { try OpenAPIDocumentReader().read(path: folder.appendingPathComponent("remote.yaml").path) }
        do {
            _ = try OpenAPIDocumentReader().read(path: folder.appendingPathComponent("remote.yaml").path)
        } catch {
            #expect(error.message.contains("remote $ref"), "\(error)")
            #expect(error.line > 0, "\(error)")
        }
        do {
            _ = try OpenAPIDocumentReader().read(path: folder.appendingPathComponent("escape.yaml").path)
            Issue.record("a $ref out of the folder was read")
        } catch {
            #expect(error.message.contains("leaves the document's folder"), "\(error)")
        }
    }

    @Test func anUnknownVersionAndANonDocumentAreErrors() throws {
        #expect(try #require(error("openapi: 4.0.0\ninfo: {title: x, version: \"1\"}\npaths: {}\n")).message.contains("not supported"))
        #expect(try #require(error("just text")).message.contains("an OpenAPI document is an object"))
        #expect(try #require(error("")).message.contains("empty"))
    }
}
