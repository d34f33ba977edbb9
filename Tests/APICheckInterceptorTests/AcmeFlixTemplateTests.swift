import APICheckInterceptor
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The AcmeFlix movie pages come from one template (stubs/acmeflix/movies/movie.json.mustache) and
/// per-movie variables; at the service's own origin they must be byte-for-byte what the service
/// sends (Fixtures/acmeflix-movies, written by scripts/generate-acmeflix-stubs.py from the same data).
@Suite struct AcmeFlixTemplateTests {
    static let expected = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("acmeflix-movies")

    static var movieIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: expected.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyMovieRendersExactlyAsTheServiceSendsIt() async throws {
        #expect(Self.movieIDs.count == 12)
        try await withStubs(Repository.acmeflix) { stubs in
            let session = stubs.session
            for id in Self.movieIDs {
                let expected = try Data(contentsOf: Self.expected.appendingPathComponent("\(id).json"))
                let (data, response) = try await session.data(from: URL(string: "http://localhost:3000/movies/\(id)")!)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
                #expect(String(decoding: data, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "movie \(id)")
            }
        }
    }

    @Test func ratingAnswersTheMovieAsGETDoes() async throws {
        try await withStubs(Repository.acmeflix) { stubs in
            var request = URLRequest(url: URL(string: "http://localhost:3000/movies/iBZQ9")!)
            request.httpMethod = "PUT"
            request.httpBody = Data(#"{"rating":9}"#.utf8)
            let (data, _) = try await stubs.session.data(for: request)
            #expect(data == (try Data(contentsOf: Self.expected.appendingPathComponent("iBZQ9.json"))))
        }
    }

    @Test func movieLinksNameWhicheverOriginServesThem() async throws {
        try await withStubs(Repository.acmeflix) { stubs in
            let (data, _) = try await stubs.session.data(from: URL(string: "http://127.0.0.1:8123/movies/pLDhp")!)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains(#""href":"http://127.0.0.1:8123/movies/pLDhp""#))
            #expect(!text.contains("localhost:3000"))
            // Out of stock: no rent link; rateable: a rate link; the defect (two selfs) is kept.
            #expect(!text.contains(#""rel":"rent""#))
            #expect(text.contains(#""rel":"rate""#))
            #expect(text.components(separatedBy: #""rel":"self""#).count == 3)
        }
    }
}

/// In a test, a misspelt name is a stub quietly missing its method or header: loading refuses it.
@Suite struct StrictLoadingTests {
    @Test func aMisspeltNameFailsLoadingWithItsLocationAndTheKnownSpelling() async throws {
        let folder = try TemporaryFolder()
        try folder.write("rent.xml", """
            <http-response statusCode="200">
              <annotation uri-path="/cart" request-methd="PUT"/>
            </http-response>
            """)
        let error = await #expect(throws: StubLoadingError.self) { try await withStubs(folder.path) { _ in } }
        #expect(error?.description.contains("rent.xml:2:32: warning: unknown attribute request-methd on <annotation> is ignored (did you mean request-method?)") == true, "\(String(describing: error))")
        try folder.write("rent.xml", """
            <http-response statusCode="200" xmlns:team="urn:team" team:owner="payments">
              <annotation uri-path="/cart" request-method="PUT"/>
            </http-response>
            """)
        await #expect(throws: Never.self) { try await withStubs(folder.path) { _ in } }
    }
}
