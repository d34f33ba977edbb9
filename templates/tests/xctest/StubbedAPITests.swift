// Written by `apicheck init`: tests that answer URLSession requests from the stubs in stubs/,
// in process, without a server. Replace the requests with calls to your own API client.
import APICheckTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every test gets a session answered from the stub folder (relative to this file); a request no
/// stub answered fails the test, with the nearest stubs and why they missed.
final class StubbedAPITests: StubsTestCase {
    override var stubsSetup: StubsSetup { StubsSetup("../../stubs") }

    func testTheRootLinksToTheItems() async throws {
        let (data, response) = try await stubs.session.data(from: URL(string: "https://api.example.com/")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "application/hal+json")
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let links = root?["_links"] as? [String: Any]
        XCTAssertEqual((links?["items"] as? [String: Any])?["href"] as? String, "/items")
        stubs.expectRequested("GET", "/", .exactly(1))
    }

    func testAnyItemIsRenderedFromItsId() async throws {
        let (data, _) = try await stubs.session.data(from: URL(string: "https://api.example.com/items/42")!)
        let item = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual(item?["id"] as? String, "42")
    }

    func testAMissingItemIsAProblemDocument() async throws {
        let (data, response) = try await stubs.session.data(from: URL(string: "https://api.example.com/items/0")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 404)
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "application/problem+json")
        let problem = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual(problem?["detail"] as? String, "There is no item 0.")
    }
}
