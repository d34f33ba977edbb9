// Written by `apicheck init`: tests that answer URLSession requests from the stubs in stubs/,
// in process, without a server. Replace the requests with calls to your own API client.
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `.stubs(…)` runs each test in its own stubs scope: `Stubs.current.session` is answered from the
/// stub folder (relative to this file), and a request no stub answered fails the test, once, with
/// its URL, the nearest stubs and why they missed. Hand that session to your own API client.
@Suite(.stubs("../../stubs")) struct StubbedAPITests {
    @Test func theRootLinksToTheItems() async throws {
        let stubs = Stubs.current
        let (data, response) = try await stubs.session.data(from: URL(string: "https://api.example.com/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/hal+json")
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let links = root?["_links"] as? [String: Any]
        #expect((links?["items"] as? [String: Any])?["href"] as? String == "/items")
        stubs.expectRequested("GET", "/", .exactly(1))
    }

    @Test func anyItemIsRenderedFromItsId() async throws {
        let (data, _) = try await Stubs.current.session.data(from: URL(string: "https://api.example.com/items/42")!)
        let item = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(item?["id"] as? String == "42")
    }

    @Test func aMissingItemIsAProblemDocument() async throws {
        let (data, response) = try await Stubs.current.session.data(from: URL(string: "https://api.example.com/items/0")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
        let problem = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(problem?["detail"] as? String == "There is no item 0.")
    }
}
