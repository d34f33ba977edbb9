import APICheckJSON
import APICheckModel
import APICheckStubFiles
import Foundation

/// `xml-stub`, `json-stub`: one stub file decoded from bytes, as the loader decodes each file,
/// with a root holding a body file and a template (``FuzzScratch``).
///
/// Invariants: every diagnostic is located in the file (its path, line ≥ 1 within the input,
/// column ≥ 1); a file with errors gives no stubs; every stub's JSON form (`apicheck show`, the
/// admin API) is written and parsed back to the same value; a stub with an `example` and no
/// other constraint is matched by its own example request.
enum StubFileFuzzer {
    enum Format { case xml, json }

    static let displayPath = "fuzz/stub"

    static func run(_ data: [UInt8], format: Format) {
        let root = FuzzScratch.folder
        var options = StubLoadOptions()
        options.root = root
        var context = StubFileContext(displayPath: displayPath, folder: root, root: StubRoot(path: root), options: options)
        let stubs: [Stub]
        switch format {
        case .xml: stubs = XMLStubDecoder().decode(data, context: &context)
        case .json: stubs = JSONStubDecoder().decode(data, context: &context)
        }

        let lines = FuzzCheck.lineBound(data)
        for diagnostic in context.diagnostics {
            let location = diagnostic.location
            FuzzCheck.require(location.path == displayPath, "diagnostic not located in the file: \(diagnostic)")
            FuzzCheck.require(location.line >= 1 && location.line <= lines, "diagnostic line outside the input (\(lines) lines): \(diagnostic)")
            FuzzCheck.require(location.column >= 1, "diagnostic column < 1: \(diagnostic)")
            FuzzCheck.require(!diagnostic.message.isEmpty, "diagnostic without a message at \(location)")
        }
        let hasErrors = context.diagnostics.contains { $0.severity == .error }
        if format == .json {
            // The JSON decoder drops a stub at its first error; a file with errors keeps none of them valid.
            FuzzCheck.require(!hasErrors || stubs.count < max(1, stubCount(data)), "errors, yet every stub decoded")
        }

        for stub in stubs {
            FuzzCheck.require(stub.source.path == displayPath, "stub source not in the file: \(stub.source)")
            if let status = (stub.response.failure == nil ? stub.response.status : nil) {
                FuzzCheck.require((100...599).contains(status), "stub status \(status) outside 100-599")
            }
            let value = stub.jsonValue(maximumBodyBytes: 1 << 20)
            let written = JSONWriter(style: .pretty).bytes(value)
            switch Result(catching: { () throws(JSONParseError) in try JSONParser(maximumDepth: 512).parseValue(written) }) {
            case .success(let parsed):
                FuzzCheck.require(parsed == value, "a stub's JSON form does not parse back to itself")
            case .failure(let error):
                FuzzCheck.fail("a stub's JSON form is not valid JSON: \(error)")
            }
        }

        guard !hasErrors, !stubs.isEmpty else { return }
        let set = StubSet(stubs)
        for stub in stubs {
            guard let example = stub.request.example, stub.request.constraintCount == 0 else { continue }
            let request = StubRequest(method: stub.request.method ?? "GET", target: example)
            if case .unmatched = set.match(request) {
                FuzzCheck.fail("the example \(example) of \(stub.request.path) is matched by no stub")
            }
        }
    }

    /// How many stubs a JSON file declares (1, or the length of `stubs`), from a lenient parse.
    private static func stubCount(_ data: [UInt8]) -> Int {
        guard let value = try? JSONParser().parseValue(data), case .array(let list)? = value["stubs"] else { return 1 }
        return list.count
    }
}
