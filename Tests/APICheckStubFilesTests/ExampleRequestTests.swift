import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// A stub's example request: the concrete target `apicheck verify` sends for a templated or glob
/// path, checked when the file loads so it is always one the stub answers.
@Suite struct ExampleRequestTests {
    private func load(_ name: String, _ text: String) throws -> (StubLoadResult, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write(name, text)
        return (StubLoader().load([folder.path]), folder)
    }

    @Test func jsonAndXMLStubsCarryTheirExample() throws {
        let (json, _) = try load("order.json", #"{"request": {"path": "/orders/{id}", "example": "/orders/42?expand=items"}, "response": {"status": 200}}"#)
        #expect(json.errors.isEmpty, "\(json.diagnostics)")
        #expect(json.stubSet.stubs.first?.request.example == "/orders/42?expand=items")
        let (xml, _) = try load(
            "order.xml", #"<http-response statusCode="200"><annotation uri-path="/files/**" example="/files/a/b.txt"/><headers/><body/></http-response>"#)
        #expect(xml.errors.isEmpty, "\(xml.diagnostics)")
        #expect(xml.stubSet.stubs.first?.request.example == "/files/a/b.txt")
    }

    @Test(arguments: [
        ("/customers/42", "is not matched by the stub's path /orders/{id}"),
        ("orders/42", "is not a request target"),
        ("/orders/4 2", "is not a request target"),
    ])
    func anExampleTheStubWouldNotAnswerIsAnError(example: String, message: String) throws {
        let text = #"{"request": {"path": "/orders/{id}", "example": "\#(example)"},"# + "\n" + #" "response": {"status": 200}}"#
        let (result, folder) = try load("order.json", text)
        let error = try #require(result.errors.first, "\(result.diagnostics)")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.location.path == folder.url.appendingPathComponent("order.json").path)
        #expect(error.location.line == 1 && error.location.column > 40, "points at the value: \(error.location)")
    }
}
