import APICheckModel
import APICheckOpenAPI

/// `openapi`: an OpenAPI document (YAML or JSON) read from bytes, under small limits.
///
/// Invariants: the answer is a document or an ``OpenAPIError`` whose line is inside the input (0
/// only for a whole-file problem) and that prints as `file:line:column: error: …`; a document's
/// operations each have an upper-case method and a path, and matching each path template (its
/// parameters filled) never traps; the document's stub set builds, every stub file is JSON with a
/// request and a response, and its request gate checks each stub's own request without trapping.
enum OpenAPIFuzzer {
    static func run(_ data: [UInt8]) {
        var limits = OpenAPIReadLimits()
        limits.maximumBytes = 1 << 20
        limits.maximumNodes = 100_000
        limits.maximumCompiledSchemas = 256
        let lines = FuzzCheck.lineBound(data)
        let document: OpenAPIDocument
        do {
            document = try OpenAPIDocumentReader(limits: limits).read(data, file: "fuzz.yaml")
        } catch {
            FuzzCheck.require(error.line >= 0 && error.line <= lines, "error line outside the input: \(error)")
            FuzzCheck.require(error.description.hasPrefix("fuzz.yaml"), "error not located in the file: \(error)")
            FuzzCheck.require(error.description.contains("error: "), "error without 'error: ': \(error)")
            return
        }
        for operation in document.operations.prefix(64) {
            FuzzCheck.require(operation.method == operation.method.uppercased(), "a method is not upper-case: \(operation.method)")
            let filled = operation.path.replacingOccurrences(of: "{", with: "x").replacingOccurrences(of: "}", with: "")
            for base in document.basePaths.prefix(4) {
                _ = document.operation(method: operation.method, path: base + (filled.hasPrefix("/") ? filled : "/" + filled))
            }
        }
        guard document.operations.count <= 64 else { return }
        let stubs = OpenAPIStubBuilder().build(document)
        let gate = OpenAPIRequestGate(document: document, stubs: stubs, validatesRequests: true)
        for file in stubs.files {
            FuzzCheck.require(file.json["request"] != nil && file.json["response"] != nil, "a stub file without request or response: \(file.name)")
            FuzzCheck.require(!file.name.contains("/") && file.name.hasSuffix(".json"), "a stub file name that is not a plain .json name: \(file.name)")
            if case .string(let path)? = file.json["request"]?["path"] {
                _ = gate.answer(for: StubRequest(method: "GET", path: path))
            }
        }
    }
}
