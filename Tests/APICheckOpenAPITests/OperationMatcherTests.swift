import APICheckOpenAPI
import Testing

/// A request reaches its operation through the servers' base paths, the most literal template
/// and the method.
@Suite struct OperationMatcherTests {
    static let document = """
        openapi: 3.1.0
        info: {title: x, version: "1"}
        servers: [{url: "https://api.example.com/v1/"}, {url: "/"}]
        paths:
          /movies/{id}:
            get: {responses: {"200": {description: one}}}
            delete: {responses: {"204": {description: gone}}}
          /movies/new:
            get: {responses: {"200": {description: the form}}}
          /files/{name}.json:
            get: {responses: {"200": {description: a file}}}
          /:
            get: {responses: {"200": {description: root}}}
          /uploads/{id}:
            servers: [{url: "https://files.example.com/storage"}]
            get: {responses: {"200": {description: a file}}}
            delete:
              servers: [{url: "https://files.example.com/admin"}]
              responses: {"204": {description: gone}}
        """

    func name(_ method: String, _ path: String) throws -> String {
        let document = try OpenAPIDocumentReader().read(Array(Self.document.utf8), file: "o.yaml")
        switch document.operation(method: method, path: path) {
        case .operation(let operation): return operation.name
        case .methodNotDocumented(let template, let methods): return "method? \(template) \(methods.joined(separator: ","))"
        case .pathNotDocumented: return "path?"
        }
    }

    @Test func basePathsArePrefixesAndTheRootServerToo() throws {
        #expect(try name("GET", "/v1/movies/3") == "GET /movies/{id}")
        #expect(try name("GET", "/movies/3") == "GET /movies/{id}")
        #expect(try name("GET", "/v1/") == "GET /")
        #expect(try name("GET", "/") == "GET /")
    }

    @Test func aLiteralSegmentWinsOverATemplatedOne() throws {
        #expect(try name("GET", "/v1/movies/new") == "GET /movies/new")
        #expect(try name("GET", "/v1/movies/old") == "GET /movies/{id}")
        #expect(try name("GET", "/v1/files/report.json") == "GET /files/{name}.json")
        #expect(try name("GET", "/v1/files/report.xml") == "path?")
    }

    @Test func pathAndOperationServersOverrideTheDocumentsServers() throws {
        #expect(try name("GET", "/storage/uploads/7") == "GET /uploads/{id}")
        #expect(try name("GET", "/v1/uploads/7") == "path?")
        #expect(try name("DELETE", "/admin/uploads/7") == "DELETE /uploads/{id}")
        #expect(try name("DELETE", "/storage/uploads/7") == "method? /uploads/{id} GET")
    }

    @Test func theMethodMustBeDocumented() throws {
        #expect(try name("delete", "/v1/movies/3") == "DELETE /movies/{id}")
        #expect(try name("PUT", "/v1/movies/3") == "method? /movies/{id} DELETE,GET")
        #expect(try name("GET", "/v1/movies/3/poster") == "path?")
        // A parameter takes at least one character.
        #expect(try name("GET", "/v1/movies/") == "path?")
    }
}
