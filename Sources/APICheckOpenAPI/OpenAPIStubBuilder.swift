import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation

/// An OpenAPI document as a stub set, in the JSON stub format (docs/stub-files.md): one stub per
/// operation and documented status, and one more per named example. `apicheck import openapi`
/// writes these files; `apicheck serve --openapi` loads the same files from memory, so the two
/// cannot disagree, and the server serves an ordinary stub set.
///
/// Which answer a request gets is said with Prism's `Prefer` conventions, as stub header
/// constraints: the operation's default answer (its lowest 2xx, else 3xx, else `default`) has
/// none; every other status answers `Prefer: code=404`; a named example answers
/// `Prefer: example=cat` (of the default status) or `Prefer: code=404, example=missing`.
/// Paths are the document's templates as written, without the servers' base path (as Prism
/// serves them).
///
/// Bodies come from the media type's `example`, else its `examples` (the first one for the
/// status's own stub), else are generated from the response schema with a fixed seed (valid
/// against it: the generator checks every instance).
///
/// ```swift
/// let stubs = OpenAPIStubBuilder().build(try OpenAPIDocumentReader().read(path: "petstore.yaml"))
/// for file in stubs.files { try Data(file.bytes).write(to: folder.appending(path: file.name)) }
/// ```
public struct OpenAPIStubBuilder: Sendable {
    /// The seed of every generated body and value: the same document gives the same stubs.
    public var seed: UInt64
    /// Named examples taken per media type (more are left out, with a warning).
    public var maximumExamplesPerResponse = 64

    public init(seed: UInt64 = 1) {
        self.seed = seed
    }

    public func build(_ document: OpenAPIDocument) -> OpenAPIStubs {
        var context = MockContext(document: document, seed: seed, maximumExamples: maximumExamplesPerResponse)
        var files: [OpenAPIStubFile] = []
        var usedNames = Set<String>()
        // In the order the document writes them (OpenAPIKit's order can differ from one read to
        // the next), so the same document always gives the same files.
        let ordered = document.operations.map { operation in (operation, document.position(of: operation.pointer)) }
            .sorted { ($0.1.line, $0.1.column) < ($1.1.line, $1.1.column) }.map(\.0)
        for operation in ordered {
            for var file in context.stubFiles(for: operation) {
                file.name = Self.unique(file.name, in: &usedNames)
                files.append(file)
            }
        }
        return OpenAPIStubs(files: files, diagnostics: context.diagnostics)
    }

    /// `name.json`, else `name-2.json`, … (file systems that ignore case see them apart too).
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        let stem = String(name.dropLast(".json".count))
        var candidate = name
        var counter = 2
        while !used.insert(candidate.lowercased()).inserted {
            candidate = "\(stem)-\(counter).json"
            counter += 1
        }
        return candidate
    }
}

/// What ``OpenAPIStubBuilder`` made of a document: the stub files in document order, and
/// warnings (a body that could not be generated, a header left out), located in the document.
public struct OpenAPIStubs: Sendable {
    public var files: [OpenAPIStubFile]
    public var diagnostics: [Diagnostic]

    /// The `Prefer` values each operation (`GET /pets/{petId}`) answers, beyond its default answer.
    public var preferences: [String: Set<String>] {
        var known: [String: Set<String>] = [:]
        for file in files {
            known[file.operation, default: []].formUnion(file.prefer.map { [$0] } ?? [])
        }
        return known
    }

    /// The files again under each non-empty base path (`/api/v1/movies/{id}` beside
    /// `/movies/{id}`), for a set served in memory (`serve --openapi`, a document in tests):
    /// a client configured with the production URL keeps the servers' base path in its requests.
    /// `import openapi` writes the files as they are, without the copies.
    public func servedAlsoUnder(_ basePaths: [String]) -> OpenAPIStubs {
        var all = files
        for base in basePaths where !base.isEmpty && base != "/" {
            for file in files {
                guard case .object(var members) = file.json, let index = members.firstIndex(where: { $0.key == "request" }),
                    case .object(var request) = members[index].value, let at = request.firstIndex(where: { $0.key == "path" }),
                    case .string(let path) = request[at].value
                else { continue }
                request[at] = JSONMember("path", .string(base + path))
                // The request the stub is checked to answer moves with it.
                if let example = request.firstIndex(where: { $0.key == "example" }), case .string(let target) = request[example].value {
                    request[example] = JSONMember("example", .string(base + target))
                }
                members[index] = JSONMember("request", .object(request))
                var copy = file
                copy.name = base.split(separator: "/").joined(separator: ".") + "." + file.name
                copy.json = .object(members)
                all.append(copy)
            }
        }
        return OpenAPIStubs(files: all, diagnostics: diagnostics)
    }
}

/// One stub file of a document's stub set.
public struct OpenAPIStubFile: Sendable, Hashable {
    /// A file name made of the operation, the status and the example: `showPetById.404.json`.
    public var name: String
    /// `GET /pets/{petId}`.
    public var operation: String
    /// The status the stub answers with.
    public var status: Int
    /// The named example it answers with, if any.
    public var example: String?
    /// The `Prefer` header value that selects it; `nil` for the operation's default answer.
    public var prefer: String?
    /// The stub, in the JSON stub format.
    public var json: JSONValue

    /// The file's bytes: pretty-printed JSON and a final line break.
    public var bytes: [UInt8] { JSONWriter(style: .pretty).bytes(json) + [0x0A] }
}
