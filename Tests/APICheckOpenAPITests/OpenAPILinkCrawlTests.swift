import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckOpenAPI
import APICheckStubFiles
import Foundation
import Testing

/// OpenAPI links drive an in-memory crawl of an API without hypermedia: the document's Link
/// Objects and its path parameters filled from list answers reach operations no answer links
/// to, and the report counts the operations reached.
@Suite struct OpenAPILinkCrawlTests {
    /// The OpenAPI Initiative's link example, as published in github.com/OAI/OpenAPI-Specification
    /// (`_archive_/schemas/v3.0/pass/link-example.yaml` at 46c1076; Apache License 2.0), unchanged
    /// but for its indentation.
    static let linkExample = """
        openapi: 3.0.0
        info: {title: Link Example, version: 1.0.0}
        paths:
          /2.0/users/{username}:
            get:
              operationId: getUserByName
              parameters: [{name: username, in: path, required: true, schema: {type: string}}]
              responses:
                '200':
                  description: The User
                  content: {application/json: {schema: {$ref: '#/components/schemas/user'}}}
                  links:
                    userRepositories: {$ref: '#/components/links/UserRepositories'}
          /2.0/repositories/{username}:
            get:
              operationId: getRepositoriesByOwner
              parameters: [{name: username, in: path, required: true, schema: {type: string}}]
              responses:
                '200':
                  description: repositories owned by the supplied user
                  content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/repository'}}}}
                  links:
                    userRepository: {$ref: '#/components/links/UserRepository'}
          /2.0/repositories/{username}/{slug}:
            get:
              operationId: getRepository
              parameters:
                - {name: username, in: path, required: true, schema: {type: string}}
                - {name: slug, in: path, required: true, schema: {type: string}}
              responses:
                '200':
                  description: The repository
                  content: {application/json: {schema: {$ref: '#/components/schemas/repository'}}}
                  links:
                    repositoryPullRequests: {$ref: '#/components/links/RepositoryPullRequests'}
          /2.0/repositories/{username}/{slug}/pullrequests:
            get:
              operationId: getPullRequestsByRepository
              parameters:
                - {name: username, in: path, required: true, schema: {type: string}}
                - {name: slug, in: path, required: true, schema: {type: string}}
                - {name: state, in: query, schema: {type: string, enum: [open, merged, declined]}}
              responses:
                '200':
                  description: an array of pull request objects
                  content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/pullrequest'}}}}
          /2.0/repositories/{username}/{slug}/pullrequests/{pid}:
            get:
              operationId: getPullRequestsById
              parameters:
                - {name: username, in: path, required: true, schema: {type: string}}
                - {name: slug, in: path, required: true, schema: {type: string}}
                - {name: pid, in: path, required: true, schema: {type: string}}
              responses:
                '200':
                  description: a pull request object
                  content: {application/json: {schema: {$ref: '#/components/schemas/pullrequest'}}}
                  links:
                    pullRequestMerge: {$ref: '#/components/links/PullRequestMerge'}
          /2.0/repositories/{username}/{slug}/pullrequests/{pid}/merge:
            post:
              operationId: mergePullRequest
              parameters:
                - {name: username, in: path, required: true, schema: {type: string}}
                - {name: slug, in: path, required: true, schema: {type: string}}
                - {name: pid, in: path, required: true, schema: {type: string}}
              responses:
                '204': {description: the PR was successfully merged}
        components:
          links:
            UserRepositories:
              operationId: getRepositoriesByOwner
              parameters: {username: $response.body#/username}
            UserRepository:
              operationId: getRepository
              parameters: {username: $response.body#/owner/username, slug: $response.body#/slug}
            RepositoryPullRequests:
              operationId: getPullRequestsByRepository
              parameters: {username: $response.body#/owner/username, slug: $response.body#/slug}
            PullRequestMerge:
              operationId: mergePullRequest
              parameters: {username: $response.body#/author/username, slug: $response.body#/repository/slug, pid: $response.body#/id}
          schemas:
            user: {type: object, properties: {username: {type: string}, uuid: {type: string}}}
            repository: {type: object, properties: {slug: {type: string}, owner: {$ref: '#/components/schemas/user'}}}
            pullrequest:
              type: object
              properties:
                id: {type: integer}
                title: {type: string}
                repository: {$ref: '#/components/schemas/repository'}
                author: {$ref: '#/components/schemas/user'}
        """

