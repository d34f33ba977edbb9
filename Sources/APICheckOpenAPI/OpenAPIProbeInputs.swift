import APICheckJSON
import APICheckModel

/// What `apicheck probe --openapi` probes from a document, besides what the API advertises: each
/// operation's request body and its path and query parameters, with their schemas as plain JSON
/// (local `$ref`s inlined, so they travel without the document).
public struct OpenAPIProbeInput: Sendable {
    public var method: String
    /// The path template as written (`/books/{id}`).
    public var path: String
    /// The base paths the operation is served under (its own servers', else the document's).
    public var basePaths: [String]
    /// `POST /books`.
    public var operationName: String
    /// The request body's JSON media type and schema, when it has one.
    public var bodyContentType: String?
    public var bodySchema: JSONValue?
    public var bodyExamples: [JSONValue]
    public var pathParameters: [String]
    /// Query parameters as one object schema (`properties`, `required`), when there are any.
    public var querySchema: JSONValue?
    /// The media type of the first 2xx response that documents one.
    public var responseType: String?
}

extension OpenAPIDocument {
    /// A `$ref` nested deeper than this, or going round, is inlined as `{}` (anything).
    static let maximumInlinedReferences = 12

    /// OpenAPI's own order of the methods of a path item.
    static let methodOrder = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY"]

    /// Every operation's request inputs, by path, then in OpenAPI's order of methods: the same
    /// order every run, so the same `--seed` plans the same requests.
    public var probeInputs: [OpenAPIProbeInput] {
        let order = { (method: String) in Self.methodOrder.firstIndex(of: method) ?? Self.methodOrder.count }
        let sorted = operations.sorted { ($0.path, order($0.method), $0.method) < ($1.path, order($1.method), $1.method) }
        return sorted.map { operation in
            var input = OpenAPIProbeInput(
                method: operation.method, path: operation.path, basePaths: operation.basePaths ?? basePaths, operationName: operation.name,
                bodyExamples: [], pathParameters: [], responseType: nil)
            if let body = resolve(operation.pointer + "/requestBody") {
                for member in node(at: body + "/content")?.members ?? [] where ContentTypeHeader.isJSON(member.key) || member.key == "application/x-www-form-urlencoded" {
                    guard let media = resolve(body + "/content/" + JSONPointer.escape(member.key)) else { continue }
                    input.bodyContentType = member.key
                    input.bodySchema = node(at: media + "/schema").map { _ in inlinedSchema(at: media + "/schema") }
                    if let example = node(at: media + "/example")?.value { input.bodyExamples.append(example) }
                    for named in node(at: media + "/examples")?.members ?? [] {
                        if let value = resolve(media + "/examples/" + JSONPointer.escape(named.key)).flatMap({ node(at: $0 + "/value")?.value }) {
                            input.bodyExamples.append(value)
                        }
                    }
                    break
                }
            }
            var properties: [JSONMember] = []
            var required: [JSONValue] = []
            for owner in [operation.pathItemPointer, operation.pointer] {
                for index in node(at: owner + "/parameters")?.elements?.indices ?? 0..<0 {
                    guard let pointer = resolve(owner + "/parameters/\(index)"), let name = node(at: pointer + "/name")?.stringValue else { continue }
                    switch node(at: pointer + "/in")?.stringValue {
                    case "path":
                        if !input.pathParameters.contains(name) { input.pathParameters.append(name) }
                    case "query":
                        properties.removeAll { $0.key == name }
                        properties.append(JSONMember(name, node(at: pointer + "/schema") != nil ? inlinedSchema(at: pointer + "/schema") : .object([])))
                        if node(at: pointer + "/required")?.value == .bool(true) { required.append(.string(name)) }
                    default:
                        break
                    }
                }
            }
            if !properties.isEmpty {
                input.querySchema = .object([
                    JSONMember("type", .string("object")), JSONMember("properties", .object(properties)), JSONMember("required", .array(required)),
                ])
            }
            let success = operation.responses.filter { $0.status.hasPrefix("2") }.sorted { $0.status < $1.status }
            input.responseType = success.lazy.compactMap { $0.mediaTypes.first?.type }.first
            return input
        }
    }

    /// Values an inlined schema may hold: shared `$ref`s inlined everywhere grow a schema
    /// exponentially; past this, the rest is `{}` (anything).
    static let maximumInlinedValues = 20_000

    /// The schema at `pointer` with local `$ref`s replaced by what they name.
    func inlinedSchema(at pointer: String) -> JSONValue {
        guard let value = node(at: pointer)?.value else { return .object([]) }
        var budget = Self.maximumInlinedValues
        return inlined(value, depth: 0, budget: &budget)
    }

    private func inlined(_ value: JSONValue, depth: Int, budget: inout Int) -> JSONValue {
        budget -= 1
        guard budget > 0 else { return .object([]) }
        switch value {
        case .object(let members):
            if case .string(let reference)? = value["$ref"], reference.hasPrefix("#") {
                guard depth < Self.maximumInlinedReferences, let target = resolve(String(reference.dropFirst()).removingPercentEncoding ?? ""),
                    let named = node(at: target)?.value
                else { return .object([]) }
                return inlined(named, depth: depth + 1, budget: &budget)
            }
            return .object(members.map { JSONMember($0.key, inlined($0.value, depth: depth, budget: &budget)) })
        case .array(let elements):
            return .array(elements.map { inlined($0, depth: depth, budget: &budget) })
        default:
            return value
        }
    }
}
