import APICheckJSON
import Foundation
import Testing

/// `apicheck crawl --openapi` as users run it: the demo checked against its own description, and
/// a document that does not load.
@Suite struct OpenAPICrawlTests {
    @Test func theDemoAgainstItsDescription() throws {
        let run = try CLI.run([
            "crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml", "--format", "json",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let report = try JSONParser().parseValue(Array(run.stdout.utf8))
        guard case .array(let findings)? = report["findings"] else {
            Issue.record("no findings array: \(run.stdout.prefix(300)) \(run.stderr)")
            return
        }
        let openAPI = findings.filter { ($0["rule"]?.plainString ?? "").hasPrefix("openapi-") }
        // The demo's real defects, as the document sees them: the poster that answers 500 and the
        // posters served as image/jpg instead of the documented image/jpeg. Its bodies conform.
        #expect(openAPI.contains { $0["rule"] == "openapi-status" && $0["url"] == "http://localhost:3000/poster/10CFL" && $0["actual"] == "500" })
        #expect(openAPI.contains { $0["rule"] == "openapi-content-type" && $0["actual"] == "image/jpg" })
        #expect(!openAPI.contains { $0["rule"] == "openapi-body" || $0["rule"] == "openapi-operation" }, "\(openAPI)")

        let text = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml"])
        #expect(text.stdout.contains("error[openapi-status]"), "\(text.stdout)")
        let sarif = try CLI.run([
            "crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml", "--format", "sarif",
        ])
        #expect(sarif.stdout.contains("\"openapi-content-type\""))
    }

    @Test func coverageListsTheOperationsNeverReached() throws {
        let run = try CLI.run([
            "crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml", "--format", "json",
        ])
        let report = try JSONParser().parseValue(Array(run.stdout.utf8))
        // The demo's unsafe operations are checked against stubs, never answered through the crawl.
        #expect(report["operationCoverage"] == .object([
            JSONMember("total", 8), JSONMember("reached", 5), JSONMember("unreached", .array(["PUT /movies/{id}", "PUT /cart/{id}", "DELETE /cart/{id}"])),
        ]), "\(run.stderr)")
        let text = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml", "--coverage"])
        #expect(text.stdout.contains("Operations reached: 5 of 8; documented but never reached:\n  PUT /movies/{id}\n  PUT /cart/{id}\n  DELETE /cart/{id}\n"))
        let plain = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix"])
        #expect(!plain.stdout.contains("Operations reached"))
    }

    @Test func aDocumentThatDoesNotLoadIsALocatedErrorAndExitsTwo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.yaml")
        try Data("openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: 7\n".utf8).write(to: file)
        let run = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(file.path):6:"), "\(run.stderr)")
        #expect(run.stderr.contains("error:"))

        let swagger = folder.appendingPathComponent("swagger.json")
        try Data(#"{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}"#.utf8).write(to: swagger)
        let refused = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--openapi", swagger.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("Swagger 2.0"), "\(refused.stderr)")
    }
}

extension OpenAPICrawlTests {
    /// A live API that serves its own document (FastAPI's /openapi.json) and a schema beside it:
    /// `--openapi URL` fetches both, the body is checked, the undocumented root is a note.
    @Test func aDocumentByURLWithItsSameOriginRefs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-url-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = #"{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {"/movies": {"get": {"responses": {"200": {"description": "movies", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "schemas/movie.json"}}}}}}}}}}"#
        let stubs = #"""
            {"stubs": [
              {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"movies_url": "/movies"}}},
              {"request": {"path": "/movies"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": [{"title": 1965}]}},
              {"request": {"path": "/openapi.json"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyText": \#(String(decoding: JSONWriter().bytes(.string(document)), as: UTF8.self))}},
              {"request": {"path": "/schemas/movie.json"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"type": "object", "properties": {"title": {"type": "string"}}}}}
            ]}
            """#
        try stubs.write(to: folder.appendingPathComponent("api.json"), atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.ServeProcess([folder.path, "--port", "0", "--log-level", "error"])
        try server.waitUntilListening()
        defer { _ = server.stop() }

        let run = try CLI.run(["crawl", server.baseURL + "/", "--openapi", server.baseURL + "/openapi.json"])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("error[openapi-body] the body's /*/title: expected a string, found an integer (GET /movies 200 application/json: schemas/movie.json#/properties/title/type)"), "\(run.stdout)")
        #expect(!run.stdout.contains("openapi-operation"), "\(run.stdout)")
        #expect(run.stderr.contains("note: the crawl's root (GET /) is not an operation of the document"), "\(run.stderr)")

        let missing = try CLI.run(["crawl", server.baseURL + "/", "--openapi", server.baseURL + "/nope.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: GET \(server.baseURL)/nope.json answered 404, not the document"), "\(missing.stderr)")
    }
}

extension OpenAPICrawlTests {
    /// A production document (servers: https://…/api/v1) checked against the API served at the
    /// crawl's root: operations are matched under the root too, with a note; a document that
    /// describes nothing the crawl reached is an error (exit 2), never a pass.
    @Test func aDocumentForAnotherBasePathAndOneThatMatchesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-base-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("stubs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
            {"stubs": [
              {"request": {"path": "/"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"movies_url": "/movies"}}},
              {"request": {"path": "/movies"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": [{"title": 1965}]}}
            ]}
            """#.write(to: folder.appendingPathComponent("stubs/api.json"), atomically: true, encoding: .utf8)
        func document(_ path: String) -> String {
            #"{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "servers": [{"url": "https://movies.example.com/api/v1"}], "paths": {"\#(path)": {"get": {"responses": {"200": {"description": "movies", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}}}}}}}}}}}}"#
        }
        try document("/movies").write(to: folder.appendingPathComponent("production.json"), atomically: true, encoding: .utf8)
        try document("/films").write(to: folder.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        let stubs = folder.appendingPathComponent("stubs").path

        let production = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", stubs, "--openapi", folder.appendingPathComponent("production.json").path])
        #expect(production.status == 1, "\(production.stdout) \(production.stderr)")
        #expect(production.stderr.contains("note: the crawl's root is not under the document's servers (/api/v1); operations are matched under the root's path too"), "\(production.stderr)")
        #expect(production.stdout.contains("error[openapi-body] the body's /*/title: expected a string"), "\(production.stdout)")

        let other = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", stubs, "--openapi", folder.appendingPathComponent("other.json").path])
        #expect(other.status == 2, "\(other.stdout) \(other.stderr)")
        #expect(other.stderr.contains("error: no answer of the crawl matched an operation of"), "\(other.stderr)")
    }
}

extension JSONValue {
    fileprivate var plainString: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
