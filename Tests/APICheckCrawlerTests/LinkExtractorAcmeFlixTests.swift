import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckResponder
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

/// The AcmeFlix stub set (stubs/acmeflix) as the crawler would see it: each response's body and
/// headers from the stubs, read through the extractor, the media type checks and the sniffer.
@Suite struct LinkExtractorAcmeFlixTests {
    private static let stubs: StubSet = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return StubLoader().load([root.appendingPathComponent("stubs/acmeflix").path]).stubSet
    }()

    private struct Response {
        var headers: [HTTPHeader]
        var body: [UInt8]
    }

    private func get(_ path: String) throws -> Response {
        let matched = try #require(Self.stubs.match(StubRequest(method: "GET", path: path)).matched)
        let response = matched.stub.response
        switch response.body {
        case .bytes(let data):
            return Response(headers: response.headers, body: Array(data))
        case .file(let file):
            return Response(headers: response.headers, body: Array(try Data(contentsOf: file.url)))
        case .template(let template):
            // The movie pages come from one template, rendered at the service's own origin.
            let request = StubRequest(method: "GET", path: path)
            let body = try StubResponder(stubs: Self.stubs).render(template, for: matched, request: request, baseURL: "http://localhost:3000")
            return Response(headers: response.headers, body: Array(body))
        }
    }

    private func links(_ path: String) throws -> LinkExtraction {
        let response = try get(path)
        return LinkExtractor().extract(url: "http://localhost:3000" + path, headers: response.headers, body: response.body)
    }

    @Test func root() throws {
        let result = try links("/")
        #expect(result.notes.isEmpty)
        #expect(result.formats == [.linkArray])
        #expect(result.links.map(\.rel) == ["self", "library", "cart"])
        #expect(result.links.map(\.url) == ["http://localhost:3000/", "http://localhost:3000/library", "http://localhost:3000/cart/AzCa3T"])
        #expect(result.links.map(\.type) == [nil, "vnd.acmeflix.api.library+json", "vnd.acmeflix.api.cart+json"])
        #expect(result.links.map(\.source.path) == ["/_links/0", "/_links/1", "/_links/2"])
        #expect(result.links.allSatisfy { !$0.isNested && $0.method == "GET" })

        // Defect 1: declared types without a top-level type.
        let library = try #require(result.links.first { $0.rel == "library" }?.type)
        #expect(MediaType.problems(in: library).map(\.suggestion) == ["application/vnd.acmeflix.api.library+json"])
    }

    @Test func libraryListsEveryMovieAsANestedResource() throws {
        let result = try links("/library")
        #expect(result.notes.isEmpty)
        #expect(result.links.count == 25)
        // The library's own `self` (written last in the body, read first: a resource's `_links`
        // come before what it contains).
        let own = try #require(result.links.first)
        #expect(own.rel == "self")
        #expect(own.url == "http://localhost:3000/library")
        #expect(!own.isNested)
        #expect(own.source.path == "/_links/0")

        let movies = result.links.dropFirst()
        #expect(Set(movies.map(\.rel)) == ["self", "poster"])
        #expect(movies.allSatisfy { $0.isNested })
        let first = try #require(movies.first)
        #expect(first.owner == "/movies/0")
        #expect(first.source.path == "/movies/0/_links/0")
        #expect(first.url == "http://localhost:3000/movies/1msRby")
        #expect(first.type == "vnd.acmeflix.api.movies+json")
        #expect(movies.filter { $0.rel == "poster" }.allSatisfy { $0.type == "image/jpeg" })
        #expect(movies.last?.source.path == "/movies/11/_links/1")
    }

    @Test func movieWithDuplicateSelfAndARateAction() throws {
        let result = try links("/movies/pLDhp")
        #expect(result.notes.isEmpty)
        // Defect 5: two `self` links, both kept for the duplicate-rel rule to judge.
        #expect(result.links.map(\.rel) == ["self", "self", "rate", "poster"])
        #expect(result.links.map(\.type) == [nil, "vnd.acmeflix.api.movie+json", "vnd.acmeflix.api.movie+json", "image/jpg"])
        let rate = result.links[2]
        #expect(rate.method == "PUT")
        #expect(rate.parameters == [LinkParameter(name: "rating", value: "{rating}")])
        #expect(rate.parameters.first?.concreteValue == nil)
        #expect(rate.url == "http://localhost:3000/movies/pLDhp")
        #expect(!rate.isNested)

        // Defect 4: `image/jpg` is not registered, and the body is a JPEG all the same.
        #expect(MediaType.problems(in: "image/jpg").map(\.suggestion) == ["image/jpeg"])
        let poster = try get("/poster/pLDhp")
        let served = try MediaType(parsing: try #require(poster.headers.value(named: "Content-Type")))
        #expect(served.essence == "image/jpg")
        #expect(BodySniffer().check(poster.body, against: served) == .agrees)
        #expect(!(try MediaType(parsing: "image/jpeg")).matches(served))

        // Defect 2: JSON served as application/json, not the declared vendor type.
        let movie = try get("/movies/pLDhp")
        let movieType = try MediaType(parsing: try #require(movie.headers.value(named: "Content-Type")))
        #expect(BodySniffer().check(movie.body, against: movieType) == .agrees)
        let declared = try MediaType(parsing: "application/vnd.acmeflix.api.movie+json")
        #expect(declared.mismatch(with: movieType) == "the subtype is json, not vnd.acmeflix.api.movie+json")
    }

    @Test func cartItemsCarryDeleteAndTheCartAnAdd() throws {
        let result = try links("/cart/AzCa3T")
        #expect(result.notes.isEmpty)
        #expect(result.links.map(\.rel) == ["self", "add", "self", "poster", "delete"])
        #expect(result.links.map(\.isNested) == [false, false, true, true, true])
        let add = result.links[1]
        #expect(add.method == "PUT")
        #expect(add.parameters == [LinkParameter(name: "movieId", value: "{movieId}")])
        let delete = result.links[4]
        #expect(delete.method == "DELETE")
        #expect(delete.parameters.first?.concreteValue == "pLDhp")
        #expect(delete.owner == "/items/0")
        #expect(delete.source.path == "/items/0/_links/2")
    }

    @Test func everyMovieExtractsWithoutNotes() throws {
        for id in ["1msRby", "pLDhp", "DdrvJ", "iBZQ9", "L3G3N", "R0S3B", "T21DS", "TGR8D", "TUSP8", "10CFL", "JBSR3", "TSSR3"] {
            let result = try links("/movies/\(id)")
            #expect(result.notes.isEmpty, "\(id): \(result.notes)")
            #expect(result.links.contains { $0.rel == "poster" && $0.url == "http://localhost:3000/poster/\(id)" }, "\(id)")
            #expect(result.links.allSatisfy { $0.url != nil }, "\(id)")
        }
    }
}
