import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation
import OpenAPIKit

/// An OpenAPI document read and checked once: its operations with their responses, each
/// response schema compiled (from the document's raw JSON, so no keyword OpenAPIKit's model
/// drops is lost), and the servers' base paths. Immutable and `Sendable`: one value serves
/// every concurrent check of a crawl.
///
/// ```swift
/// let document = try OpenAPIDocumentReader().read(path: "openapi.yaml")
/// let operation = document.operation(method: "GET", path: "/api/movies/3")   // GET /movies/{id}
/// ```
public struct OpenAPIDocument: Sendable {
    /// The file as the user named it.
    public let file: String
    /// The document's `openapi` version as written (`3.0.3`).
    public let version: String
    /// Every operation, in document order.
    public let operations: [OpenAPIOperation]
    /// The servers' URL paths (variables at their defaults), longest first; `[""]` without servers.
    public let basePaths: [String]
    /// The hosts the servers name (`api.example.com`), lower-cased; empty for relative servers.
    public let serverHosts: Set<String>
    /// What in the document is left unchecked or ignored, located (a `pattern` in Python's dialect,
    /// as Django REST framework writes them; a Link Object that names no operation): the caller
    /// shows these as warnings.
    public let warnings: [OpenAPIWarning]
    /// The security schemes and each operation's effective requirement.
    public let security: OpenAPISecurity
    /// The Link Objects of the documented responses, and warnings about the unusable ones.
    public let linkTable: OpenAPILinkTable
    /// Where the document's own schemas resolve (`file:///…/openapi.yaml`), to show keyword
    /// locations relative to it.
    let baseURI: String
    private(set) var matcher: OperationMatcher
    /// The document as read (with positions), for what the operations do not carry: examples,
    /// parameters, request bodies (mocking and request validation).
    let node: JSONNode
    /// The registry the document's schemas resolve in, and the options response schemas were
    /// compiled with; request schemas compile with the same options in the request direction.
    let registry: JSONSchemaRegistry
    let schemaOptions: JSONSchemaOptions

    init(
        document: OpenAPIKit.OpenAPI.Document, node: JSONNode, generation: OpenAPIDocumentReader.Generation, file: String, location: URL?,
        reader: OpenAPIDocumentReader
    ) throws(OpenAPIError) {
        self.file = file
        version = node["openapi"]?.stringValue ?? ""
        // A document read from bytes has no place: its relative `$ref`s cannot resolve.
        let baseURI = location?.absoluteString ?? "urn:apicheck:openapi:document"
        self.baseURI = baseURI

        var options = JSONSchemaOptions()
        let draft: JSONSchemaDraft
        switch generation {
        case .v30:
            draft = .openAPI30
            options.openAPIDirection = .response
        case .v31:
            draft = node["jsonSchemaDialect"]?.stringValue.flatMap(JSONSchemaDraft.init(metaSchemaURI:)) ?? .draft2020_12
        }
        options.defaultDraft = draft
        // A generated document is not the user's to fix: one unusable pattern must not leave the
        // rest of its schemas unchecked.
        options.unusablePatterns = .ignore
        var registry = JSONSchemaRegistry()
        do {
            try registry.add(node, uri: baseURI, file: file, draft: draft)
        } catch {
            throw .structure("the document's schemas cannot be read: \(error.message)", file: file, line: error.line ?? 0, column: error.column ?? 0)
        }
        registry.retrieve = ExternalReferences(root: location, limits: reader.limits, reader: reader).retrieve
        self.node = node
        self.registry = registry
        schemaOptions = options

        var builder = OperationBuilder(
            document: document, node: node, file: file, baseURI: baseURI, registry: registry, options: options, limits: reader.limits)
        operations = try builder.operations()
        basePaths = ServerPaths.basePaths(of: document.servers)
        serverHosts = ServerPaths.hosts(of: document.servers)
        security = OpenAPISecurity(document: document, rawPaths: OpenAPISecurity.rawPaths(node))
        matcher = OperationMatcher(operations: operations, basePaths: basePaths)
        linkTable = OpenAPILinkTable(node: node, file: file, operations: operations)
        warnings = OpenAPIWarning.collapsed(builder.warnings) + linkTable.warnings
    }

