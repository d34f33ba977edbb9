// Written by `apicheck init`: tests that answer URLSession requests from the stubs in stubs/,
// in process, without a server. Replace the requests with calls to your own API client.
import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stub folder, found from this file: no test resources to set up. (To ship the stubs inside
/// the test bundle instead, add `resources: [.copy("stubs")]` to the test target and use
/// `Bundle.module.path(forResource: "stubs", ofType: nil)!`.)
private let stubs = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("stubs").path

@Suite struct StubbedAPITests {
    @Test func theRootLinksToTheItems() async throws {
        try await withStubbedSession(loading: [stubs]) { session, interceptor in
            let (data, response) = try await session.data(from: URL(string: "https://api.example.com/")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/hal+json")
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let links = root?["_links"] as? [String: Any]
            #expect((links?["items"] as? [String: Any])?["href"] as? String == "/items")
            expectRequested(interceptor, "GET", "/", .exactly(1))
            expectNoUnmatchedRequests(interceptor)
        }
    }

    @Test func anyItemIsRenderedFromItsId() async throws {
        try await withStubbedSession(loading: [stubs]) { session, _ in
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/items/42")!)
            let item = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(item?["id"] as? String == "42")
        }
    }

    @Test func aMissingItemIsAProblemDocument() async throws {
        try await withStubbedSession(loading: [stubs]) { session, _ in
            let (data, response) = try await session.data(from: URL(string: "https://api.example.com/items/0")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
            let problem = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(problem?["detail"] as? String == "There is no item 0.")
        }
    }
}
