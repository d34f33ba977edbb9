import AcmeFlixClient
import APICheckInterceptor
import APICheckModel
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The intended workflow: the app's client takes a URLSession; tests hand it one answered from
/// `stubs/acmeflix`, the same files `apicheck serve` and `apicheck crawl` use.
@Suite struct AcmeFlixClientTests {
    static let stubs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("stubs/acmeflix").path
    static let root = URL(string: "http://localhost:3000/")!

    @Test func browsesFromTheRootToEveryMovie() async throws {
        try await withStubbedSession(loading: [Self.stubs]) { session, stubs in
            let client = AcmeFlixClient(rootURL: Self.root, session: session)
            let root = try await client.root()
            #expect(root.hasCapability("library"))
            #expect(root.hasCapability("cart"), "the cart link shows while the cart holds movies")
            let library: Resource<Library> = try await client.follow("library", from: root)
            #expect(library.item.count == 12)
            for summary in library.item.movies {
                let movie: Resource<Movie> = try await client.follow("self", from: summary)
                #expect(movie.item.id == summary.item.id)
                #expect(movie.hasCapability("rent") == (movie.item.stock > 0))
                #expect(movie.hasCapability("rate") == movie.item.ratingEnabled)
            }
            expectRequested(stubs, "GET", "/movies/{id}", .exactly(12))
            expectNoUnmatchedRequests(stubs)
        }
    }

    @Test func rentsAMovieInStock() async throws {
        try await withStubbedSession(loading: [Self.stubs]) { session, stubs in
            let client = AcmeFlixClient(rootURL: Self.root, session: session)
            let shining: Resource<Movie> = try await client.follow("self", from: try await client.follow("library", from: try await client.root(), as: Library.self).item.movies[0])
            let cart = try await client.rent(shining)
            #expect(cart.item.count == 2)
            #expect(cart.item.items.map(\.item.id) == ["pLDhp", "1msRby"])
            expectRequested(stubs, "PUT", "/cart/AzCa3T", .exactly(1), body: .jsonPointer(path: "/movieId", equals: "1msRby"))
        }
    }

    @Test func anOutOfStockMovieOffersNoRentAndTheClientSendsNothing() async throws {
        try await withStubbedSession(loading: [Self.stubs]) { session, stubs in
            let client = AcmeFlixClient(rootURL: Self.root, session: session)
            let fightClub: Resource<Movie> = try await client.follow("self", from: try await client.follow("library", from: try await client.root(), as: Library.self).item.movies[1])
            #expect(fightClub.item.stock == 0)
            await #expect(throws: AcmeFlixError.capabilityUnavailable("rent")) { try await client.rent(fightClub) }
            expectRequested(stubs, "PUT", "/cart/{id}", .never)
            // Rating is offered, with a template parameter the client fills in.
            let rated = try await client.rate(fightClub, rating: 9)
            #expect(rated.item.id == "pLDhp")
            expectRequested(stubs, "PUT", "/movies/pLDhp", .exactly(1), body: .jsonPointer(path: "/rating", equals: "9"))
        }
    }

    @Test func theBrokenPosterSurfacesAsAServerError() async throws {
        try await withStubbedSession(loading: [Self.stubs]) { session, _ in
            let client = AcmeFlixClient(rootURL: Self.root, session: session)
            let library: Resource<Library> = try await client.follow("library", from: try await client.root())
            let cloverfield = try #require(library.item.movies.first { $0.item.id == "10CFL" })
            await #expect(throws: AcmeFlixError.status(500, URL(string: "http://localhost:3000/poster/10CFL")!)) { try await client.poster(of: cloverfield) }
            let jpeg = try await client.poster(of: library.item.movies[0])
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        }
    }

    @Test func aNetworkFailureReachesTheCaller() async throws {
        // The loaded set plus one stub, more specific by priority, that drops the connection.
        let loaded = try StubInterceptor(loading: [Self.stubs]).stubs
        var offline = loaded.stubs.first { $0.request.path.text == "/library" }!
        offline.response = StubResponse(failure: .networkConnectionLost)
        offline.priority = 10
        try await withStubbedSession(StubSet(loaded.stubs + [offline])) { session, _ in
            let client = AcmeFlixClient(rootURL: Self.root, session: session)
            let error = await #expect(throws: URLError.self) { try await client.follow("library", from: try await client.root(), as: Library.self) }
            #expect(error?.code == .networkConnectionLost)
        }
    }
}
