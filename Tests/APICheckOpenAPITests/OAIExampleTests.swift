import APICheckJSON
import APICheckModel
@testable import APICheckOpenAPI
import APICheckResponder
import APICheckStubFiles
import Foundation
import Testing

/// The OpenAPI Initiative's example documents (Examples/openapi/oai): each reads, imports to a
/// stub set that loads with no diagnostic at all (what `apicheck lint` reports), and its stubs
/// answer every operation, with every answer its Prefer value selects.
@Suite struct OAIExampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/openapi/oai")

    static let documents = ["petstore", "petstore-expanded", "api-with-examples", "link-example", "callback-example", "uspto"]

    @Test(arguments: documents)
    func importsToAStubSetThatLintsCleanAndAnswersEveryOperation(_ name: String) throws {
        let path = Self.folder.appending(path: "\(name).yaml").path
        let document = try OpenAPIDocumentReader().read(path: path)
        #expect(!document.operations.isEmpty)
        let stubs = OpenAPIStubBuilder().build(document)
        #expect(stubs.diagnostics.isEmpty, "\(stubs.diagnostics)")
        #expect(Set(stubs.files.map(\.operation)) == Set(document.operations.map(\.name)), "every operation has stubs")

        // Written and loaded as `apicheck lint` loads a folder: no error, no warning.
        let folder = FileManager.default.temporaryDirectory.appending(path: "apicheck-oai-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in stubs.files { try Data(file.bytes).write(to: folder.appending(path: file.name)) }
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.stubSet.count == stubs.files.count)

        // Every stub answers its own request: the default answer without Prefer, the others with theirs.
        let gate = OpenAPIRequestGate(document: document, stubs: stubs, validatesRequests: false)
        let responder = StubResponder(stubs: loaded.stubSet, gate: gate)
        for file in stubs.files {
            let request = try #require(file.json["request"])
            guard case .string(let method)? = request["method"], case .string(let template)? = request["path"] else {
                Issue.record("\(file.name) has no method and path")
                continue
            }
            var target = template
            if case .string(let example)? = request["example"] { target = example }
            let headers = file.prefer.map { [HTTPHeader(name: "Prefer", value: $0)] } ?? []
            let reply = responder.reply(to: StubRequest(method: method, target: target, headers: headers), at: .target(origin: "http://127.0.0.1", target: target))
            #expect(reply.status == file.status, "\(file.name): \(method) \(target) Prefer \(file.prefer ?? "-") answered \(reply.status)")
            #expect(reply.matched?.stub.name == file.json["name"].flatMap { if case .string(let text) = $0 { text } else { nil } }, "\(file.name)")
            // A JSON body as the stub file holds it; a generated one valid against its schema.
            if case .bytes(let data) = reply.body, !data.isEmpty, let body = file.json["response"]?["body"] {
                #expect(try JSONParser().parseValue([UInt8](data)) == body)
            }
        }
    }

    @Test func generatedBodiesOfEveryExampleDocumentAreValid() throws {
        for name in Self.documents {
            let document = try OpenAPIDocumentReader().read(path: Self.folder.appending(path: "\(name).yaml").path)
            let stubs = OpenAPIStubBuilder().build(document)
            for operation in document.operations {
                for response in operation.responses {
                    guard let mediaType = response.mediaTypes.first(where: { OpenAPIContract.isJSON($0.type) }), let schema = mediaType.schema,
                        document.node(at: response.pointer + "/content/" + JSONPointer.escape(mediaType.type) + "/example") == nil,
                        document.node(at: response.pointer + "/content/" + JSONPointer.escape(mediaType.type) + "/examples") == nil
                    else { continue }
                    let files = stubs.files.filter { $0.operation == operation.name && $0.example == nil }
                    for file in files {
                        guard let body = file.json["response"]?["body"], operation.response(for: file.status)?.status == response.status else { continue }
                        #expect(schema.isValid(body), "\(name) \(file.name): \(schema.validate(body).errors)")
                    }
                }
            }
        }
    }

    @Test func theWebhookExampleHasNoPathsAndSoNoStubs() throws {
        let document = try OpenAPIDocumentReader().read(path: Self.folder.appending(path: "webhook-example.yaml").path)
        #expect(document.operations.isEmpty)
        #expect(OpenAPIStubBuilder().build(document).files.isEmpty)
    }

    @Test func jsonWrittenAsAYAMLBlockStringIsServedAsJSON() throws {
        let document = try OpenAPIDocumentReader().read(path: Self.folder.appending(path: "api-with-examples.yaml").path)
        let stubs = OpenAPIStubBuilder().build(document)
        let file = try #require(stubs.files.first { $0.name == "listVersionsv2.300.foo.json" })
        #expect(file.prefer == "code=300, example=foo")
        guard case .string(let text)? = file.json["response"]?["bodyText"] else {
            Issue.record("no bodyText: \(file.json)")
            return
        }
        #expect(try JSONParser().parseValue(Array(text.utf8))["versions"] != nil)
    }
}
