import APICheckJSON
import APICheckModel
import APICheckOpenAPI
import APICheckResponder
import APICheckStubFiles
import Foundation
import Testing

/// `--validate-requests`: the gate in front of the document's stub set refuses what the document
/// does not allow, with a problem document naming the parameter or the body's failing place, and
/// lets everything else through to the stubs.
@Suite struct OpenAPIRequestGateTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Movies, version: "1"}
        paths:
          /movies:
            parameters:
              - {name: X-Client, in: header, required: true, schema: {type: string, minLength: 2}}
            get:
              parameters:
                - {name: limit, in: query, schema: {type: integer, maximum: 100}}
                - {name: tags, in: query, schema: {type: array, items: {type: string, enum: [new, old]}}}
              responses:
                "200": {description: ok, content: {application/json: {example: []}}}
            post:
              requestBody:
                required: true
                content:
                  application/json: {schema: {$ref: "#/components/schemas/Movie"}}
              responses:
                "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Movie"}}}}
          /movies/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                "200": {description: ok}
        components:
          schemas:
            Movie:
              type: object
              required: [id, title]
              properties:
                id: {type: integer, readOnly: true}
                title: {type: string}
                year: {type: integer}
        """

    struct Answer {
        var status: Int
        var headers: [HTTPHeader]
        var body: JSONValue?
        var text: String
    }

    let responder: StubResponder

    init() throws {
        let document = try OpenAPIDocumentReader().read(Array(Self.document.utf8), file: "movies.yaml")
        let stubs = OpenAPIStubBuilder().build(document)
        let gate = OpenAPIRequestGate(document: document, stubs: stubs, validatesRequests: true)
        #expect(gate.diagnostics.isEmpty)
        let loaded = StubLoader().load(jsonFiles: stubs.files.map { ($0.name, $0.bytes) }, folder: "/tmp")
        responder = StubResponder(stubs: loaded.stubSet, gate: gate)
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [("X-Client", "app")], body: String? = nil) -> Answer {
        let request = StubRequest(
            method: method, target: target, headers: headers.map { HTTPHeader(name: $0.0, value: $0.1) }, body: Data((body ?? "").utf8))
        let reply = responder.reply(to: request, at: .target(origin: "http://127.0.0.1", target: target))
        guard case .bytes(let data) = reply.body else { return Answer(status: reply.status, headers: reply.headers, body: nil, text: "") }
        return Answer(status: reply.status, headers: reply.headers, body: try? JSONParser().parseValue([UInt8](data)), text: String(decoding: data, as: UTF8.self))
    }

    @Test func aValidRequestReachesTheStubs() {
        #expect(send("GET", "/movies").status == 200)
        #expect(send("GET", "/movies?limit=100&tags=new&tags=old").status == 200)
        #expect(send("GET", "/movies/12").status == 200)
        // readOnly `id` is required in responses, not in requests (OpenAPI 3.0's request direction).
        #expect(send("POST", "/movies", headers: [("X-Client", "app"), ("Content-Type", "application/json")], body: #"{"title": "Dune"}"#).status == 201)
    }

    @Test func unknownPathsAndMethodsAreRefused() {
        let unknown = send("GET", "/series")
        #expect(unknown.status == 404)
        #expect(unknown.headers.first { $0.name == "Content-Type" }?.value == "application/problem+json")
        #expect(unknown.text.contains("GET /series is not a path of the document"))
        let method = send("DELETE", "/movies")
        #expect(method.status == 405)
        #expect(method.headers.first { $0.name == "Allow" }?.value == "GET, POST")
    }

    @Test func missingAndInvalidParametersAre400NamingTheParameter() {
        let missing = send("GET", "/movies", headers: [])
        #expect(missing.status == 400)
        #expect(missing.text.contains("header parameter 'X-Client'"), "\(missing.text)")
        let notANumber = send("GET", "/movies?limit=ten")
        #expect(notANumber.status == 400)
        #expect(notANumber.body?["errors"]?.firstElement?["name"] == "limit")
        #expect(notANumber.text.contains("The parameter 'limit' does not match"), "\(notANumber.text)")
        #expect(send("GET", "/movies?limit=101").status == 400)
        #expect(send("GET", "/movies?tags=new&tags=blue").body?["errors"]?.firstElement?["location"] == "/1")
        #expect(send("GET", "/movies/abc").body?["errors"]?.firstElement?["name"] == "id")
        #expect(send("GET", "/movies", headers: [("x-client", "a")]).status == 400, "header names are case-insensitive; the value is too short")
    }

    @Test func bodiesAreCheckedForPresenceTypeSyntaxAndSchema() {
        let json = [("X-Client", "app"), ("Content-Type", "application/json")]
        #expect(send("POST", "/movies", headers: json).status == 400)
        let type = send("POST", "/movies", headers: [("X-Client", "app"), ("Content-Type", "text/plain")], body: "Dune")
        #expect(type.status == 415)
        #expect(type.text.contains("application/json"))
        #expect(send("POST", "/movies", headers: json, body: "{").status == 400)
        let invalid = send("POST", "/movies", headers: json, body: #"{"title": "Dune", "year": "soon"}"#)
        #expect(invalid.status == 422)
        #expect(invalid.body?["errors"]?.firstElement?["location"] == "/year")
        #expect(invalid.body?["operation"] == "POST /movies")
        #expect(invalid.text.contains("the body at /year does not match"), "\(invalid.text)")
        // A readOnly property sent in a request is refused.
        #expect(send("POST", "/movies", headers: json, body: #"{"id": 1, "title": "Dune"}"#).status == 422)
    }
}

extension JSONValue {
    fileprivate var firstElement: JSONValue? {
        if case .array(let elements) = self { return elements.first }
        return nil
    }
}
