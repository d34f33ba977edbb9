import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckOpenAPI
import APICheckSchema
import APICheckStubFiles
import Foundation
import Testing

/// Each `openapi-*` rule in an in-memory crawl: once on a planted defect, never on a conforming
/// answer.
@Suite struct OpenAPIContractTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Movies, version: "1"}
        servers: [{url: "http://localhost:3000/api"}]
        paths:
          /:
            get:
              responses:
                "200":
                  description: root
                  content: {application/hal+json: {schema: {type: object, required: [_links]}}}
          /movies/{id}:
            get:
              responses:
                "200":
                  description: a movie
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer}}
                  content:
                    application/*: {schema: {$ref: "#/components/schemas/Movie"}}
                "404": {description: no such movie}
        components:
          schemas:
            Movie:
              type: object
              required: [title, year]
              properties:
                title: {type: string}
                year: {type: integer, nullable: true}
                secret: {type: string, writeOnly: true}
        """

    /// The root links to `movies`; each entry of `movies` is (id, status, content type, body,
    /// headers besides Content-Type).
    func crawl(_ movies: [(String, Int, String, String, [String: String])], rootType: String = "application/hal+json",
               extraLinks: [String] = [], profile: Bool = false, allowedHosts: Set<String> = []) async throws -> CrawlReport {
        var links = movies.map { #"{"href": "/api/movies/\#($0.0)"}"# }
        links += extraLinks.map { #"{"href": "\#($0)"}"# }
        let root: JSONValue = .object([
            JSONMember("request", .object([JSONMember("path", .string("/api/"))])),
            JSONMember("response", .object([
                JSONMember("status", 200),
                JSONMember("headers", .object([JSONMember("Content-Type", .string(rootType))])),
                JSONMember("bodyText", .string(#"{"_links": {"self": {"href": "/api/"}, "item": [\#(links.joined(separator: ","))]}}"#)),
            ])),
        ])
        var stubs = [root]
        for (id, status, type, body, headers) in movies {
            var headerMembers = [JSONMember("Content-Type", .string(type))]
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { headerMembers.append(JSONMember(name, .string(value))) }
            stubs.append(.object([
                JSONMember("request", .object([JSONMember("path", .string("/api/movies/\(id)"))])),
                JSONMember("response", .object([
                    JSONMember("status", .number(String(status))), JSONMember("headers", .object(headerMembers)),
                    JSONMember("bodyText", .string(body)),
                ])),
            ]))
        }
        for path in extraLinks {
            stubs.append(.object([
                JSONMember("request", .object([JSONMember("path", .string(URL(string: path)?.path ?? path))])),
                JSONMember("response", .object([JSONMember("status", 200), JSONMember("bodyText", .string("ok"))])),
            ]))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(JSONWriter().bytes(.object([JSONMember("stubs", .array(stubs))]))).write(to: folder.appendingPathComponent("stubs.json"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/api/")))
        options.allowedHosts = allowedHosts
        options.listsEveryCheck = true
        options.contract = OpenAPIContract(document: try OpenAPIDocumentReader().read(Array(Self.document.utf8), file: "openapi.yaml"))
        if profile {
            let schema = try JSONSchema(JSONParser().parse(Array(#"{"type": "object", "properties": {"year": {"type": "integer"}}}"#.utf8)))
            try options.profiles.add(MediaTypeProfile(key: "application/vnd.movie+json", schemaName: "movie.json", schema: schema))
        }
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    static let good = #"{"title": "Dune", "year": null}"#
    static let rate = ["X-Rate-Limit": "10"]

    func openAPIFindings(_ report: CrawlReport) -> [Finding] {
        report.findings.filter { $0.rule.rawValue.hasPrefix("openapi-") }
    }

    @Test func aConformingAPIHasNoFindings() async throws {
        let report = try await crawl([("1", 200, "application/json", Self.good, Self.rate), ("2", 404, "text/plain", "", [:])])
        #expect(openAPIFindings(report).isEmpty, "\(openAPIFindings(report))")
    }

    @Test func anUndocumentedStatus() async throws {
        let report = try await crawl([("1", 500, "text/plain", "boom", [:]), ("2", 200, "application/json", Self.good, Self.rate)])
        let findings = openAPIFindings(report)
        #expect(findings.map(\.rule) == [.openAPIStatus], "\(findings)")
        #expect(findings.first?.expected == "GET /movies/{id}: 200, 404")
        #expect(findings.first?.actual == "500")
        #expect(findings.first?.severity == .error)
    }

    @Test func anUndocumentedContentType() async throws {
        let report = try await crawl([("1", 200, "text/html", "<p>Dune</p>", Self.rate)])
        let findings = openAPIFindings(report)
        #expect(findings.map(\.rule) == [.openAPIContentType], "\(findings)")
        #expect(findings.first?.actual == "text/html")
    }

    @Test func aBodyThatBreaksTheSchemaWithItsLocations() async throws {
        let report = try await crawl([
            ("1", 200, "application/json", #"{"title": "Dune", "year": "1965"}"#, Self.rate),
            ("2", 200, "application/json", Self.good, Self.rate),
        ])
        let findings = openAPIFindings(report)
        #expect(findings.map(\.rule) == [.openAPIBody], "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.sourcePointer == "/year")
        #expect(finding.expected?.contains("#/components/schemas/Movie/properties/year") == true, "\(finding)")
        #expect(report.defects.filter { $0.rule == .openAPIBody }.count == 1)
    }

    /// A DRF-style document: the root is not documented and a URL field's pattern is Python's.
    @Test func anUndocumentedRootIsNotAFindingAndAPythonPatternIsAWarning() throws {
        let text = #"""
            {"openapi": "3.0.2", "info": {"title": "Library", "version": "1"},
             "paths": {"/books/{id}/": {"get": {"responses": {"200": {"description": "",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Book"}}}}}}}},
             "components": {"schemas": {"Book": {"type": "object", "properties": {
                "url": {"type": "string", "pattern": "^https?://\\S+\\z"},
                "author": {"type": "string", "pattern": "^https?://\\S+\\z"},
                "pages": {"type": "integer"}}}}}}
            """#
        let document = try OpenAPIDocumentReader().read(Array(text.utf8), file: "drf.json")
        #expect(document.warnings.count == 1, "\(document.warnings)")
        let warning = try #require(document.warnings.first)
        #expect(warning.description.hasPrefix("drf.json:5:"), "\(warning)")
        #expect(warning.message.contains("not an ECMA-262 regular expression") && warning.message.contains("the same at 1 more place: 6:"), "\(warning)")
        let contract = OpenAPIContract(document: document, root: URL(string: "http://127.0.0.1:8000/"))
        #expect(contract.undocumentedRoot != nil)
        func answer(_ path: String, _ body: String) -> ContractAnswer {
            ContractAnswer(method: "GET", url: URL(string: "http://127.0.0.1:8000" + path)!, status: 200,
                           headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(body.utf8))
        }
        #expect(contract.violations(of: answer("/", #"{"books": "http://127.0.0.1:8000/books/"}"#)).isEmpty)
        #expect(contract.violations(of: answer("/books/1/", #"{"url": "not checked", "pages": 3}"#)).isEmpty)
        #expect(contract.violations(of: answer("/books/2/", #"{"pages": "210"}"#)).map(\.rule) == [.openAPIBody])
        #expect(contract.violations(of: answer("/reports/", "{}")).map(\.rule) == [.openAPIOperation])
        // A documented root is checked like any operation.
        #expect(OpenAPIContract(document: document, root: URL(string: "http://127.0.0.1:8000/books/1/")).undocumentedRoot == nil)
    }

    @Test func aMissingRequiredHeader() async throws {
        let report = try await crawl([("1", 200, "application/json", Self.good, [:])])
        let findings = openAPIFindings(report)
        #expect(findings.map(\.rule) == [.openAPIHeader], "\(findings)")
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message.contains("X-Rate-Limit") == true)
    }

    @Test func anUndocumentedOperation() async throws {
        let report = try await crawl([("1", 200, "application/json", Self.good, Self.rate)], extraLinks: ["/api/posters/1"])
        let findings = openAPIFindings(report)
        #expect(findings.map(\.rule) == [.openAPIOperation], "\(findings)")
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.url.hasSuffix("/api/posters/1") == true)
    }

    @Test func anotherHostTheCrawlMayFollowIsNotThisAPI() async throws {
        let report = try await crawl(
            [("1", 200, "application/json", Self.good, Self.rate)], extraLinks: ["http://cdn.example.com/posters/1"], allowedHosts: ["cdn.example.com"])
        #expect(report.checks.contains { $0.url == "http://cdn.example.com/posters/1" })
        #expect(openAPIFindings(report).isEmpty, "\(openAPIFindings(report))")
    }

    @Test func findingsGroupIntoOneDefectPerOperation() async throws {
        let report = try await crawl([
            ("1", 500, "text/plain", "boom", [:]), ("2", 500, "text/plain", "boom", [:]), ("3", 500, "text/plain", "boom", [:]),
        ])
        #expect(openAPIFindings(report).count == 3)
        #expect(report.defects.filter { $0.rule == .openAPIStatus }.count == 1)
    }

    @Test func aPlaceTheProfileAlsoRejectsIsOneFinding() async throws {
        let report = try await crawl(
            [("1", 200, "application/vnd.movie+json", #"{"title": "Dune", "year": "1965"}"#, Self.rate)], profile: true)
        let body = report.findings.filter { $0.rule == .openAPIBody || $0.rule == .bodySchema }
        #expect(body.count == 1, "\(body)")
        #expect(body.first?.rule == .openAPIBody)
    }
}