    /// Crawls `stubs` (path → plain JSON body, or method + path) in memory from `root` with
    /// `document`.
    static func crawl(
        _ stubs: [(method: String, path: String, status: Int, body: String)], root: String, document: String, configure: (inout CrawlOptions) -> Void = { _ in }
    ) async throws -> CrawlReport {
        let values: [JSONValue] = stubs.map { stub in
            var response = [JSONMember("status", .number(String(stub.status)))]
            if !stub.body.isEmpty {
                response.append(JSONMember("headers", .object([JSONMember("Content-Type", "application/json")])))
                response.append(JSONMember("bodyText", .string(stub.body)))
            }
            return .object([
                JSONMember("request", .object([JSONMember("method", .string(stub.method)), JSONMember("path", .string(stub.path))])),
                JSONMember("response", .object(response)),
            ])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-openapi-links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(JSONWriter().bytes(.object([JSONMember("stubs", .array(values))]))).write(to: folder.appendingPathComponent("stubs.json"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.errors.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000" + root)))
        options.listsEveryCheck = true
        let read = try OpenAPIDocumentReader().read(Array(document.utf8), file: "openapi.yaml")
        options.contract = OpenAPIContract(document: read)
        configure(&options)
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    static let bitbucket: [(method: String, path: String, status: Int, body: String)] = [
        ("GET", "/2.0/users/alice", 200, #"{"username": "alice", "uuid": "u-1"}"#),
        ("GET", "/2.0/repositories/alice", 200, #"[{"slug": "api", "owner": {"username": "alice"}}]"#),
        ("GET", "/2.0/repositories/alice/api", 200, #"{"slug": "api", "owner": {"username": "alice"}}"#),
        ("GET", "/2.0/repositories/alice/api/pullrequests", 200, #"[{"id": 7, "title": "Fix"}]"#),
        ("GET", "/2.0/repositories/alice/api/pullrequests/7", 200,
         #"{"id": 7, "title": "Fix", "repository": {"slug": "api"}, "author": {"username": "alice"}}"#),
        ("POST", "/2.0/repositories/alice/api/pullrequests/7/merge", 204, ""),
    ]

    @Test func theLinkExampleIsFollowedFromPlainJSON() async throws {
        let report = try await Self.crawl(Self.bitbucket, root: "/2.0/users/alice", document: Self.linkExample)
        let checks = report.checks.map { "\($0.rel ?? "-") \($0.method) \($0.url) \($0.outcome.name)" }
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.statistics.resourcesFetched == 5, "\(checks)")
        // The document's links by their names; the repository reached by filling {slug} from the list.
        let rels = Set(report.checks.map(\.rel))
        #expect(rels.isSuperset(of: ["userRepositories", "getRepository", "repositoryPullRequests", "pullRequestMerge"]), "\(checks)")
        let merge = try #require(report.checks.first { $0.rel == "pullRequestMerge" })
        #expect(merge.method == "POST")
        #expect(merge.url == "http://localhost:3000/2.0/repositories/alice/api/pullrequests/7/merge")
        // The POST is not sent without --unsafe, so its operation is the one never reached.
        let coverage = try #require(report.operationCoverage)
        #expect(coverage.total == 6)
        #expect(coverage.unreached == ["POST /2.0/repositories/{username}/{slug}/pullrequests/{pid}/merge"])
    }

    @Test func aLinkWhoseValueIsMissingIsLeftOut() async throws {
        // The user lacks `username`: the link to its repositories cannot be filled.
        var stubs = Self.bitbucket
        stubs[0].body = #"{"uuid": "u-1"}"#
        let report = try await Self.crawl(stubs, root: "/2.0/users/alice", document: Self.linkExample)
        #expect(report.statistics.resourcesFetched == 1)
        #expect(report.operationCoverage?.reached == 1)
        #expect(report.operationCoverage?.unreached.contains("GET /2.0/repositories/{username}") == true)
    }

    @Test func linksCanBeTurnedOff() async throws {
        let report = try await Self.crawl(Self.bitbucket, root: "/2.0/users/alice", document: Self.linkExample) { options in
            guard var contract = options.contract as? OpenAPIContract else { return }
            contract.followsLinks = false
            contract.fillsParameters = false
            options.contract = contract
        }
        #expect(report.statistics.resourcesFetched == 1)
    }

    static let movies = """
        openapi: 3.1.0
        info: {title: Movies, version: "1"}
        paths:
          /movies:
            get:
              responses:
                "200": {description: movies, content: {application/json: {schema: {type: object}}}}
          /movies/{movieId}:
            get:
              operationId: getMovie
              responses:
                "200": {description: a movie, content: {application/json: {schema: {type: object, required: [title]}}}}
          /movies/{movieId}/cast:
            get:
              responses:
                "200": {description: its cast, content: {application/json: {schema: {type: array}}}}
          /people/{personId}:
            get:
              responses:
                "200": {description: a person}
        """

    @Test func pathParametersAreFilledFromAListAnswerBoundedBySample() async throws {
        var stubs: [(method: String, path: String, status: Int, body: String)] = [
            ("GET", "/movies", 200, #"{"count": 5, "results": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5}]}"#)
        ]
        for id in 1...5 {
            // Movie 2 breaks its schema: found through a fill, reported against its operation.
            stubs.append(("GET", "/movies/\(id)", 200, id == 2 ? #"{"name": "two"}"# : #"{"title": "Movie \#(id)"}"#))
            stubs.append(("GET", "/movies/\(id)/cast", 200, #"[{"id": 9}]"#))
        }
        let report = try await Self.crawl(stubs, root: "/movies", document: Self.movies)
        // Links to the same resource (a cast from the list's item and from the movie) check it once.
        let fetched = Set(report.checks.filter { $0.outcome.wasChecked }.map(\.url))
        // The first 3 items of the list (the default bound), then each movie's cast.
        #expect(fetched.filter { $0.hasPrefix("http://localhost:3000/movies/") && !$0.hasSuffix("/cast") }.count == 3, "\(fetched)")
        #expect(fetched.filter { $0.hasSuffix("/cast") }.count == 3, "\(fetched)")
        #expect(!fetched.contains("http://localhost:3000/movies/4"))
        #expect(report.checks.contains { $0.rel == "getMovie" && $0.sourcePointer == "/results/0/id" })
        #expect(report.findings.map(\.rule) == [.openAPIBody], "\(report.findings.map(\.message))")
        #expect(report.findings.first?.url == "http://localhost:3000/movies/2")
        // A person's id is never seen: the one operation not reached.
        #expect(report.operationCoverage?.unreached == ["GET /people/{personId}"])
        #expect(report.operationCoverage?.reached == 3)
    }

    @Test func sampleRaisesTheBound() async throws {
        var stubs: [(method: String, path: String, status: Int, body: String)] = [
            ("GET", "/movies", 200, #"[{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5}]"#)
        ]
        for id in 1...5 { stubs.append(("GET", "/movies/\(id)", 200, #"{"title": "M"}"#)) }
        let report = try await Self.crawl(stubs, root: "/movies", document: Self.movies) { options in
            options.parameterFillsPerOperation = 5
            guard var contract = options.contract as? OpenAPIContract else { return }
            contract.fillsPerAnswer = 5
            options.contract = contract
        }
        #expect(report.checks.filter { $0.rel == "getMovie" && $0.outcome.wasChecked }.count == 5)
    }

    @Test func badLinksAreLocatedWarningsNotErrors() throws {
        let document = """
            openapi: 3.0.3
            info: {title: T, version: "1"}
            paths:
              /a:
                get:
                  operationId: getA
                  responses:
                    "200":
                      description: a
                      links:
                        nowhere: {operationId: nope}
                        badExpression: {operationId: getA, parameters: {x: "$response.bodyy"}}
                        remote: {operationRef: "https://example.com/openapi.yaml#/paths/~1a/get"}
                        fine: {operationRef: "#/paths/~1a/get"}
            """
        let read = try OpenAPIDocumentReader().read(Array(document.utf8), file: "openapi.yaml")
        let warnings = read.linkTable.warnings.map(\.description)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.first?.hasPrefix("openapi.yaml:11:") == true, "\(warnings)")
        #expect(warnings.allSatisfy { $0.contains(": warning: ") })
        #expect(read.linkTable.allLinks.map(\.name) == ["fine"])
    }
}
