import APICheckJSON
import Foundation
import Testing

/// `apicheck lint --openapi`: stubs against the API's document, each mismatch a diagnostic at its
/// stub (or in its body file), with the rule's severity and the exit codes of lint.
@Suite struct LintOpenAPITests {
    static let document = """
        openapi: 3.0.3
        info: {title: Pets, version: "1"}
        servers:
          - url: https://api.example.com/v1
        paths:
          /pets/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: A pet.
                  headers:
                    ETag: {required: true, schema: {type: string}}
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Pet"}
                "404":
                  description: No such pet.
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties:
                id: {type: integer}
                name: {type: string}

        """

    private func stub(_ method: String, _ path: String, status: Int, type: String? = "application/json", body: String) -> String {
        let headers = (type.map { "\"Content-Type\": \"\($0)\", " } ?? "") + "\"ETag\": \"\\\"1\\\"\""
        return "{\"request\": {\"method\": \"\(method)\", \"path\": \"/v1\(path)\"},\n \"response\": {\"status\": \(status), \"headers\": {\(headers)}, \(body)}}\n"
    }

    @Test func plantedMismatchesAreDiagnosticsAtTheirStubs() throws {
        let folder = try CLIFolder()
        let openAPI = try folder.write("pets.yaml", Self.document)
        try folder.write("stubs/ok.json", stub("GET", "/pets/{id}", status: 200, body: #""body": {"id": 1, "name": "Rex"}"#))
        try folder.write("stubs/gone.json", stub("GET", "/pets/9", status: 404, type: nil, body: #""bodyText": """#))
        try folder.write("stubs/owners.json", stub("GET", "/owners", status: 200, body: #""body": []"#))
        try folder.write("stubs/delete.json", stub("DELETE", "/pets/1", status: 204, type: nil, body: #""bodyText": """#))
        try folder.write("stubs/crash.json", stub("GET", "/pets/2", status: 500, body: #""body": {"error": "boom"}"#))
        try folder.write("stubs/text.json", stub("GET", "/pets/3", status: 200, type: "text/plain", body: #""bodyText": "Rex""#))
        try folder.write("stubs/pet4.json", stub("GET", "/pets/4", status: 200, body: #""bodyFile": "pet4.body""#))
        try folder.write("stubs/pet4.body", "{\n  \"id\": \"four\",\n  \"name\": \"Rex\"\n}\n")
        // A body file two stubs share: its problem is reported once, in the file.
        try folder.write("stubs/pet44.json", stub("GET", "/pets/44", status: 200, body: #""bodyFile": "pet4.body""#))
        try folder.write("stubs/noetag.json", "{\"request\": {\"path\": \"/v1/pets/5\"}, \"response\": {\"status\": 200, \"headers\": {\"Content-Type\": \"application/json\"}, \"body\": {\"id\": 5, \"name\": \"Tom\"}}}\n")
        try folder.write("stubs/pet6.mustache", "{\"id\": 6, \"name\": \"{{name}}\"}")
        try folder.write("stubs/template.json", stub("GET", "/pets/6", status: 200, body: #""template": {"path": "pet6.mustache", "variables": {"name": "Kit"}}"#))
        try folder.write("stubs/template-type.json", stub("GET", "/pets/7", status: 200, type: "text/html", body: #""template": {"path": "pet6.mustache", "variables": {"name": "Kit"}}"#))
        try folder.write("stubs/glob.json", stub("GET", "/files/**", status: 200, body: #""body": {}"#))

        let run = try CLI.run(["lint", folder.path("stubs"), "--openapi", openAPI])
        let stubs = folder.path("stubs")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let expected = [
            "\(stubs)/owners.json:1:1: warning: GET /v1/owners is not an operation of the document: no path template matches it under the servers' base paths (/v1) [openapi-operation]",
            "\(stubs)/delete.json:1:1: warning: DELETE /v1/pets/1 is not documented: the document lists only GET for /pets/{id} [openapi-operation]",
            "\(stubs)/crash.json:1:1: error: GET /pets/{id} answered 500, which the document does not list (it lists 200, 404) [openapi-status]",
            "\(stubs)/text.json:1:1: error: GET /pets/{id} 200 served text/plain, which the document does not list (it lists application/json) [openapi-content-type]",
            "\(stubs)/pet4.body:2:9: error: the body at /id does not match the document's schema for GET /pets/{id} 200 application/json (#/components/schemas/Pet/properties/id/type): ",
            "\(stubs)/noetag.json:1:1: warning: GET /pets/{id} 200 lacks the header ETag, which the document requires [openapi-header]",
            "\(stubs)/template.json:1:1: note: this stub's body is a template ({{…}}), rendered per request: status and type are checked against \(openAPI), not the content",
            "\(stubs)/template-type.json:1:1: error: GET /pets/{id} 200 served text/html, which the document does not list (it lists application/json) [openapi-content-type]",
            "\(stubs)/glob.json:1:1: note: '/v1/files/**' is a glob, so no one operation of \(openAPI) can be checked for it; give the stub an example request to check it",
        ]
        for line in expected {
            #expect(lines.contains { $0.hasPrefix(line) }, "missing \(line)\n\(run.stdout)")
        }
        // Nothing about the stubs the document allows, and one diagnostic per planted mismatch.
        #expect(!run.stdout.contains("ok.json") && !run.stdout.contains("gone.json"), "\(run.stdout)")
        #expect(lines.filter { $0.contains(": error: ") }.count == 4, "\(run.stdout)")
        #expect(lines.filter { $0.contains(": warning: ") }.count == 3, "\(run.stdout)")
        #expect(run.stdout.contains("4 errors, 3 warnings"), "\(run.stdout)")

        let json = try CLI.run(["lint", folder.path("stubs"), "--openapi", openAPI, "--format", "json"])
        #expect(json.status == 1)
        let report = try JSONParser().parseValue(Array(json.stdout.utf8))
        #expect(report["summary"]?["errors"] == 4)
    }

    /// The demo's stubs against its own description: the posters served as image/jpg (the
    /// document says image/jpeg) and the poster that answers 500, as `crawl --openapi` finds them;
    /// the other bodies conform, and the movie templates are said once per file.
    @Test func theDemoAgainstItsDescription() throws {
        let run = try CLI.run(["lint", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.contains(": error: ") }
        let type = ": error: GET /poster/{id} 200 served image/jpg, which the document does not list (it lists image/jpeg) [openapi-content-type]"
        #expect(errors.filter { $0.hasPrefix("stubs/acmeflix/posters/posters.xml:") && $0.hasSuffix(type) }.count == 11, "\(run.stdout)")
        #expect(errors.contains(
            "stubs/acmeflix/posters/posters.xml:76:3: error: GET /poster/{id} answered 500, which the document does not list (it lists 200, 404) [openapi-status]"))
        #expect(errors.count == 12, "\(run.stdout)")
        #expect(!run.stdout.contains(": warning: "), "\(run.stdout)")
        #expect(lines.filter { $0.contains(": note: ") }.map { String($0.prefix { $0 != " " }) }
            == ["stubs/acmeflix/movies/movies.json:3:5:", "stubs/acmeflix/movies/rate.json:3:5:"], "\(run.stdout)")
        #expect(run.stdout.contains("8 stub files, 48 stubs: 12 errors, 0 warnings"))
    }

    /// A stub of the API's answer without credentials: a 401 the document's security explains is
    /// a note naming the scheme, not an undocumented status; on an operation without security it is one.
    @Test func a401ThatTheSecurityExplainsIsANote() throws {
        let folder = try CLIFolder()
        let openAPI = try folder.write("me.yaml", """
            openapi: 3.1.0
            info: {title: Me, version: "1"}
            paths:
              /me:
                get:
                  security: [{token: []}]
                  responses: {"200": {description: me}}
              /status:
                get:
                  responses: {"200": {description: up}}
            components:
              securitySchemes:
                token: {type: http, scheme: bearer}

            """)
        try folder.write("stubs/me.json", #"{"request": {"path": "/me"}, "response": {"status": 401, "headers": {"WWW-Authenticate": "Bearer"}}}"#)
        try folder.write("stubs/status.json", #"{"request": {"path": "/status"}, "response": {"status": 401}}"#)
        let run = try CLI.run(["lint", folder.path("stubs"), "--openapi", openAPI])
        let stubs = folder.path("stubs")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains(
            "\(stubs)/me.json:1:1: note: GET /me answers 401, which the document does not list but its security explains: needs credentials: scheme token (HTTP bearer: --header-from-env 'Authorization: Bearer $TOKEN')"),
            "\(run.stdout)")
        #expect(run.stdout.contains(
            "\(stubs)/status.json:1:1: error: GET /status answered 401, which the document does not list (it lists 200); the document requires no credentials for it (no security requirement) [openapi-status]"),
            "\(run.stdout)")
        #expect(run.stdout.contains("1 error, 0 warnings"), "\(run.stdout)")
    }

    @Test func warningsAloneExitZeroUnlessStrict() throws {
        let folder = try CLIFolder()
        let openAPI = try folder.write("pets.yaml", Self.document)
        try folder.write("stubs/owners.json", stub("GET", "/owners", status: 200, body: #""body": []"#))
        #expect(try CLI.run(["lint", folder.path("stubs"), "--openapi", openAPI]).status == 0)
        #expect(try CLI.run(["lint", folder.path("stubs"), "--openapi", openAPI, "--strict"]).status == 1)
    }

    @Test func aDocumentThatDoesNotLoadIsALocatedErrorAndExitsTwo() throws {
        let folder = try CLIFolder()
        let openAPI = try folder.write("broken.yaml", "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: 7\n")
        let run = try CLI.run(["lint", "stubs/acmeflix", "--openapi", openAPI])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("\(openAPI):"), "\(run.stderr)")
        let missing = try CLI.run(["lint", "stubs/acmeflix", "--openapi", "no/such.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--openapi 'no/such.yaml': no such file."), "\(missing.stderr)")
    }
}

/// A scratch folder for one test, removed when it ends.
final class CLIFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
