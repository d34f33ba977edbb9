import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import Foundation

/// How a document's operations lead to one another, worked out once: the Link Objects (from
/// ``OpenAPILinkTable``) and the parameter fills, GET operations one path parameter below a
/// list (`GET /movies` → `GET /movies/{movieId}`, filled with the `id` of each item of the list
/// answer) or below a resource whose own parameters fill them
/// (`GET /movies/{id}` → `GET /movies/{id}/cast`). Schemathesis calls following them stateful
/// testing; here the values come from real answers.
struct OpenAPILinking: Sendable {
    struct Fill: Sendable {
        var target: OpenAPIOperation
        var template: PathTemplate
        /// Target parameter → the source's parameter at the same place of the shared prefix.
        var fromRequest: [String: String]
        /// The parameter each item of a list answer fills, and the item's keys tried for it in
        /// order; `nil` when the request's own parameters fill every one.
        var fromItem: (parameter: String, keys: [String])?
    }

    let templates: [String: PathTemplate]
    let operations: [String: OpenAPIOperation]
    let fills: [String: [Fill]]
    /// Operation name → its `operationId`, the rel of its fills when it has one.
    let operationIDs: [String: String]

    init(document: OpenAPIDocument) {
        var templates: [String: PathTemplate] = [:]
        var operations: [String: OpenAPIOperation] = [:]
        for operation in document.operations {
            templates[operation.name] = PathTemplate(operation.path)
            operations[operation.name] = operation
        }
        var operationIDs: [String: String] = [:]
        for (id, name) in document.linkTable.operationIDs { operationIDs[name] = id }
        let gets = document.operations.filter { $0.method == "GET" }
        // Sources by shape (literals kept, parameters as `{}`): each target looks up its own
        // prefixes, so a document of many operations costs operations × depth, not operations².
        var byShape: [[String]: [OpenAPIOperation]] = [:]
        for source in gets {
            guard let template = templates[source.name] else { continue }
            byShape[Self.shape(Self.segments(template)[...]), default: []].append(source)
        }
        var fills: [String: [Fill]] = [:]
        for target in gets {
            guard let targetTemplate = templates[target.name], !targetTemplate.parameterNames.isEmpty else { continue }
            let whole = Self.segments(targetTemplate)
            for length in 0..<whole.count {
                for source in byShape[Self.shape(whole[..<length])] ?? [] {
                    guard let sourceTemplate = templates[source.name], let fill = Self.fill(from: sourceTemplate, to: targetTemplate, target: target)
                    else { continue }
                    fills[source.name, default: []].append(fill)
                }
            }
        }
        // In document order of their targets, for a stable order of links.
        let order = Dictionary(document.operations.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (source, list) in fills { fills[source] = list.sorted { order[$0.target.name, default: 0] < order[$1.target.name, default: 0] } }
        self.templates = templates
        self.operations = operations
        self.fills = fills
        self.operationIDs = operationIDs
    }

    private static func shape(_ segments: ArraySlice<PathTemplate.Segment>) -> [String] {
        segments.map { segment in
            switch segment {
            case .literal(let literal): "=" + literal
            case .parameter: "{}"
            case .mixed(let raw): "~" + raw
            }
        }
    }

    private static func segments(_ template: PathTemplate) -> [PathTemplate.Segment] {
        template.raw == "/" ? [] : template.segments
    }

    static func fill(from source: PathTemplate, to target: PathTemplate, target operation: OpenAPIOperation) -> Fill? {
        let (prefix, whole) = (segments(source), segments(target))
        guard whole.count > prefix.count else { return nil }
        var fromRequest: [String: String] = [:]
        for (mine, theirs) in zip(prefix, whole) {
            switch (mine, theirs) {
            case (.literal(let left), .literal(let right)) where left == right: continue
            case (.parameter(let left), .parameter(let right)): fromRequest[right] = left
            default: return nil
            }
        }
        let extra = whole[prefix.count...]
        let restIsLiteral = extra.dropFirst().allSatisfy { if case .literal = $0 { true } else { false } }
        guard restIsLiteral else { return nil }
        switch extra.first {
        case .parameter(let name)?:
            // One item parameter below a list: an item's field of the same name fills it; an
            // item's `id` fills `id`, and `movieId`/`movie_id` below a literal `movies`.
            var keys = [name]
            let lower = name.lowercased()
            if name != "id", case .literal(let collection)? = prefix.last {
                for suffix in ["_id", "id"] where lower.hasSuffix(suffix) {
                    let resource = lower.dropLast(suffix.count)
                    if !resource.isEmpty, collection.lowercased().hasPrefix(resource) {
                        keys.append("id")
                        break
                    }
                }
            }
            return Fill(target: operation, template: target, fromRequest: fromRequest, fromItem: (name, keys))
        case .literal?:
            // Below a resource: its own parameters fill every one of the target's.
            guard Set(target.parameterNames) == Set(fromRequest.keys) else { return nil }
            return Fill(target: operation, template: target, fromRequest: fromRequest, fromItem: nil)
        default:
            return nil
        }
    }
}

extension OpenAPIContract {
    /// The links the document adds to a 2xx answer of `operation`: its Link Objects with their
    /// parameters evaluated, then the parameter fills. A link whose path parameter has no value
    /// (the body lacks the field) is left out. Bounded: at most the table's links per response
    /// and ``fillsPerAnswer`` fills per target operation.
    func links(
        for answer: ContractAnswer, operation: OpenAPIOperation, response: OpenAPIResponse, path: String, body: () -> JSONValue?
    ) -> [Link] {
        let documentLinks = followsLinks ? document.linkTable.links(of: operation.name, status: response.status) : []
        let fills = fillsParameters ? linking.fills[operation.name] ?? [] : []
        guard !documentLinks.isEmpty || !fills.isEmpty, let template = linking.templates[operation.name] else { return [] }
        let origin = OriginRewriter.origin(of: answer.url)
        let (base, requestPath) = requestParameters(path: path, operation: operation, template: template)
        let context = answer.url.absoluteString
        var links: [Link] = []

        if !documentLinks.isEmpty {
            var query: [String: String] = [:]
            for item in URLComponents(url: answer.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] where query[item.name] == nil {
                query[item.name] = item.value ?? ""
            }
            let runtime = RuntimeContext(
                url: context, method: answer.method, statusCode: answer.status, requestHeaders: answer.requestHeaders, requestQuery: query,
                requestPath: requestPath, responseHeaders: answer.headers, responseBody: body())
            for link in documentLinks {
                guard let target = linking.operations[link.target], let targetTemplate = linking.templates[link.target] else { continue }
                var pathValues: [String: String] = [:]
                var queryItems: [String] = []
                let declared = document.linkTable.parameterPlaces[link.target] ?? [:]
                for parameter in link.parameters {
                    guard let text = parameter.value.text(in: runtime) else { continue }
                    let place = parameter.place ?? (targetTemplate.parameterNames.contains(parameter.name) ? "path" : declared[parameter.name] ?? "query")
                    switch place {
                    case "path": pathValues[parameter.name] = text
                    case "query": queryItems.append(PathTemplate.encodeQuery(parameter.name) + "=" + PathTemplate.encodeQuery(text))
                    default: continue  // headers and cookies: a crawl link carries none
                    }
                }
                guard let filled = targetTemplate.filled(pathValues) else { continue }
                let prefix = link.serverURL.map { Self.serverPrefix($0, origin: origin) } ?? origin + targetBase(target, answeredUnder: base)
                let url = prefix + filled + (queryItems.isEmpty ? "" : "?" + queryItems.joined(separator: "&"))
                links.append(Link(
                    context: context, base: context, rel: link.name, href: url, target: Link.target(forHref: url, base: context), method: target.method,
                    format: .openAPILink, source: .document(link.location)))
            }
        }

        var items: [(String, JSONValue)]?
        for fill in fills where links.count < Self.maximumLinksPerAnswer {
            var values: [String: String] = [:]
            for (theirs, mine) in fill.fromRequest {
                guard let value = requestPath[mine] else { continue }
                values[theirs] = value
            }
            let prefix = origin + targetBase(fill.target, answeredUnder: base)
            let rel = linking.operationIDs[fill.target.name] ?? fill.target.name
            guard let (parameter, keys) = fill.fromItem else {
                guard let filled = fill.template.filled(values) else { continue }
                links.append(Link(
                    context: context, base: context, rel: rel, href: prefix + filled, target: Link.target(forHref: prefix + filled, base: context),
                    format: .openAPIFill, source: .jsonPointer("")))
                continue
            }
            var taken = 0
            if items == nil { items = Self.listItems(body()) }
            for (pointer, item) in items ?? [] {
                guard taken < fillsPerAnswer else { break }
                guard let (key, value) = keys.lazy.compactMap({ key in item[key].flatMap(LinkValue.scalarText).map { (key, $0) } }).first, !value.isEmpty
                else { continue }
                values[parameter] = value
                guard let filled = fill.template.filled(values) else { break }
                taken += 1
                links.append(Link(
                    context: context, base: context, rel: rel, href: prefix + filled, target: Link.target(forHref: prefix + filled, base: context),
                    format: .openAPIFill, source: .jsonPointer(pointer + "/" + JSONPointer.escape(key))))
            }
        }
        return links
    }

