import APICheckCrawler
import APICheckModel
import APICheckOpenAPI
import Foundation
import Synchronization
import Testing

/// Documents by URL: the document and its same-origin `$ref`s fetched, other hosts only when
/// allowed, every fetch bounded. A fetcher of our own answers (no network).
@Suite struct OpenAPIDocumentLoaderTests {
    final class Documents: CrawlFetcher {
        let answers: [String: (Int, String)]
        let requested = Mutex<[String]>([])
        init(_ answers: [String: (Int, String)]) { self.answers = answers }
        var isLive: Bool { true }
        func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
            requested.withLock { $0.append(request.url.absoluteString) }
            guard let (status, body) = answers[request.url.absoluteString] else { throw FetchError(.connectionFailed, "refused") }
            let bytes = Data(body.utf8)
            return FetchedResponse(status: status, headers: [], body: bytes.prefix(maximumBodyBytes), isTruncated: bytes.count > maximumBodyBytes)
        }
        func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }
    }

    static func document(_ ref: String) -> String {
        """
        {"openapi": "3.1.0", "info": {"title": "x", "version": "1"},
         "paths": {"/movies": {"get": {"responses": {"200": {"description": "movies",
           "content": {"application/json": {"schema": {"$ref": "\(ref)"}}}}}}}}}
        """
    }

    static let movies = #"{"type": "array", "items": {"$ref": "movie.json"}}"#
    static let movie = #"{"type": "object", "required": ["title"]}"#

    @Test func aDocumentByURLWithItsSameOriginReferences() async throws {
        let fetcher = Documents([
            "http://127.0.0.1:8000/openapi.json": (200, Self.document("schemas/movies.json#")),
            "http://127.0.0.1:8000/schemas/movies.json": (200, Self.movies),
            "http://127.0.0.1:8000/schemas/movie.json": (200, Self.movie),
        ])
        let document = try await OpenAPIDocumentLoader(fetcher: fetcher).load("http://127.0.0.1:8000/openapi.json")
        #expect(document.file == "http://127.0.0.1:8000/openapi.json")
        let contract = OpenAPIContract(document: document)
        let answer = ContractAnswer(
            method: "GET", url: URL(string: "http://127.0.0.1:8000/movies")!, status: 200,
            headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(#"[{"year": 1965}]"#.utf8))
        // The nested reference (movie.json, from movies.json) was fetched and is checked.
        #expect(contract.violations(of: answer).map(\.rule) == [.openAPIBody])
        #expect(fetcher.requested.withLock { $0 }.count == 3)
    }

    @Test func anotherHostIsFetchedOnlyWhenAllowed() async throws {
        let fetcher = Documents([
            "http://127.0.0.1:8000/openapi.json": (200, Self.document("http://schemas.example/movie.json")),
            "http://schemas.example/movie.json": (200, Self.movie),
        ])
        await #expect(throws: OpenAPIError.self) { try await OpenAPIDocumentLoader(fetcher: fetcher).load("http://127.0.0.1:8000/openapi.json") }
        do {
            _ = try await OpenAPIDocumentLoader(fetcher: fetcher).load("http://127.0.0.1:8000/openapi.json")
        } catch {
            #expect(error.message.contains("remote $ref 'http://schemas.example/movie.json' is refused"), "\(error)")
            #expect(error.message.contains("--allow-remote-refs"))
        }
        #expect(!fetcher.requested.withLock { $0 }.contains("http://schemas.example/movie.json"))
        let allowed = try await OpenAPIDocumentLoader(fetcher: fetcher, allowsRemoteReferences: true).load("http://127.0.0.1:8000/openapi.json")
        #expect(allowed.operations.count == 1)
    }

    @Test func failedAndOversizedFetchesAreErrors() async throws {
        let fetcher = Documents(["http://127.0.0.1:8000/missing.json": (404, "{}"), "http://127.0.0.1:8000/big.json": (200, String(repeating: " ", count: 2_000))])
        var reader = OpenAPIDocumentReader()
        reader.limits.maximumBytes = 1_000
        let loader = OpenAPIDocumentLoader(reader: reader, fetcher: fetcher)
        await #expect { try await loader.load("http://127.0.0.1:8000/missing.json") } throws: { error in
            (error as? OpenAPIError)?.message == "GET http://127.0.0.1:8000/missing.json answered 404, not the document"
        }
        await #expect { try await loader.load("http://127.0.0.1:8000/big.json") } throws: { error in
            (error as? OpenAPIError)?.isLimit == true
        }
        await #expect { try await loader.load("http://127.0.0.1:8000/refused.json") } throws: { error in
            (error as? OpenAPIError)?.message.contains("failed") == true
        }
        // Without a fetcher (the library in an app's tests) a URL is a clear error, not a fetch.
        await #expect(throws: OpenAPIError.self) { try await OpenAPIDocumentLoader().load("http://127.0.0.1:8000/openapi.json") }
    }

    @Test func aReferenceWebIsBoundedByTheExternalFileLimit() async throws {
        var answers: [String: (Int, String)] = ["http://127.0.0.1:8000/openapi.json": (200, Self.document("s0.json"))]
        for index in 0..<10 { answers["http://127.0.0.1:8000/s\(index).json"] = (200, #"{"$ref": "s\#(index + 1).json"}"#) }
        var reader = OpenAPIDocumentReader()
        reader.limits.maximumExternalFiles = 4
        await #expect { try await OpenAPIDocumentLoader(reader: reader, fetcher: Documents(answers)).load("http://127.0.0.1:8000/openapi.json") } throws: {
            (($0 as? OpenAPIError)?.isLimit ?? false)
        }
    }
}
