import APICheckInterceptor
import APICheckModel
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `RequestGate` in front of the interceptor's responder: its stub answers in place of the set
/// (and is journaled under its name); what it lets through is matched as always.
@Suite struct RequestGateTests {
    struct NoDeletes: RequestGate {
        func answer(for request: StubRequest) -> Stub? {
            guard request.method == "DELETE" else { return nil }
            return stub("refused", nil, "*", status: 405, headers: [HTTPHeader(name: "Allow", value: "GET")], body: text("no deletes"))
        }
    }

    @Test func theGateAnswersFirstAndLetsTheRestThrough() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("movie", nil, "/movies/1", body: text("Dune"))]), gate: NoDeletes())
        let session = interceptor.makeSession()
        let (data, response) = try await session.data(from: url("/movies/1"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "Dune")

        var request = URLRequest(url: url("/movies/1"))
        request.httpMethod = "DELETE"
        let (refused, refusal) = try await session.data(for: request)
        let http = try #require(refusal as? HTTPURLResponse)
        #expect(http.statusCode == 405)
        #expect(http.value(forHTTPHeaderField: "Allow") == "GET")
        #expect(String(decoding: refused, as: UTF8.self) == "no deletes")
        #expect(interceptor.journal.all.map(\.outcome.stubName) == ["movie", "refused"])
    }
}
