import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
import Foundation

/// A crawl's answers checked against an OpenAPI document (`crawl --openapi`): the operation
/// (`openapi-operation`), the status (`openapi-status`), the served type (`openapi-content-type`),
/// the body against the response schema (`openapi-body`) and required headers (`openapi-header`).
///
/// Each violation's `expected` starts with the operation (`GET /movies/{id}`), so a defect is
/// one operation's problem however many resources show it.
public struct OpenAPIContract: ResponseContract {
    public let document: OpenAPIDocument
    /// Bodies are parsed to at most this depth (the crawl's own limit).
    public var maximumBodyDepth = 256
    /// The credentials the run sends (`--header`, `--header-from-env`): which security schemes
    /// they satisfy, for the wording of a 401 or 403 (``OpenAPISecurity``).
    public var credentials = OpenAPICredentials()

    /// The crawl's root, when its path is not an operation of the document: answers there are
    /// not `openapi-operation` findings (the caller says so once). Django REST framework's router
    /// root, a gateway's index: entry points a generated document often leaves out.
    public let undocumentedRoot: URL?

    /// - Parameter root: where the crawl starts; see ``undocumentedRoot``.
    /// The crawl's root lies outside every server of the document (`https://api.example.com/v1`
    /// crawled at `http://127.0.0.1:8000/`): operations are also matched under the root's path, and
    /// the caller says so.
    public let rootIsOutsideServers: Bool

    public init(document: OpenAPIDocument, root: URL? = nil) {
        var document = document
        let rootPath = root.map(Self.path(of:)) ?? "/"
        rootIsOutsideServers = root != nil && !document.isUnderServers(rootPath)
        if rootIsOutsideServers { document = document.servedAlsoUnder(rootPath.hasSuffix("/") ? String(rootPath.dropLast()) : rootPath) }
        self.document = document
        if let root, case .pathNotDocumented = document.operation(method: "GET", path: Self.path(of: root)) {
            undocumentedRoot = root
        } else {
            undocumentedRoot = nil
        }
    }

    static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    public func violations(of answer: ContractAnswer) -> [ContractViolation] {
        // Another host the crawl was allowed to follow (a CDN, a partner) is not this API, unless
        // one of the document's servers names it.
        if !answer.isOnRootOrigin, !document.serverHosts.contains(answer.url.host?.lowercased() ?? "") { return [] }
        let path = answer.url.path(percentEncoded: true)
        let operation: OpenAPIOperation
        switch document.operation(method: answer.method, path: path.isEmpty ? "/" : path) {
        case .operation(let found):
            operation = found
        case .methodNotDocumented(let template, let methods):
            return [ContractViolation(
                rule: .openAPIOperation, expected: "\(methods.joined(separator: ", ")) on \(template)", actual: answer.method,
                message: "\(answer.method) \(path) is not documented: the document lists only \(methods.joined(separator: ", ")) for \(template)")]
        case .pathNotDocumented:
            if let undocumentedRoot, answer.url.host == undocumentedRoot.host, answer.url.port == undocumentedRoot.port,
                Self.path(of: undocumentedRoot) == (path.isEmpty ? "/" : path)
            {
                return []
            }
            return [ContractViolation(
                rule: .openAPIOperation, expected: nil, actual: "\(answer.method) \(path)",
                message: "\(answer.method) \(path) is not an operation of the document: no path template matches it\(basePathHint)")]
        }
        guard let response = operation.response(for: answer.status) else {
            return undocumentedStatus(answer.status, of: operation)
        }
        let name = "\(operation.name) \(response.status)"
        var violations: [ContractViolation] = []
        for header in response.requiredHeaders where answer.header(header) == nil {
            violations.append(ContractViolation(
                rule: .openAPIHeader, expected: "\(name): header \(header)", actual: "missing",
                message: "\(name) lacks the header \(header), which the document requires"))
        }
        guard let body = answer.body, !body.isEmpty else { return violations }
        let served = answer.header("Content-Type")
        guard let mediaType = Self.mediaType(for: served, in: response.mediaTypes) else {
            let listed = response.mediaTypes.map(\.type).joined(separator: ", ")
            let actual = served.map(Self.essence) ?? "no Content-Type"
            violations.append(ContractViolation(
                rule: .openAPIContentType, expected: "\(name): \(listed.isEmpty ? "no body" : listed)", actual: actual,
                message: listed.isEmpty
                    ? "\(name) has a \(actual) body, but the document describes no content for it"
                    : "\(name) served \(actual), which the document does not list (it lists \(listed))"))
            return violations
        }
        guard let schema = mediaType.schema, Self.isJSON(served ?? mediaType.type),
            let instance = try? JSONParser(maximumDepth: maximumBodyDepth).parseValue(body)
        else { return violations }
        guard !schema.isValid(instance) else { return violations }
        for unit in schema.validate(instance).relevantErrors.prefix(BodySchemaRule.maximumViolationsPerBody) {
            let keyword = unit.absoluteKeywordLocation.map(document.displayLocation) ?? (mediaType.schemaLocation ?? "") + unit.keywordLocation
            let field = unit.instanceLocation.isEmpty ? "the body" : "the body at \(unit.instanceLocation)"
            violations.append(ContractViolation(
                rule: .openAPIBody, expected: "\(name) \(mediaType.type): \(keyword)", actual: unit.error,
                pointer: unit.instanceLocation.isEmpty ? nil : unit.instanceLocation,
                message: "\(field) does not match the document's schema for \(name) \(mediaType.type) (\(keyword)): \(unit.error)"))
        }
        return violations
    }

    private var basePathHint: String {
        let bases = document.basePaths.filter { !$0.isEmpty }
        return bases.isEmpty ? "" : " under the servers' base paths (\(bases.joined(separator: ", ")))"
    }

    /// `application/json` from `Application/JSON; charset=utf-8`.
    static func essence(_ type: String) -> String {
        type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The documented media type the served one falls under: the same type and subtype before
    /// `type/*` before `*/*`; a response without a Content-Type matches only `*/*`.
    static func mediaType(for served: String?, in types: [OpenAPIMediaType]) -> OpenAPIMediaType? {
        let essence = served.map(Self.essence) ?? ""
        let major = essence.split(separator: "/").first.map(String.init) ?? ""
        if !essence.isEmpty, let exact = types.first(where: { Self.essence($0.type) == essence }) { return exact }
        if !major.isEmpty, let range = types.first(where: { Self.essence($0.type) == major + "/*" }) { return range }
        return types.first { Self.essence($0.type) == "*/*" }
    }

    static func isJSON(_ type: String) -> Bool {
        let essence = Self.essence(type)
        return essence == "application/json" || essence.hasSuffix("+json") || essence == "*/*" || essence == "application/*"
    }
}
