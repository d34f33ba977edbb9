import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A one-letter typo lists the stub that was meant first, whether it came from a file or from code,
/// however many stubs were loaded before it.
@Suite struct NearMissRankingTests {
    private func nearest(_ stubs: Stubs, _ path: String) async throws -> [String] {
        let error = await #expect(throws: URLError.self) { try await stubs.session.data(from: URL(string: "http://localhost\(path)")!) }
        return error?.nearMissReport?.nearMisses.map(\.stub.name) ?? []
    }

    @Test func aTypoListsTheStubFilesPathFirst() async throws {
        let folder = try TemporaryFolder()
        // Loaded in byte order: every other path comes before /items.
        for (file, path) in [("a", "/users"), ("b", "/orders"), ("c", "/carts"), ("d", "/profile"), ("z", "/items")] {
            try folder.write("\(file).json", #"{"name": "\#(path)", "request": {"method": "GET", "path": "\#(path)"}, "response": {"status": 200}}"#)
        }
        try await withStubs(folder.path, unmatched: .allow) { stubs in
            let typo = try await nearest(stubs, "/itemz")
            #expect(typo.first == "/items", "\(typo)")
            let short = try await nearest(stubs, "/user")
            #expect(short.first == "/users", "\(short)")
        }
    }

    @Test func aTypoListsTheCodeStubsPathFirst() async throws {
        try await withStubs(unmatched: .allow) { stubs in
            // Code stubs are checked newest first: the one meant was added first, so it came last.
            for path in ["/items", "/users", "/orders", "/carts"] {
                try stubs.stub(.get(path), name: path) { _ in .status(200) }
            }
            let names = try await nearest(stubs, "/itemz")
            #expect(names.first == "/items", "\(names)")
            #expect(names.count == 3)
        }
    }

    @Test func aTemplateThatBindsTheSegmentsStillComesBeforeALiteralTypo() async throws {
        try await withStubs(unmatched: .allow) { stubs in
            try stubs.stub(.get("/items/4"), name: "literal") { _ in .status(200) }
            try stubs.stub(.post("/items/{id}"), name: "template") { _ in .status(200) }
            let names = try await nearest(stubs, "/items/42")
            #expect(names.first == "template", "\(names)")
        }
    }
}
