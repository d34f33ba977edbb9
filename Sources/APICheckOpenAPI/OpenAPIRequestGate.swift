import APICheckJSON
import APICheckModel
import APICheckResponder
import APICheckSchema
import Foundation

/// What `serve --openapi` puts in front of the stub set made from the same document
/// (``OpenAPIStubBuilder``), as a ``RequestGate``: the stubs answer every request it lets
/// through, so matching and answering stay the stub set's.
///
/// - A `Prefer` that asks for an answer the operation does not have (`code=418`, an unknown
///   example) gets a 404 problem document that lists the `Prefer` values the operation answers,
///   as Prism answers a code the document does not define with 404.
/// - With ``validatesRequests`` (`--validate-requests`): a path no operation has is 404, a method
///   the path lacks 405 (with `Allow`); a missing required parameter or one that does not match
///   its schema 400; a body of an undocumented type 415, malformed JSON 400, a body that does not
///   match the requestBody schema 422; each an `application/problem+json` naming the parameter or
///   the body's failing location.
///
/// Paths are matched as the stubs are: as the document writes them, and under the servers' base paths.
public struct OpenAPIRequestGate: RequestGate {
    public let validatesRequests: Bool
    /// Request schemas that could not be compiled (their checks are left out), located.
    public let diagnostics: [Diagnostic]
    let matcher: OperationMatcher
    /// Per operation (`GET /pets`): the `Prefer` values its stubs answer, and its default status.
    let preferences: [String: Set<String>]
    let defaultStatus: [String: Int]
    let rules: [String: RequestRules]
    let file: String
    /// Request bodies are parsed to at most this depth.
    public var maximumBodyDepth = 256

    /// `stubs` must be ``OpenAPIStubBuilder``'s set for `document`: the gate checks `Prefer`
    /// values against what those stubs answer.
    public init(document: OpenAPIDocument, stubs: OpenAPIStubs, validatesRequests: Bool) {
        self.validatesRequests = validatesRequests
        file = document.file
        var operations = document.operations
        for index in operations.indices { operations[index].basePaths = nil }
        // As the stubs: the templates as written, and under the servers' base paths too.
        matcher = OperationMatcher(operations: operations, basePaths: [""] + document.basePaths.filter { !$0.isEmpty })
        preferences = stubs.preferences
        var defaults: [String: Int] = [:]
        for file in stubs.files where file.prefer == nil && defaults[file.operation] == nil { defaults[file.operation] = file.status }
        defaultStatus = defaults
        var rules: [String: RequestRules] = [:]
        var diagnostics: [Diagnostic] = []
        if validatesRequests {
            var options = document.schemaOptions
            if options.openAPIDirection != nil { options.openAPIDirection = .request }
            var budget = document.limitsForRequests
            for operation in operations {
                rules[operation.name] = RequestRules.compile(operation, document: document, options: options, budget: &budget, diagnostics: &diagnostics)
            }
        }
        self.rules = rules
        self.diagnostics = diagnostics
    }

    public func answer(for request: StubRequest) -> Stub? {
        // Without validation only a Prefer can be refused: a request without one costs a scan of
        // its headers. Measured in a debug build on a loaded machine, responder replies to
        // stubs/acmeflix.openapi.yaml's stubs: 18 µs each without a gate, 118 µs when every request
        // was matched to its operation first, 16 µs with this check; 215 µs with validation.
        if !validatesRequests, !request.headers.contains(where: { $0.name.caseInsensitiveEquals("Prefer") }) { return nil }
        let path = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? request.path
        var match = matcher.match(method: request.method, path: path)
        if request.method == "HEAD", case .methodNotDocumented = match {
            match = matcher.match(method: "GET", path: path)
        }
        let operation: OpenAPIOperation
        switch match {
        case .operation(let found):
            operation = found
        case .pathNotDocumented:
            guard validatesRequests else { return nil }
            return refusal(404, "No operation matches", "\(request.method) \(request.path) is not a path of the document.", extra: [])
        case .methodNotDocumented(let template, let methods):
            guard validatesRequests else { return nil }
            return refusal(
                405, "Method Not Allowed", "\(template) documents \(methods.joined(separator: ", ")), not \(request.method).", extra: [],
                headers: [HTTPHeader(name: "Allow", value: methods.joined(separator: ", "))])
        }
        if validatesRequests, let refused = rules[operation.name]?.refusal(of: request, maximumBodyDepth: maximumBodyDepth) {
            return refusal(
                refused.status, refused.title, refused.detail,
                extra: [JSONMember("operation", .string(operation.name))] + (refused.errors.isEmpty ? [] : [JSONMember("errors", .array(refused.errors))]))
        }
        return preferRefusal(request, operation)
    }

    /// A `Prefer` naming a code or an example the operation's stubs do not answer.
    private func preferRefusal(_ request: StubRequest, _ operation: OpenAPIOperation) -> Stub? {
        guard let header = request.headers.first(where: { $0.name.caseInsensitiveEquals("Prefer") }) else { return nil }
        let value = header.value.trimmingCharacters(in: .whitespaces)
        var code: String?
        var example: String?
        for part in value.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0].lowercased() == "code" { code = pair[1] }
            if pair[0].lowercased() == "example" { example = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        guard code != nil || example != nil else { return nil }
        let known = preferences[operation.name] ?? []
        let defaultStatus = self.defaultStatus[operation.name]
        if known.contains(value) || (example == nil && code == defaultStatus.map(String.init)) { return nil }
        let answers = (defaultStatus.map { ["code=\($0) (the default answer)"] } ?? []) + known.sorted()
        let asked = example == nil ? "status code \(code ?? "")" : "Prefer: \(value)"
        return refusal(
            404, "The server cannot find the requested content",
            "Requested \(asked) is not defined in the document for \(operation.name); it answers Prefer: \(answers.joined(separator: "; ")).",
            extra: [
                JSONMember("operation", .string(operation.name)),
                JSONMember("prefer", .array(((defaultStatus.map { ["code=\($0)"] } ?? []) + known.sorted()).map(JSONValue.string))),
            ])
    }

    private func refusal(_ status: Int, _ title: String, _ detail: String, extra: [JSONMember], headers: [HTTPHeader] = []) -> Stub {
        let body = StubReply.problemDocument(status: status, title: title, detail: detail, extra: extra)
        return Stub(
            id: "openapi-request-check", name: "OpenAPI request check: \(title)", description: detail,
            request: RequestPattern(method: nil, path: Self.anyPath),
            response: StubResponse(status: status, headers: StubReply.problemHeaders + headers, body: .bytes(body)),
            source: SourceLocation(path: file))
    }

    private static let anyPath: PathPattern = {
        switch PathPattern.parse("*") {
        case .success(let pattern): return pattern
        case .failure: preconditionFailure("'*' is a valid path pattern")
        }
    }()
}

extension OpenAPIDocument {
    /// Request schemas a gate compiles at most (the same bound as response schemas).
    var limitsForRequests: Int { 4_096 }
}
