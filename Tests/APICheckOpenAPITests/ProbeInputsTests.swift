import APICheckJSON
@testable import APICheckOpenAPI
import Testing

/// What `apicheck probe --openapi` reads from a document: request bodies with their schemas and
/// examples, path and query parameters, the documented success type.
@Suite struct ProbeInputsTests {
    static let document = """
        openapi: 3.1.0
        info: {title: Books, version: "1"}
        servers: [{url: /api}]
        paths:
          /books:
            get:
              parameters:
                - {name: size, in: query, required: true, schema: {type: integer, minimum: 1, maximum: 100}}
              responses: {"200": {description: ok, content: {application/json: {schema: {type: array}}}}}
            post:
              requestBody:
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/Book"}
                    example: {title: Dune}
              responses: {"201": {description: created}}
          /books/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get:
              responses: {"200": {description: ok, content: {application/hal+json: {schema: {$ref: "#/components/schemas/Book"}}}}}
        components:
          schemas:
            Book:
              type: object
              required: [title]
              properties:
                title: {type: string, maxLength: 80}
                sequel: {$ref: "#/components/schemas/Book"}
        """

    @Test func operationsBecomeBodiesParametersAndTypes() throws {
        let inputs = try OpenAPIDocumentReader().read(Array(Self.document.utf8), file: "openapi.yaml").probeInputs
        #expect(inputs.map(\.operationName) == ["GET /books", "POST /books", "GET /books/{id}"])
        #expect(inputs.map(\.basePaths) == [["/api"], ["/api"], ["/api"]])
        let search = inputs[0]
        #expect(search.querySchema?["required"] == .array([.string("size")]))
        #expect(search.querySchema?["properties"]?["size"]?["maximum"] == .number("100"))
        let create = inputs[1]
        #expect(create.bodyContentType == "application/json")
        #expect(create.bodyExamples == [.object([JSONMember("title", .string("Dune"))])])
        #expect(create.bodySchema?["properties"]?["title"]?["maxLength"] == .number("80"), "the $ref is inlined")
        // A schema that refers to itself is cut where it goes round, never expanded forever.
        var depth = 0
        var schema = create.bodySchema
        while let sequel = schema?["properties"]?["sequel"] { depth += 1; schema = sequel }
        #expect(depth > 1 && depth <= OpenAPIDocument.maximumInlinedReferences + 1)
        #expect(inputs[2].pathParameters == ["id"] && inputs[2].responseType == "application/hal+json")
    }
}
