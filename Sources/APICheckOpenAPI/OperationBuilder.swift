import APICheckJSON
import APICheckSchema
import Foundation
import OpenAPIKit

/// Turns OpenAPIKit's decoded document into ``OpenAPIOperation`` values once: operations,
/// statuses and required headers from OpenAPIKit (`$ref`s through the components), media types
/// and schemas from the raw node at the same place, so each schema is compiled from the JSON as
/// written. A response referenced from many operations compiles once.
struct OperationBuilder {
    let document: OpenAPIKit.OpenAPI.Document
    let node: JSONNode
    let file: String
    let baseURI: String
    let registry: JSONSchemaRegistry
    let options: JSONSchemaOptions
    let limits: OpenAPIReadLimits
    private var compiled: [String: APICheckSchema.JSONSchema] = [:]
    /// Patterns left unchecked (not ECMA-262), once each however many schemas share them.
    private(set) var warnings: [OpenAPIWarning] = []

    init(
        document: OpenAPIKit.OpenAPI.Document, node: JSONNode, file: String, baseURI: String, registry: JSONSchemaRegistry,
        options: JSONSchemaOptions, limits: OpenAPIReadLimits
    ) {
        self.document = document
        self.node = node
        self.file = file
        self.baseURI = baseURI
        self.registry = registry
        self.options = options
        self.limits = limits
    }