    /// Whether `path` (`/api/v1/movies`) lies under one of the servers' base paths.
    public func isUnderServers(_ path: String) -> Bool {
        basePaths.contains { base in base.isEmpty || path == base || path.hasPrefix(base + "/") }
    }

    /// The same document with its operations also served under `basePath` (`""`: at the host's
    /// root), after the servers' own: a production document (`https://api.example.com/v1`) checked
    /// against the same API served locally at `/`, as Schemathesis' `--url` does, and stubs
    /// imported without the base path (as Prism serves them).
    public func servedAlsoUnder(_ basePath: String) -> OpenAPIDocument {
        guard !basePaths.contains(basePath) else { return self }
        var copy = self
        copy.matcher = OperationMatcher(operations: operations, basePaths: basePaths + [basePath])
        return copy
    }

    /// What a request's method and path (percent-encoded, as sent) reach in the document.
    public func operation(method: String, path: String) -> OperationMatcher.Match {
        matcher.match(method: method, path: path)
    }

    /// A keyword location for people: `#/components/schemas/Movie/properties/year/type` in the
    /// document itself, `schemas/movie.json#/properties/year` in a file beside it.
    func displayLocation(_ absolute: String) -> String {
        if absolute.hasPrefix(baseURI + "#") { return String(absolute.dropFirst(baseURI.count)) }
        let folder = baseURI.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/"
        if absolute.hasPrefix(folder) { return String(absolute.dropFirst(folder.count)) }
        return absolute
    }
}

/// One operation: a method on a path template, with its documented responses.
public struct OpenAPIOperation: Sendable {
    /// Upper-case (`GET`).
    public var method: String
    /// The path template as the document writes it (`/movies/{id}`).
    public var path: String
    /// The operation's `operationId`, when it has one.
    public var operationId: String?
    public var responses: [OpenAPIResponse]
    /// The base paths of the operation's own servers (or its path item's), overriding the
    /// document's; `nil` when it has none.
    public var basePaths: [String]?
    /// Where the operation and its path item are in the document (JSON pointers, `$ref`s followed).
    var pointer = ""
    var pathItemPointer = ""

    /// `GET /movies/{id}`: how findings name the operation (and group by it).
    public var name: String { "\(method) \(path)" }

    /// The response documented for `status`: the code itself, else its range (`4XX`), else `default`.
    public func response(for status: Int) -> OpenAPIResponse? {
        let code = String(status)
        let range = "\(status / 100)XX"
        return responses.first { $0.status == code } ?? responses.first { $0.status.uppercased() == range } ?? responses.first { $0.status == "default" }
    }
}

/// One documented response of an operation.
public struct OpenAPIResponse: Sendable {
    /// `200`, `4XX` or `default`.
    public var status: String
    public var mediaTypes: [OpenAPIMediaType]
    /// Headers the response must have (`required: true`), as written.
    public var requiredHeaders: [String]
    /// Where the response is in the document (its `$ref` followed).
    var pointer = ""
}

/// A media type of a response and its compiled schema.
public struct OpenAPIMediaType: Sendable {
    /// As the document writes it (`application/json`, `application/*`, `*/*`).
    public var type: String {
        didSet { essence = ContentTypeHeader.essence(of: type) }
    }
    /// Where the schema is, for messages (`#/paths/~1movies/get/responses/200/content/application~1json/schema`).
    public var schemaLocation: String?
    var schema: APICheckSchema.JSONSchema?
    /// `type` lower-cased without parameters, computed once: every answer is compared with it.
    private(set) var essence: String

    init(type: String, schemaLocation: String?, schema: APICheckSchema.JSONSchema?) {
        self.type = type
        self.schemaLocation = schemaLocation
        self.schema = schema
        essence = ContentTypeHeader.essence(of: type)
    }
}
