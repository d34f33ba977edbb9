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

    /// Follow the document's Link Objects from the answers they are documented on
    /// (``APICheckHypermedia/LinkFormat/openAPILink``).
    public var followsLinks = true
    /// Fill GET operations' path parameters from answers (an `id` of an item in a list answer:
    /// ``APICheckHypermedia/LinkFormat/openAPIFill``), at most ``fillsPerAnswer`` per operation
    /// and answer (the crawl caps them per operation too).
    public var fillsParameters = true
    public var fillsPerAnswer = 3
    let linking: OpenAPILinking
    /// The credentials the run sends (`--header`, `--header-from-env`): which security schemes
    /// they satisfy, for the wording of a 401 or 403 (``OpenAPISecurity``).
    public var credentials = OpenAPICredentials()

    /// The crawl's root, when its path is not an operation of the document: answers there are
    /// not `openapi-operation` findings (the caller says so once). Django REST framework's router
    /// root, a gateway's index: entry points a generated document often leaves out.
    public let undocumentedRoot: URL?
    /// The crawl's root lies outside every server of the document (`https://api.example.com/v1`
    /// crawled at `http://127.0.0.1:8000/`): operations are also matched under the root's path, and
    /// the caller says so.
    public let rootIsOutsideServers: Bool

    /// - Parameter root: where the crawl starts; see ``undocumentedRoot`` and ``rootIsOutsideServers``.
    public init(document: OpenAPIDocument, root: URL? = nil) {
        var document = document
        let rootPath = root.map(Self.path(of:)) ?? "/"
        rootIsOutsideServers = root != nil && !document.isUnderServers(rootPath)
        if rootIsOutsideServers { document = document.servedAlsoUnder(rootPath.hasSuffix("/") ? String(rootPath.dropLast()) : rootPath) }
        self.document = document
        linking = OpenAPILinking(document: document)
        if let root, case .pathNotDocumented = document.operation(method: "GET", path: Self.path(of: root)) {
            undocumentedRoot = root
        } else {
            undocumentedRoot = nil
        }
    }

    /// `/books/{…}/reviews` from `/books/9780060512750/reviews`: segments that look like
    /// identifiers (digits only, or a long token with digits such as a UUID) are one shape, so the
    /// answers of one undocumented route are one defect whatever their ids.
    static func shape(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            let digits = segment.filter(\.isNumber).count
            let isIdentifier = (!segment.isEmpty && digits == segment.count) || (segment.count >= 16 && digits > 0)
            return isIdentifier ? "{…}" : String(segment)
        }.joined(separator: "/")
    }

    static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// Every operation of the document, in its order (`GET /movies/{id}`), for coverage.
    public var operationNames: [String] {
        let ordered = document.linkTable.documentOrder
        let listed = Set(ordered)
        return ordered + document.operations.map(\.name).filter { !listed.contains($0) }.sorted()
    }

    public func violations(of answer: ContractAnswer) -> [ContractViolation] {
        verdict(on: answer, withLinks: false).violations
    }

    public func verdict(on answer: ContractAnswer) -> ContractVerdict {
        verdict(on: answer, withLinks: followsLinks || fillsParameters)
    }

    private func verdict(on answer: ContractAnswer, withLinks: Bool) -> ContractVerdict {
        // Another host the crawl was allowed to follow (a CDN, a partner) is not this API, unless
        // one of the document's servers names it.
        if !answer.isOnRootOrigin, !document.serverHosts.contains(answer.url.host?.lowercased() ?? "") { return ContractVerdict() }
        let path = answer.url.path(percentEncoded: true)
        let operation: OpenAPIOperation
        switch document.operation(method: answer.method, path: path.isEmpty ? "/" : path) {
        case .operation(let found):
            operation = found
        case .methodNotDocumented(let template, let methods):
            return ContractVerdict(violations: [ContractViolation(
                rule: .openAPIOperation, expected: "\(methods.joined(separator: ", ")) on \(template)", actual: answer.method,
                message: "\(answer.method) \(path) is not documented: the document lists only \(methods.joined(separator: ", ")) for \(template)")])
        case .pathNotDocumented:
            if let undocumentedRoot, answer.url.host == undocumentedRoot.host, answer.url.port == undocumentedRoot.port,
                Self.path(of: undocumentedRoot) == (path.isEmpty ? "/" : path)
            {
                return ContractVerdict()
            }
            // A link to nothing (404, 410) is link-resolves' finding: there is no operation to document.
            if answer.status == 404 || answer.status == 410 { return ContractVerdict() }
            return ContractVerdict(violations: [ContractViolation(
                rule: .openAPIOperation, expected: nil, actual: "\(answer.method) \(path)",
                message: "\(answer.method) \(Self.shape(of: path)) is not an operation of the document: no path template matches it\(basePathHint)")])
        }
        guard let response = operation.response(for: answer.status) else {
            return ContractVerdict(violations: undocumentedStatus(answer.status, of: operation), operation: operation.name)
        }
        // The body is parsed at most once, for the schema and the links alike.
        var parsed: JSONValue??
        func instance() -> JSONValue? {
            if let parsed { return parsed }
            let value = answer.body.flatMap { $0.isEmpty ? nil : try? JSONParser(maximumDepth: maximumBodyDepth).parseValue($0) }
            parsed = .some(value)
            return value
        }
        var verdict = ContractVerdict(violations: violations(of: answer, operation: operation, response: response, instance: instance), operation: operation.name)
        if withLinks, (200..<300).contains(answer.status), answer.body != nil {
            verdict.links = links(for: answer, operation: operation, response: response, path: path, body: instance)
        }
        return verdict
    }

    private func violations(
        of answer: ContractAnswer, operation: OpenAPIOperation, response: OpenAPIResponse, instance: () -> JSONValue?
    ) -> [ContractViolation] {
        // Named only when something is wrong: a conforming answer allocates no message.
        var name: String { "\(operation.name) \(response.status)" }
        var violations: [ContractViolation] = []
        for header in response.requiredHeaders where answer.header(header) == nil {
            violations.append(ContractViolation(
                rule: .openAPIHeader, expected: "\(name): header \(header)", actual: "missing",
                message: "\(name) lacks the header \(header), which the document requires"))
        }
        guard answer.body?.isEmpty == false else { return violations }
        let servedEssence = answer.header("Content-Type").map(Self.essence)
        guard let mediaType = Self.mediaType(essence: servedEssence, in: response.mediaTypes) else {
            let listed = response.mediaTypes.map(\.type).joined(separator: ", ")
            let actual = servedEssence ?? "no Content-Type"
            violations.append(ContractViolation(
                rule: .openAPIContentType, expected: "\(name): \(listed.isEmpty ? "no body" : listed)", actual: actual,
                message: listed.isEmpty
                    ? "\(name) has a \(actual) body, but the document describes no content for it"
                    : "\(name) served \(actual), which the document does not list (it lists \(listed))"))
            return violations
        }
        guard let schema = mediaType.schema, Self.isJSONEssence(servedEssence ?? mediaType.essence), let instance = instance() else { return violations }
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
        ContentTypeHeader.essence(of: type)
    }

    /// The documented media type the served one falls under: the same type and subtype before
    /// `type/*` before `*/*`; a response without a Content-Type matches only `*/*`. The documented
    /// types' essences are computed once, when the document is read.
    static func mediaType(for served: String?, in types: [OpenAPIMediaType]) -> OpenAPIMediaType? {
        mediaType(essence: served.map(Self.essence), in: types)
    }

    static func mediaType(essence served: String?, in types: [OpenAPIMediaType]) -> OpenAPIMediaType? {
        let essence = served ?? ""
        if !essence.isEmpty, let exact = types.first(where: { $0.essence == essence }) { return exact }
        if let slash = essence.firstIndex(of: "/"), slash > essence.startIndex {
            let range = essence[..<slash] + "/*"
            if let match = types.first(where: { $0.essence == range }) { return match }
        }
        return types.first { $0.essence == "*/*" }
    }

    static func isJSON(_ type: String) -> Bool {
        isJSONEssence(Self.essence(type))
    }

    static func isJSONEssence(_ essence: String) -> Bool {
        essence == "application/json" || essence.hasSuffix("+json") || essence == "*/*" || essence == "application/*"
    }
}