    mutating func operations() throws(OpenAPIError) -> [OpenAPIOperation] {
        var rawPathKeys: [OpenAPIKit.OpenAPI.Path: String] = [:]
        for member in node["paths"]?.members ?? [] where rawPathKeys[OpenAPIKit.OpenAPI.Path(rawValue: member.key)] == nil {
            rawPathKeys[OpenAPIKit.OpenAPI.Path(rawValue: member.key)] = member.key
        }
        // In the document's own order (its raw nodes keep it; decoded dictionaries may not): the
        // same order every run, for coverage lists and the probe's plans.
        var ordered: [(OpenAPIKit.OpenAPI.Path, OpenAPIKit.OpenAPI.PathItem.Map.Value)] = []
        var seen: Set<OpenAPIKit.OpenAPI.Path> = []
        for member in node["paths"]?.members ?? [] {
            let path = OpenAPIKit.OpenAPI.Path(rawValue: member.key)
            if let item = document.paths[path], seen.insert(path).inserted { ordered.append((path, item)) }
        }
        for (path, item) in document.paths where !seen.contains(path) { ordered.append((path, item)) }
        var operations: [OpenAPIOperation] = []
        for (path, item) in ordered {
            let rawPath = rawPathKeys[path] ?? path.rawValue
            let itemPointer = try follow("/paths/" + JSONPointer.escape(rawPath), what: "path item")
            let pathItem = try resolve(item, at: itemPointer)
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                var operationPointer = itemPointer + "/" + method.lowercased()
                if self.node(at: operationPointer) == nil, self.node(at: itemPointer + "/additionalOperations/" + JSONPointer.escape(method)) != nil {
                    operationPointer = itemPointer + "/additionalOperations/" + JSONPointer.escape(method)
                }
                var responses: [OpenAPIResponse] = []
                let rawStatuses = self.node(at: operationPointer + "/responses")?.members?.map(\.key) ?? []
                for (status, either) in endpoint.operation.responses {
                    let rawStatus = rawStatuses.first { $0.uppercased() == status.rawValue.uppercased() } ?? status.rawValue
                    let responsePointer = try follow(operationPointer + "/responses/" + JSONPointer.escape(rawStatus), what: "response")
                    let response = try resolve(either, at: responsePointer)
                    var documented = OpenAPIResponse(
                        status: status.rawValue.uppercased() == "DEFAULT" ? "default" : status.rawValue.uppercased(),
                        mediaTypes: try mediaTypes(at: responsePointer),
                        requiredHeaders: try requiredHeaders(response, at: responsePointer))
                    documented.pointer = responsePointer
                    responses.append(documented)
                }
                // Codes, then ranges among them (`200`, `2XX`, `404`), `default` last: stable messages.
                responses.sort { ($0.status == "default" ? "~" : $0.status) < ($1.status == "default" ? "~" : $1.status) }
                let servers = endpoint.operation.servers ?? pathItem.servers
                var operation = OpenAPIOperation(
                    method: method, path: rawPath, operationId: endpoint.operation.operationId, responses: responses,
                    basePaths: servers.map(ServerPaths.basePaths(of:)))
                operation.pointer = operationPointer
                operation.pathItemPointer = itemPointer
                operations.append(operation)
            }
        }
        return operations
    }

    // MARK: Raw places

    func node(at pointer: String) -> JSONNode? {
        node.node(at: pointer)
    }

    /// The pointer of the object `pointer` names once its local `$ref`s are followed; a `$ref`
    /// to another file is refused here (only schemas may live in other files, for now).
    func follow(_ pointer: String, what: String) throws(OpenAPIError) -> String {
        var current = pointer
        var seen: Set<String> = [current]
        while let here = node(at: current), let reference = here["$ref"] {
            let at = reference.position
            guard let text = reference.stringValue else {
                throw .structure("$ref must be a string", file: file, line: at.line, column: at.column)
            }
            guard text.hasPrefix("#") else {
                throw .reference(
                    "the \(what) $ref '\(text)' names another file; only schemas may be in other files for now: move the \(what) into this document's components",
                    file: file, line: at.line, column: at.column)
            }
            let target = String(text.dropFirst()).removingPercentEncoding ?? String(text.dropFirst())
            guard node(at: target) != nil else {
                throw .reference("the $ref '\(text)' names nothing in the document", file: file, line: at.line, column: at.column)
            }
            guard seen.insert(target).inserted, seen.count <= 64 else {
                throw .reference("the $ref '\(text)' is part of a cycle of references", file: file, line: at.line, column: at.column)
            }
            current = target
        }
        return current
    }

    private func position(_ pointer: String) -> JSONPosition {
        node.deepestNode(along: pointer).position
    }

    private func resolve<Value: ComponentDictionaryLocatable>(
        _ either: Either<OpenAPIKit.OpenAPI.Reference<Value>, Value>, at pointer: String
    ) throws(OpenAPIError) -> Value {
        do {
            return try document.components.lookup(either)
        } catch {
            let at = position(pointer)
            throw .reference("a $ref cannot be resolved: \(OpenAPIKit.OpenAPI.Error(from: error).localizedDescription)", file: file, line: at.line, column: at.column)
        }
    }

    // MARK: Content and headers

    private mutating func mediaTypes(at responsePointer: String) throws(OpenAPIError) -> [OpenAPIMediaType] {
        guard let content = node(at: responsePointer + "/content")?.members else { return [] }
        var types: [OpenAPIMediaType] = []
        for member in content {
            let mediaPointer = try follow(responsePointer + "/content/" + JSONPointer.escape(member.key), what: "media type")
            var mediaType = OpenAPIMediaType(type: member.key, schemaLocation: nil, schema: nil)
            if node(at: mediaPointer + "/schema") != nil {
                let schemaPointer = mediaPointer + "/schema"
                mediaType.schemaLocation = "#" + schemaPointer
                mediaType.schema = try schema(at: schemaPointer)
            }
            types.append(mediaType)
        }
        return types
    }

    /// The schema at `pointer`, compiled once: a `$ref` to it, so `#/components/schemas/…` and
    /// files beside the document resolve through the registry.
    private mutating func schema(at pointer: String) throws(OpenAPIError) -> APICheckSchema.JSONSchema {
        if let known = compiled[pointer] { return known }
        guard compiled.count < limits.maximumCompiledSchemas else {
            throw .limit("the document has more than \(limits.maximumCompiledSchemas) response schemas", file: file)
        }
        let fragment = pointer.addingPercentEncoding(withAllowedCharacters: Self.fragmentAllowed) ?? pointer
        let reference = JSONValue.object([JSONMember("$ref", .string(baseURI + "#" + fragment))])
        do {
            let schema = try APICheckSchema.JSONSchema(reference, baseURI: "urn:apicheck:openapi:response", registry: registry, options: options)
            compiled[pointer] = schema
            for ignored in schema.ignoredPatterns {
                let at = ignored.line.map { JSONPosition(line: $0, column: ignored.column ?? 1) } ?? position(pointer)
                let warning = OpenAPIWarning(file: ignored.file ?? file, line: at.line, column: at.column, message: ignored.message)
                if !warnings.contains(warning) { warnings.append(warning) }
            }
            return schema
        } catch {
            let at = error.line.map { JSONPosition(line: $0, column: error.column ?? 1) } ?? position(pointer)
            let where_ = error.keywordLocation.isEmpty ? "" : " (at \(error.keywordLocation))"
            throw .structure("the response schema cannot be used: \(error.message)\(where_)", file: error.file ?? file, line: at.line, column: at.column)
        }
    }

    private static let fragmentAllowed: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/!$&'()*+,;=:@")
        return allowed
    }()

    private func requiredHeaders(_ response: OpenAPIKit.OpenAPI.Response, at pointer: String) throws(OpenAPIError) -> [String] {
        var names: [String] = []
        for (name, either) in response.headers ?? [:] where name.lowercased() != "content-type" {
            let header = try resolve(either, at: pointer + "/headers/" + JSONPointer.escape(name))
            if header.required { names.append(name) }
        }
        return names
    }
}
