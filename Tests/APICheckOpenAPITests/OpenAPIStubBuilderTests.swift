import APICheckJSON
import APICheckModel
@testable import APICheckOpenAPI
import APICheckResponder
import APICheckStubFiles
import Foundation
import Testing

/// A document becomes a stub set: one stub per operation and status, one per named example,
/// bodies from examples or generated (and valid), Prefer conventions as header constraints.
@Suite struct OpenAPIStubBuilderTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Movies, version: "1"}
        servers: [{url: "http://localhost:3000/api"}]
        paths:
          /movies:
            get:
              operationId: listMovies
              responses:
                "200":
                  description: the movies
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Movie"}, minItems: 1}
                      examples:
                        classics: {value: [{title: Vertigo, year: 1958}]}
                        recent: {value: [{title: Dune, year: 2021}]}
                "500": {description: broken, content: {application/problem+json: {example: {title: boom}}}}
          /movies/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}, example: 42}
            get:
              responses:
                "200":
                  description: a movie
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer, minimum: 10}}
                    X-Optional: {schema: {type: string}}
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Movie"}}
                    application/xml: {schema: {type: string}}
                "404": {description: no such movie}
                default: {description: error, content: {application/json: {schema: {type: object, required: [message], properties: {message: {type: string}}}}}}
            delete:
              responses:
                "204": {description: deleted}
        components:
          schemas:
            Movie:
              type: object
              required: [title, year]
              properties:
                title: {type: string, minLength: 2}
                year: {type: integer, minimum: 1888, nullable: true}
                secret: {type: string, writeOnly: true}
        """

    static func read(_ text: String = document) throws -> OpenAPIDocument {
        try OpenAPIDocumentReader().read(Array(text.utf8), file: "movies.yaml")
    }

    func file(_ stubs: OpenAPIStubs, _ name: String) throws -> OpenAPIStubFile {
        try #require(stubs.files.first { $0.name == name }, "no \(name) among \(stubs.files.map(\.name))")
    }

    @Test func oneStubPerOperationAndStatusAndOnePerNamedExampleWithDeterministicNames() throws {
        let stubs = OpenAPIStubBuilder().build(try Self.read())
        #expect(stubs.files.map(\.name) == [
            "listMovies.200.json", "listMovies.200.classics.json", "listMovies.200.recent.json", "listMovies.500.json",
            "get-movies-id.200.json", "get-movies-id.404.json", "get-movies-id.500.json",
            "delete-movies-id.204.json",
        ])
        #expect(stubs.files.map(\.prefer) == [nil, "example=classics", "example=recent", "code=500", nil, "code=404", "code=500", nil])
        #expect(stubs.diagnostics.isEmpty, "\(stubs.diagnostics)")
        // The same document gives the same bytes.
        let again = OpenAPIStubBuilder().build(try Self.read()).files
        for (first, second) in zip(stubs.files, again) where first.bytes != second.bytes {
            Issue.record("\(first.name) differs: \(String(decoding: first.bytes, as: UTF8.self)) vs \(String(decoding: second.bytes, as: UTF8.self))")
        }
    }

    @Test func bodiesComeFromExamplesFirstAndTheFirstNamedOneIsTheStatusOwn() throws {
        let stubs = OpenAPIStubBuilder().build(try Self.read())
        #expect(try file(stubs, "listMovies.200.json").json["response"]?["body"] == .array([.object(["title": "Vertigo", "year": 1958])]))
        #expect(try file(stubs, "listMovies.200.recent.json").json["response"]?["body"] == .array([.object(["title": "Dune", "year": 2021])]))
        let failure = try file(stubs, "listMovies.500.json").json["response"]
        #expect(failure?["body"] == .object(["title": "boom"]))
        #expect(failure?["headers"]?["Content-Type"] == "application/problem+json")
    }

    @Test func generatedBodiesAndHeadersAreValidAgainstTheSameCompiledSchemas() throws {
        let document = try Self.read()
        let stubs = OpenAPIStubBuilder().build(document)
        let movie = try file(stubs, "get-movies-id.200.json").json
        let body = try #require(movie["response"]?["body"])
        let operation = try #require(document.operations.first { $0.name == "GET /movies/{id}" })
        let schema = try #require(operation.responses.first { $0.status == "200" }?.mediaTypes.first?.schema)
        #expect(schema.isValid(body), "\(JSONWriter().string(body)): \(schema.validate(body).errors)")
        #expect(body["secret"] == nil, "writeOnly properties are not in responses")
        // JSON is preferred over XML; the required header gets a generated value, the optional none.
        let headers = try #require(movie["response"]?["headers"])
        #expect(headers["Content-Type"] == "application/json")
        let rateLimit = try #require(headers["X-Rate-Limit"].flatMap { if case .string(let text) = $0 { Int(text) } else { nil } })
        #expect(rateLimit >= 10)
        #expect(headers["X-Optional"] == nil)
        // The templated path's example: the parameter's own example.
        #expect(movie["request"]?["example"] == "/movies/42")
        #expect(movie["request"]?["path"] == "/movies/{id}")
        // `default` beside a 2xx answers 500; its body is generated and valid too.
        let fallback = try #require(try file(stubs, "get-movies-id.500.json").json["response"]?["body"])
        let defaultSchema = try #require(operation.responses.first { $0.status == "default" }?.mediaTypes.first?.schema)
        #expect(defaultSchema.isValid(fallback))
        // No content: no body, no Content-Type.
        let deleted = try file(stubs, "delete-movies-id.204.json").json["response"]
        #expect(deleted?["body"] == nil)
        #expect(deleted?["headers"] == nil)
    }

    @Test func theDefaultAnswerIsTheLowest2xxThen3xxThenDefault() throws {
        func defaultStatus(_ responses: String) throws -> Int? {
            let text = """
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /x:
                    get:
                      responses:
                \(responses)
                """
            return OpenAPIStubBuilder().build(try Self.read(text)).files.first { $0.prefer == nil }?.status
        }
        #expect(try defaultStatus("        \"404\": {description: a}\n        \"201\": {description: b}\n        \"200\": {description: c}") == 200)
        #expect(try defaultStatus("        \"404\": {description: a}\n        \"302\": {description: b}") == 302)
        #expect(try defaultStatus("        \"404\": {description: a}\n        default: {description: b}") == 200)
        #expect(try defaultStatus("        \"4XX\": {description: a}") == 400)
    }

    @Test func theSetLoadsWithoutAnyDiagnosticAndEachPreferPicksItsAnswer() throws {
        let document = try Self.read()
        let stubs = OpenAPIStubBuilder().build(document)
        let result = StubLoader().load(jsonFiles: stubs.files.map { ($0.name, $0.bytes) }, folder: FileManager.default.temporaryDirectory.path)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.stubSet.count == stubs.files.count)
        let responder = StubResponder(stubs: result.stubSet, gate: OpenAPIRequestGate(document: document, stubs: stubs, validatesRequests: false))
        func answer(_ method: String, _ target: String, prefer: String? = nil) -> (Int, String) {
            let reply = responder.reply(
                to: StubRequest(method: method, target: target, headers: prefer.map { [HTTPHeader(name: "Prefer", value: $0)] } ?? []),
                at: .target(origin: "http://127.0.0.1", target: target))
            guard case .bytes(let data) = reply.body else { return (reply.status, "") }
            return (reply.status, String(decoding: data, as: UTF8.self))
        }
        #expect(answer("GET", "/movies").0 == 200)
        #expect(answer("GET", "/movies").1.contains("Vertigo"))
        #expect(answer("GET", "/movies", prefer: "example=recent").1.contains("Dune"))
        #expect(answer("GET", "/movies", prefer: "code=500").0 == 500)
        #expect(answer("GET", "/movies/7").0 == 200)
        #expect(answer("GET", "/movies/7", prefer: "code=404").0 == 404)
        #expect(answer("GET", "/movies/7", prefer: "code=200").0 == 200)
        #expect(answer("DELETE", "/movies/7").0 == 204)
        // A code the operation does not document: a 404 problem listing what it answers.
        let (status, problem) = answer("GET", "/movies/7", prefer: "code=418")
        #expect(status == 404)
        #expect(problem.contains("Requested status code 418 is not defined in the document for GET /movies/{id}"), "\(problem)")
        #expect(problem.contains("code=404"))
        let (unknownStatus, unknown) = answer("GET", "/movies", prefer: "example=nope")
        #expect(unknownStatus == 404)
        #expect(unknown.contains("example=classics"))
        // Other preferences are not ours to refuse.
        #expect(answer("GET", "/movies", prefer: "return=minimal").0 == 200)
    }

    @Test func namesAreSlugsAndCollisionsGetANumber() {
        var used = Set<String>()
        #expect(OpenAPIStubBuilder.unique("a.200.json", in: &used) == "a.200.json")
        #expect(OpenAPIStubBuilder.unique("A.200.json", in: &used) == "A.200-2.json")
        #expect(MockContext.slug("get /files/{name}.json") == "get-files-name-json")
        #expect(MockContext.slug("v1.2 pets") == "v1.2-pets")
        #expect(MockContext.slug("../../etc/passwd") == "etc-passwd")
    }

    @Test func anUnsatisfiableSchemaIsAWarningAtItsPlaceAndTheStubHasNoBody() throws {
        let text = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /x:
                get:
                  responses:
                    "200":
                      description: never
                      content:
                        application/json:
                          schema: {type: string, minLength: 5, maxLength: 2}
            """
        let stubs = OpenAPIStubBuilder().build(try Self.read(text))
        #expect(stubs.files.count == 1)
        #expect(stubs.files[0].json["response"]?["body"] == nil)
        let warning = try #require(stubs.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.location.path == "movies.yaml")
        #expect(warning.location.line == 11)
    }

    @Test func recursiveSchemasAndPathsAStubWouldReadAsGlobsStayBoundedAndLiteral() throws {
        let text = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /files/*:
                get:
                  responses:
                    "200":
                      description: a tree
                      content: {application/json: {schema: {$ref: "#/components/schemas/Node"}}}
              /search now/{term}:
                get:
                  parameters: [{name: term, in: path, required: true, schema: {type: string, pattern: "^[a-z]{3}$"}}]
                  responses:
                    "200": {description: ok}
            components:
              schemas:
                Node:
                  type: object
                  required: [name, children]
                  properties:
                    name: {type: string}
                    children: {type: array, items: {$ref: "#/components/schemas/Node"}}
            """
        let document = try Self.read(text)
        let start = ContinuousClock.now
        let stubs = OpenAPIStubBuilder().build(document)
        #expect(ContinuousClock.now - start < .seconds(5))
        let tree = try file(stubs, "get-files.200.json").json
        #expect(tree["request"]?["path"] == "/files/%2A")
        let schema = try #require(document.operations.first { $0.path == "/files/*" }?.responses.first?.mediaTypes.first?.schema)
        #expect(schema.isValid(try #require(tree["response"]?["body"])))
        let search = try file(stubs, "get-search-now-term.200.json").json
        #expect(search["request"]?["path"] == "/search%20now/{term}")
        let loaded = StubLoader().load(jsonFiles: stubs.files.map { ($0.name, $0.bytes) }, folder: "/tmp")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let responder = StubResponder(stubs: loaded.stubSet)
        #expect(responder.reply(to: StubRequest(method: "GET", target: "/files/*"), at: .target(origin: "http://h", target: "/files/*")).status == 200)
        #expect(responder.reply(to: StubRequest(method: "GET", target: "/files/other"), at: .target(origin: "http://h", target: "/files/other")).status == 404)
        let example = try #require(search["request"]?["example"].flatMap { if case .string(let text) = $0 { text } else { nil } })
        #expect(responder.reply(to: StubRequest(method: "GET", target: example), at: .target(origin: "http://h", target: example)).status == 200)
    }
}
