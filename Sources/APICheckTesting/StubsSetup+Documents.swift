import APICheckInterceptor
import APICheckModel
import APICheckResponder
import Foundation
import Logging

#if OpenAPI
import APICheckOpenAPI
import APICheckStubFiles
#endif

/// OpenAPI documents named among a scope's stub paths (`withStubs("openapi.yaml")`): each is
/// answered as `apicheck serve --openapi` answers it, from the stub set `apicheck import openapi`
/// writes (examples first, else bodies generated from the schemas with a fixed seed) and with the
/// same `Prefer: code=…`/`example=…` gate, so there is one conversion, not a second one for tests.
enum DocumentSources {
    /// `paths` split into stub files and folders, and OpenAPI documents: a `.yaml`/`.yml` file
    /// (stub files are XML or JSON), or a `.json` file whose object has an `openapi` member.
    static func split(_ paths: [String]) -> (stubs: [String], documents: [String]) {
        var stubs: [String] = []
        var documents: [String] = []
        for path in paths {
            if isDocument(path) { documents.append(path) } else { stubs.append(path) }
        }
        return (stubs, documents)
    }

    static func isDocument(_ path: String) -> Bool {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return true }
        guard lowered.hasSuffix(".json"), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // A stub file names `request`/`stubs` first; a document says `"openapi"` near its start.
        let head = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        return head.contains("\"openapi\"") && !head.contains("\"request\"") && !head.contains("\"stubs\"")
    }

    /// The stubs and the `Prefer` gate of `documents`; a document that does not load, or that
    /// needs the `OpenAPI` trait the package was built without, is a located loading error.
    static func load(_ documents: [String], logger: Logger) throws(StubLoadingError) -> (stubs: [Stub], gate: (any RequestGate)?) {
        guard !documents.isEmpty else { return ([], nil) }
        #if OpenAPI
        var stubs: [Stub] = []
        var gates: [OpenAPIRequestGate] = []
        for path in documents {
            let document: OpenAPIDocument
            do {
                document = try OpenAPIDocumentReader().read(path: path)
            } catch {
                throw StubLoadingError(diagnostics: [
                    Diagnostic(.error, error.message, at: SourceLocation(path: error.file, line: max(error.line, 1), column: max(error.column, 1)))
                ])
            }
            let built = OpenAPIStubBuilder().build(document).servedAlsoUnder(document.basePaths)
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let result = StubLoader(logger: logger).load(jsonFiles: built.files.map { (path + "#" + $0.name, $0.bytes) }, folder: folder)
            let problems = built.diagnostics.filter { $0.severity == .error } + result.errors
            guard problems.isEmpty else { throw StubLoadingError(diagnostics: problems) }
            stubs += result.stubSet.stubs
            gates.append(OpenAPIRequestGate(document: document, stubs: built, validatesRequests: false))
        }
        return (stubs, gates.count == 1 ? gates[0] : DocumentGates(gates: gates))
        #else
        throw StubLoadingError(diagnostics: documents.map { path in
            Diagnostic(
                .error, "an OpenAPI document as a stub source needs the package trait OpenAPI (traits: [\"OpenAPI\"] on the apicheck package line)",
                at: SourceLocation(path: path))
        })
        #endif
    }
}

#if OpenAPI
/// Several documents in one scope: the first gate with an answer answers.
struct DocumentGates: RequestGate {
    var gates: [OpenAPIRequestGate]

    func answer(for request: StubRequest) -> Stub? {
        for gate in gates {
            if let stub = gate.answer(for: request) { return stub }
        }
        return nil
    }
}
#endif
