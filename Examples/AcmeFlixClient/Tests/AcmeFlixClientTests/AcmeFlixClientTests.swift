import AcmeFlixClient
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The intended workflow: the app's client takes a URLSession; every test gets one answered from
/// `stubs/acmeflix` (the same files `apicheck serve` and `apicheck crawl` use), through the
/// `.stubs` trait with a path relative to this file. Each request no stub answers fails its test.
@Suite(.stubs("../../../../stubs/acmeflix")) struct AcmeFlixClientTests {
    static let root = URL(string: "http://localhost:3000/")!

    private var client: AcmeFlixClient { AcmeFlixClient(rootURL: Self.root, session: Stubs.current.session) }

    @Test func browsesFromTheRootToEveryMovie() async throws {
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
        Stubs.current.expectRequested("GET", "/movies/{id}", .exactly(12))
    }

    @Test func rentsAMovieInStock() async throws {
        let shining: Resource<Movie> = try await client.follow("self", from: try await client.follow("library", from: try await client.root(), as: Library.self).item.movies[0])
        let cart = try await client.rent(shining)
        #expect(cart.item.count == 2)
        #expect(cart.item.items.map(\.item.id) == ["pLDhp", "1msRby"])
        Stubs.current.expectRequested("PUT", "/cart/AzCa3T", .exactly(1), body: .jsonPointer(path: "/movieId", equals: "1msRby"))
    }

    @Test func anOutOfStockMovieOffersNoRentAndTheClientSendsNothing() async throws {
        let fightClub: Resource<Movie> = try await client.follow("self", from: try await client.follow("library", from: try await client.root(), as: Library.self).item.movies[1])
        #expect(fightClub.item.stock == 0)
        await #expect(throws: AcmeFlixError.capabilityUnavailable("rent")) { try await client.rent(fightClub) }
        Stubs.current.expectRequested("PUT", "/cart/{id}", .never)
        // Rating is offered, with a template parameter the client fills in.
        let rated = try await client.rate(fightClub, rating: 9)
        #expect(rated.item.id == "pLDhp")
        Stubs.current.expectRequested("PUT", "/movies/pLDhp", .exactly(1), body: .jsonPointer(path: "/rating", equals: "9"))
    }

    @Test func theBrokenPosterSurfacesAsAServerError() async throws {
        let library: Resource<Library> = try await client.follow("library", from: try await client.root())
        let cloverfield = try #require(library.item.movies.first { $0.item.id == "10CFL" })
        await #expect(throws: AcmeFlixError.status(500, URL(string: "http://localhost:3000/poster/10CFL")!)) { try await client.poster(of: cloverfield) }
        let jpeg = try await client.poster(of: library.item.movies[0])
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    /// The same scope, opened by hand, with one answer replaced in code for this test alone.
    @Test func aNetworkFailureReachesTheCaller() async throws {
        try await withStubs("../../../../stubs/acmeflix") { stubs in
            try stubs.stub(.get("/library")) { _ in throw URLError(.networkConnectionLost) }
            let client = AcmeFlixClient(rootURL: Self.root, session: stubs.session)
            let error = await #expect(throws: URLError.self) { try await client.follow("library", from: try await client.root(), as: Library.self) }
            #expect(error?.code == .networkConnectionLost)
        }
    }
}
