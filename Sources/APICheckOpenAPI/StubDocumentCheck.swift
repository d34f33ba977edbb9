import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
import Foundation

/// A stub set checked against an OpenAPI document (`apicheck lint --openapi`): each stub's
/// request must be an operation of the document (`openapi-operation`), and each of its responses
/// must be one the document allows: status, `Content-Type`, body against the response schema and
/// required headers (`openapi-status`, `openapi-content-type`, `openapi-body`, `openapi-header`),
/// exactly as ``OpenAPIContract`` checks a crawl's live answers.
///
/// Each problem is a diagnostic at the stub (`stubs/movies.json:4:5: error: … [openapi-status]`),
/// or, for a body file, at the place in that file the schema error points to. The severity is
/// the rule's (`openapi-operation` and `openapi-header` warn, the others are errors).
///
/// What cannot be checked is said with a note rather than guessed at: a glob path (`/files/**`)
/// names no one operation, and a template body (`{{…}}`) is only known per request, so its status
/// and type are checked but not its content.
public struct StubDocumentCheck: Sendable {
    public let contract: OpenAPIContract
    /// Body files larger than this are not checked.
    public var maximumBodyBytes = 16 << 20

    public init(document: OpenAPIDocument) {
        // Stubs are written without the servers' base path (`import openapi`, Prism) or with it.
        contract = OpenAPIContract(document: document.servedAlsoUnder(""))
    }

    /// The problems of every stub, in the order compilers print (file, line, column); a body
    /// file several stubs share reports its problems once.
    public func diagnostics(_ stubs: [Stub]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // Template bodies are said once per stub file, at the first stub that has one.
        var templates: [String: (first: SourceLocation, count: Int)] = [:]
        var templateFiles: [String] = []
        for stub in stubs {
            guard let path = Self.requestPath(of: stub.request) else {
                diagnostics.append(Diagnostic(
                    .note, "'\(stub.request.path.text)' is a glob, so no one operation of \(contract.document.file) can be checked for it; give the stub an example request to check it",
                    at: stub.source))
                continue
            }
            let method = stub.request.method ?? "GET"
            var seen = Set<ContractViolation>()
            var hasTemplate = false
            for response in stub.sequence?.responses ?? [stub.response] where response.failure == nil {
                diagnostics += check(stub, method: method, path: path, response: response, seen: &seen)
                if case .template = response.body { hasTemplate = true }
            }
            if hasTemplate {
                if templates[stub.source.path] == nil { templateFiles.append(stub.source.path) }
                templates[stub.source.path, default: (stub.source, 0)].count += 1
            }
        }
        for file in templateFiles {
            guard let (first, count) = templates[file] else { continue }
            let which = count == 1 ? "this stub's body is a template" : "the bodies of \(count) stubs in this file are templates"
            diagnostics.append(Diagnostic(
                .note, "\(which) ({{…}}), rendered per request: status and type are checked against \(contract.document.file), not the content",
                at: first))
        }
        var unique = Set<Diagnostic>()
        return diagnostics.filter { unique.insert($0).inserted }.sorted(by: Diagnostic.precedes)
    }

    private func check(_ stub: Stub, method: String, path: String, response: StubResponse, seen: inout Set<ContractViolation>) -> [Diagnostic] {
        guard let url = URL(string: "http://localhost" + path) else { return [] }
        var body: [UInt8]?
        var bodyFile: (path: String, node: JSONNode?)?
        var isTemplate = false
        switch response.body {
        case .bytes(let data):
            body = [UInt8](data)
        case .file(let file):
            // The loader reports a body file it cannot read; one too large is not read (nor its
            // type and content checked), but its status and headers still are.
            if let read = try? file.contents(maximumBytes: maximumBodyBytes) {
                body = [UInt8](read)
                bodyFile = (Self.displayPath(file.url.path), try? JSONParser().parse(body ?? []))
            }
        case .template:
            isTemplate = true
        }
        let answer = ContractAnswer(method: method, url: url, status: response.status, headers: response.headersForSending, body: body)
        var violations = contract.violations(of: answer)
        var diagnostics: [Diagnostic] = []
        if isTemplate, violations.isEmpty,
            let violation = typeViolation(method: method, path: path, status: response.status, served: answer.header("Content-Type"))
        {
            violations.append(violation)
        }
        if violations.isEmpty, let note = undocumentedChallenge(method: method, path: path, status: response.status) {
            diagnostics.append(Diagnostic(.note, note, at: stub.source))
        }
        for violation in violations where seen.insert(violation).inserted {
            var location = stub.source
            if let (file, node) = bodyFile, violation.rule == .openAPIBody {
                let position = node.map { $0.deepestNode(along: violation.pointer ?? "").position }
                location = SourceLocation(path: file, line: position?.line ?? 1, column: position?.column ?? 1)
            }
            let severity: Diagnostic.Severity = violation.rule.defaultSeverity == .error ? .error : .warning
            diagnostics.append(Diagnostic(severity, "\(violation.message) [\(violation.rule.rawValue)]", at: location))
        }
        return diagnostics
    }

    /// The path a stub's request stands for: its example request's path, else a literal path as
    /// written, else a template's with each `{name}` filled in; `nil` for a glob.
    static func requestPath(of request: RequestPattern) -> String? {
        if let example = request.example, example.hasPrefix("/") {
            return String(example.prefix { $0 != "?" && $0 != "#" })
        }
        switch request.path.kind {
        case .literal:
            return request.path.text.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? request.path.text
        case .template:
            // `{id}` → `id`: one segment, as any value would be; a literal segment of the document
            // (`/movies/new`) is never mistaken for it.
            var filled = ""
            var inVariable = false
            for character in request.path.text {
                switch character {
                case "{": inVariable = true
                case "}": inVariable = false; filled += "1"
                default: if !inVariable { filled.append(character) }
                }
            }
            return filled.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? filled
        case .glob:
            return nil
        }
    }

    /// A body file's path as lint prints stub files: relative to the current folder when inside it.
    static func displayPath(_ absolute: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// What may stand unescaped in a path: `/`, and the characters of a segment (RFC 3986 pchar).
    private static let pathCharacters = CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))

    /// For a 401 or 403 the operation does not document but its security explains: what the
    /// stub stands for, and the scheme a client would pass.
    private func undocumentedChallenge(method: String, path: String, status: Int) -> String? {
        guard case .operation(let operation) = contract.document.operation(method: method, path: path), operation.response(for: status) == nil,
            let needed = contract.credentialsNeeded(method: method, path: path, status: status)
        else { return nil }
        return "\(operation.name) answers \(status), which the document does not list but its security explains: \(needed)"
    }

    /// For a body the check cannot see (a template): whether its type is one the response lists.
    private func typeViolation(method: String, path: String, status: Int, served: String?) -> ContractViolation? {
        guard case .operation(let operation) = contract.document.operation(method: method, path: path),
            let response = operation.response(for: status), !response.mediaTypes.isEmpty,
            OpenAPIContract.mediaType(for: served, in: response.mediaTypes) == nil
        else { return nil }
        let name = "\(operation.name) \(response.status)"
        let listed = response.mediaTypes.map(\.type).joined(separator: ", ")
        let actual = served.map(OpenAPIContract.essence) ?? "no Content-Type"
        return ContractViolation(
            rule: .openAPIContentType, expected: "\(name): \(listed)", actual: actual,
            message: "\(name) served \(actual), which the document does not list (it lists \(listed))")
    }
}
