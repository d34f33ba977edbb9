import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

@testable import APICheckServer

/// Each event loop matches against its own replica of the stub set; a replica that differed from
/// the original in any field would make the server answer differently from the interceptor.
@Suite struct StubSetReplicaTests {
    static var stubFolders: [String] {
        let stubs = Paths.repository.appendingPathComponent("stubs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stubs.path)) ?? []
        // Folders only: stubs/ also holds documents about them (acmeflix.openapi.yaml).
        let folders = names.sorted().map { stubs.appendingPathComponent($0) }.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        return folders.map(\.path) + [Paths.fixtures.appendingPathComponent("pewire").path]
    }

    @Test(arguments: stubFolders)
    func aReplicaEqualsTheLoadedSetInEveryField(_ folder: String) throws {
        let original = StubLoader().load([folder]).stubSet
        try #require(!original.stubs.isEmpty, "\(folder) has stubs")
        let replica = StubSetReplica.make(original)
        #expect(replica.stubs.count == original.stubs.count)
        for (copy, stub) in zip(replica.stubs, original.stubs) {
            #expect(copy == stub, "\(stub.source)")
        }
    }

    @Test func aReplicaSharesNoStringStorageWithTheOriginal() {
        let name = "a stub name longer than fifteen bytes"
        var stub = Stub(
            id: "stubs/with/a/long/path.json#0", name: name,
            request: RequestPattern(method: "GET", path: (try? PathPattern.parse("/a/rather/long/path/{id}").get()) ?? .anything),
            response: StubResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/vnd.example+json")]),
            source: SourceLocation(path: "stubs/with/a/long/path.json", line: 1, column: 1)
        )
        stub.sequence = StubSequence(responses: [StubResponse(status: 201, headers: [HTTPHeader(name: "X-Long-Header-Name", value: "a long header value")])], afterLast: .fail)
        let copy = StubSetReplica.copy(stub)
        #expect(copy == stub)
        #expect(address(copy.name) != address(stub.name))
        #expect(address(copy.response.headers[0].value) != address(stub.response.headers[0].value))
        #expect(address(copy.sequence!.responses[0].headers[0].value) != address(stub.sequence!.responses[0].headers[0].value))
    }

    private func address(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