    /// Links the document adds to one answer at most (Link Objects are at most 64 per response).
    static let maximumLinksPerAnswer = 256

    /// The base path the answer was served under and its path parameters by name.
    private func requestParameters(path: String, operation: OpenAPIOperation, template: PathTemplate) -> (String, [String: String]) {
        let bases = (operation.basePaths ?? document.basePaths).sorted { $0.count > $1.count }
        for base in bases where base.isEmpty || path == base || path.hasPrefix(base + "/") {
            var rest = String(path.dropFirst(base.count))
            if rest.isEmpty { rest = "/" }
            if let values = template.values(in: rest) { return (base, values) }
        }
        return (bases.last ?? "", [:])
    }

    /// The target's base path: the one the answer came under when the target is served there too.
    private func targetBase(_ target: OpenAPIOperation, answeredUnder base: String) -> String {
        let bases = target.basePaths ?? document.basePaths
        return bases.contains(base) ? base : bases.first ?? ""
    }

    /// A Link Object's `server.url`, absolute or relative to the answer's origin, without a final `/`.
    static func serverPrefix(_ server: String, origin: String) -> String {
        var prefix = server.contains("://") ? server : origin + (server.hasPrefix("/") ? server : "/" + server)
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return prefix
    }

    /// The objects of a list answer with where they are: the elements of a top-level array, or of
    /// the arrays one level down in an object (`{"results": […]}`, `{"data": […]}`).
    static func listItems(_ body: JSONValue?) -> [(String, JSONValue)] {
        switch body {
        case .array(let elements)?:
            return elements.enumerated().compactMap { offset, element in
                if case .object = element { return ("/\(offset)", element) }
                return nil
            }
        case .object(let members)?:
            var items: [(String, JSONValue)] = []
            for member in members {
                guard case .array(let elements) = member.value else { continue }
                for (offset, element) in elements.enumerated() {
                    if case .object = element { items.append(("/\(JSONPointer.escape(member.key))/\(offset)", element)) }
                }
            }
            return items
        default:
            return []
        }
    }
}
