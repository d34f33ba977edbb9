import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier
import Foundation
import Testing

/// Profile schemas read from files: bounded, inside their root, located errors.
@Suite struct ProfileLoaderTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-profiles-\(UUID().uuidString)")
        var path: String { url.path }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func write(_ relative: String, _ text: String) throws {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    @Test func schemasLoadWithTheirRelativeReferencesAndNameTypes() throws {
        let folder = try Folder()
        try folder.write("schemas/movie.json", #"{"type": "object", "properties": {"director": {"$ref": "people.json#/$defs/person"}}}"#)
        try folder.write("schemas/people.json", #"{"$defs": {"person": {"type": "object", "required": ["name"]}}}"#)
        let (profiles, diagnostics) = ProfileLoader().load(
            [.init(key: "application/vnd.acme.movie+json", path: "schemas/movie.json"), .init(key: "application/vnd.acme.film+json", path: "schemas/movie.json")],
            folder: folder.path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(profiles.count == 2)
        let movie = try #require(profiles.profile(served: "application/json", declared: "vnd.acme.movie+json"))
        #expect(movie.schemaName == "schemas/movie.json")
        #expect(!movie.schema.isValid(.object(["director": .object([:])])))
        #expect(movie.schema.isValid(.object(["director": .object(["name": "Ann"])])))
        // Parameters do not matter, the profile parameter's URI would.
        #expect(profiles.profile(served: "Application/VND.acme.Film+JSON; charset=utf-8", declared: nil) != nil)
    }

    @Test func problemsAreLocatedAndTheOtherProfilesStillLoad() throws {
        let folder = try Folder()
        try folder.write("schemas/good.json", #"{"type": "object"}"#)
        try folder.write("schemas/broken.json", "{\n  \"type\": \"object\",\n  \"minProperties\": \"two\"\n}")
        try folder.write("schemas/notjson.json", "{\n  \"type\": \n")
        try folder.write("schemas/remote.json", #"{"$ref": "https://elsewhere.example/s.json"}"#)
        let (profiles, diagnostics) = ProfileLoader().load(
            [
                .init(key: "application/a+json", path: "schemas/good.json"), .init(key: "application/b+json", path: "schemas/broken.json"),
                .init(key: "application/c+json", path: "schemas/notjson.json"), .init(key: "application/d+json", path: "schemas/missing.json"),
                .init(key: "application/e+json", path: "schemas/remote.json"), .init(key: "not a type", path: "schemas/good.json"),
                .init(key: "application/f+json", path: "../outside.json"),
            ],
            folder: folder.path)
        #expect(profiles.count == 1)
        let messages = diagnostics.map(\.description)
        #expect(messages.contains { $0.hasPrefix("\(folder.path)/schemas/broken.json:3:") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("\(folder.path)/schemas/notjson.json:3:1: error: the schema is not valid JSON") }, "\(messages)")
        #expect(messages.contains { $0.contains("schemas/missing.json does not exist") }, "\(messages)")
        #expect(messages.contains { $0.contains("remote schemas are not fetched") }, "\(messages)")
        #expect(messages.contains { $0.contains("'not a type' is neither a media type") }, "\(messages)")
        #expect(messages.contains { $0.contains("does not exist") || $0.contains("outside") }, "\(messages)")
        #expect(diagnostics.count == 6)
    }

    @Test func siblingsNamedThroughAnHTTPIdAreReadFromTheSchemasFolder() throws {
        let folder = try Folder()
        try folder.write("schemas/book.json", #"{"$id": "https://bookshop.example/schemas/book.json", "properties": {"links": {"$ref": "links.json#/$defs/links"}}}"#)
        try folder.write("schemas/links.json", #"{"$defs": {"links": {"type": "array"}}}"#)
        let (profiles, diagnostics) = ProfileLoader().load([.init(key: "application/b+json", path: "schemas/book.json")], folder: folder.path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let book = try #require(profiles.profile(served: "application/b+json", declared: nil))
        #expect(!book.schema.isValid(.object(["links": "not an array"])))
        // Another host stays remote, and the message says which $refs are read from files.
        try folder.write("schemas/other.json", #"{"$id": "https://bookshop.example/schemas/other.json", "$ref": "https://elsewhere.example/x.json"}"#)
        let (_, refused) = ProfileLoader().load([.init(key: "application/o+json", path: "schemas/other.json")], folder: folder.path)
        #expect(refused.first?.message.contains("only $refs under the schema's $id folder, https://bookshop.example/schemas/") == true, "\(refused)")
    }

    @Test func aServedVendorTypeIsNotReadAsTheDeclaredOne() throws {
        let folder = try Folder()
        try folder.write("schemas/movie.json", #"{"type": "object"}"#)
        let (profiles, _) = ProfileLoader().load([.init(key: "application/vnd.acme.movie+json", path: "schemas/movie.json")], folder: folder.path)
        #expect(profiles.profile(served: "application/json; charset=utf-8", declared: "vnd.acme.movie+json") != nil)
        #expect(profiles.profile(served: "application/hal+json", declared: "application/vnd.acme.movie+json") != nil)
        #expect(profiles.profile(served: nil, declared: "application/vnd.acme.movie+json") != nil)
        #expect(profiles.profile(served: "application/vnd.acme.person+json", declared: "application/vnd.acme.movie+json") == nil)
    }

    @Test func aReferenceCannotLeaveTheRoot() throws {
        let folder = try Folder()
        try folder.write("set/schemas/movie.json", #"{"$ref": "../../secret.json"}"#)
        try folder.write("secret.json", #"{"type": "string"}"#)
        let (profiles, diagnostics) = ProfileLoader().load([.init(key: "application/m+json", path: "schemas/movie.json")], folder: folder.path + "/set")
        #expect(profiles.isEmpty)
        #expect(diagnostics.first?.message.contains("outside") == true, "\(diagnostics)")
    }
}
