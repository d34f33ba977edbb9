import APICheckJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `apicheck import openapi` and `apicheck serve --openapi`, the built binary end to end (serve on
/// 127.0.0.1, real sockets).
@Suite struct OpenAPIMockCommandTests {
    func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "apicheck-import-\(UUID().uuidString)")
    }

    @Test func importWritesAStubSetThatLintsCleanAndRefusesAFullFolderWithoutForce() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try CLI.run(["import", "openapi", "Examples/openapi/oai/petstore.yaml", "--to", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Wrote 6 stub files for 3 operations"), "\(imported.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == [
            "createPets.201.json", "createPets.500.json", "listPets.200.json", "listPets.500.json", "showPetById.200.json",
            "showPetById.500.json",
        ], "\(names)")

        let lint = try CLI.run(["lint", folder.path, "--strict"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("0 errors, 0 warnings"), "\(lint.stdout)")

        let again = try CLI.run(["import", "openapi", "Examples/openapi/oai/petstore.yaml", "--to", folder.path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("error: the folder is not empty"), "\(again.stderr)")
        let forced = try CLI.run(["import", "openapi", "Examples/openapi/oai/petstore.yaml", "--to", folder.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func theAcmeFlixDocumentImportsAndLintsCleanToo() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try CLI.run(["import", "openapi", "stubs/acmeflix.openapi.yaml", "--to", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")
        let lint = try CLI.run(["lint", folder.path, "--strict"])
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    @Test func aDocumentThatDoesNotReadIsALocatedErrorWithExitTwo() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appending(path: "bad.yaml")
        try Data("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        '200': {description: [not, text]}\n".utf8)
            .write(to: document)
        let result = try CLI.run(["import", "openapi", document.path, "--to", folder.appending(path: "out").path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(document.path):7:"), "\(result.stderr)")
        #expect(result.stderr.contains(": error: "))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "out").path))
        let served = try CLI.run(["serve", "--openapi", document.path, "--port", "0"])
        #expect(served.status == 2)
        #expect(served.stderr.contains("\(document.path):7:"), "\(served.stderr)")
    }

    @Test func helpHasExamples() throws {
        let help = try CLI.run(["import", "openapi", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"))
        #expect(help.stdout.contains("apicheck import openapi Examples/openapi/oai/petstore.yaml --to /tmp/pets\n"), "\(help.stdout)")
        let serve = try CLI.run(["serve", "--help"])
        #expect(serve.stdout.contains("--openapi"))
        #expect(serve.stdout.contains("--validate-requests"))
    }

    // MARK: serve --openapi

    func send(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws -> (Int, [AnyHashable: Any], String) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.allHeaderFields ?? [:], String(decoding: data, as: UTF8.self))
    }

    @Test func serveOpenAPIAnswersTheDefaultAnswerAndWhatPreferPicks() async throws {
        let server = try ServeCommandTests.ServeProcess(["--openapi", "stubs/acmeflix.openapi.yaml", "--port", "0"])
        try server.waitUntilListening()
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:"))

        let (status, _, movie) = try await send(server.baseURL + "/movies/1msRby")
        #expect(status == 200)
        #expect(try JSONParser().parseValue(Array(movie.utf8))["_links"] != nil, "a body generated from movie.json: \(movie)")
        let (missing, _, _) = try await send(server.baseURL + "/movies/1msRby", headers: ["Prefer": "code=404"])
        #expect(missing == 404)
        let (undocumented, headers, problem) = try await send(server.baseURL + "/movies/1msRby", headers: ["Prefer": "code=418"])
        #expect(undocumented == 404)
        #expect((headers["Content-Type"] as? String) == "application/problem+json")
        #expect(problem.contains("Requested status code 418 is not defined in the document for GET /movies/{id}"), "\(problem)")
        #expect(problem.contains("code=404"))
        // Without --validate-requests, what no stub answers is the usual near-miss 404.
        let (unknown, _, nearMiss) = try await send(server.baseURL + "/series")
        #expect(unknown == 404)
        #expect(nearMiss.contains("No stub matches GET /series"))
        #expect(server.stop() == 0)
    }

    @Test func serveOpenAPIValidatesRequestsWhenAsked() async throws {
        let server = try ServeCommandTests.ServeProcess(["--openapi", "stubs/acmeflix.openapi.yaml", "--port", "0", "--validate-requests"])
        try server.waitUntilListening()
        let (unknown, _, problem) = try await send(server.baseURL + "/series")
        #expect(unknown == 404)
        #expect(problem.contains("GET /series is not a path of the document"), "\(problem)")
        let (method, headers, _) = try await send(server.baseURL + "/library", method: "DELETE")
        #expect(method == 405)
        #expect((headers["Allow"] as? String) == "GET")
        let (type, _, _) = try await send(server.baseURL + "/movies/1", method: "PUT", headers: ["Content-Type": "text/plain"], body: "5")
        #expect(type == 415)
        let (invalid, _, invalidBody) = try await send(
            server.baseURL + "/movies/1", method: "PUT", headers: ["Content-Type": "application/json"], body: #"{"rating": "five"}"#)
        #expect(invalid == 422)
        #expect(invalidBody.contains("\"location\" : \"/rating\"") || invalidBody.contains("\"location\": \"/rating\""), "\(invalidBody)")
        let (valid, _, _) = try await send(server.baseURL + "/movies/1", method: "PUT", headers: ["Content-Type": "application/json"], body: #"{"rating": 5}"#)
        #expect(valid == 200)
        #expect(server.stop() == 0)
    }

    @Test func serveRefusesStubFoldersWithOpenAPIAndValidationWithoutIt() throws {
        let both = try CLI.run(["serve", "stubs/acmeflix", "--openapi", "stubs/acmeflix.openapi.yaml", "--port", "0"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("not both"), "\(both.stderr)")
        let alone = try CLI.run(["serve", "stubs/acmeflix", "--validate-requests", "--port", "0"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("add --openapi FILE"), "\(alone.stderr)")
    }
}
