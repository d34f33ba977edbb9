import APICheckJSON
import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat

/// Reads an OpenAPI document (3.0.x, 3.1.x, 3.2.x; YAML or JSON) into a checked ``OpenAPIDocument``.
///
/// The text is parsed with positions (``APICheckJSON`` for JSON, Yams' node tree for YAML, both
/// under ``OpenAPIReadLimits``), the version read from the raw node, and the structure decoded by
/// OpenAPIKit from the same value re-written as JSON: a decoding error's coding path is walked
/// back through the node, so every problem is `file:line:column: error: …`.
public struct OpenAPIDocumentReader: Sendable {
    public var limits: OpenAPIReadLimits
    /// Remote documents `$ref`s may use, fetched beforehand (``OpenAPIDocumentLoader``), by
    /// absolute URI without fragment; every other remote `$ref` is refused.
    public var remoteDocuments: [String: [UInt8]] = [:]

    public init(limits: OpenAPIReadLimits = OpenAPIReadLimits()) {
        self.limits = limits
    }

    /// Reads the document at `path` (its external `$ref` files are read relative to its folder).
    public func read(path: String) throws(OpenAPIError) -> OpenAPIDocument {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let bytes = try readFile(url, shownAs: path)
        return try read(bytes, file: path, location: url)
    }

    /// Reads a document from `bytes`; `file` names it in errors, `location` (a file URL) is where
    /// its relative `$ref`s resolve (none are allowed without one).
    public func read(_ bytes: [UInt8], file: String, location: URL? = nil) throws(OpenAPIError) -> OpenAPIDocument {
        guard bytes.count <= limits.maximumBytes else {
            throw .limit("the document is \(bytes.count) bytes, more than the \(limits.maximumBytes) allowed", file: file)
        }
        let node = try parse(bytes, file: file)
        guard node.isObject else {
            throw .structure("an OpenAPI document is an object, found \(node.typeName)", file: file, line: node.position.line, column: node.position.column)
        }
        let generation = try Self.generation(of: node, file: file)
        let json = Data(JSONWriter().bytes(node.value))
        let document: OpenAPIKit.OpenAPI.Document
        do {
            switch generation {
            case .v30:
                document = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: json).convert(to: .v3_1_1)
            case .v31:
                document = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: json)
            }
        } catch {
            throw Self.located(error, node: node, file: file)
        }
        return try OpenAPIDocument(
            document: document, node: node, generation: generation, file: file, location: location, reader: self)
    }

    // MARK: Parsing

    func readFile(_ url: URL, shownAs file: String) throws(OpenAPIError) -> [UInt8] {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .reference("cannot read the file: \(Self.reason(error))", file: file, line: 0, column: 0)
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limits.maximumBytes + 1) ?? Data()
            guard data.count <= limits.maximumBytes else {
                throw OpenAPIError.limit("the file is more than the \(limits.maximumBytes) bytes allowed", file: file)
            }
            return [UInt8](data)
        } catch let error as OpenAPIError {
            throw error
        } catch {
            throw .reference("cannot read the file: \(Self.reason(error))", file: file, line: 0, column: 0)
        }
    }

    /// JSON when the first non-blank byte opens an object or array, YAML otherwise (JSON is YAML,
    /// but the JSON parser is exact about numbers and faster).
    func parse(_ bytes: [UInt8], file: String) throws(OpenAPIError) -> JSONNode {
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let node: JSONNode
            do {
                node = try JSONParser(maximumDepth: limits.maximumDepth).parse(bytes)
            } catch {
                throw .syntax("not valid JSON: \(error.message)", file: file, line: error.position.line, column: error.position.column)
            }
            var visits = 0
            try Self.rejectDuplicateKeys(node, file: file, visits: &visits, limit: limits.maximumNodes)
            return node
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .syntax("the document is not UTF-8 text", file: file, line: 1, column: 1)
        }
        return try YAMLDocumentReader(limits: limits, file: file).read(text)
    }

    /// JSON's parser keeps repeated keys; a document with one is ambiguous, so it is refused.
    static func rejectDuplicateKeys(_ node: JSONNode, file: String, visits: inout Int, limit: Int) throws(OpenAPIError) {
        visits += 1
        guard visits <= limit else { throw .limit("the document has more than \(limit) values", file: file) }
        switch node.kind {
        case .array(let elements):
            for element in elements { try rejectDuplicateKeys(element, file: file, visits: &visits, limit: limit) }
        case .object(let members):
            var seen: [String: JSONPosition] = [:]
            for member in members {
                if let first = seen[member.key] {
                    throw .structure(
                        "duplicate key '\(member.key)' (first at line \(first.line), column \(first.column)): keep one",
                        file: file, line: member.keyPosition.line, column: member.keyPosition.column)
                }
                seen[member.key] = member.keyPosition
                try rejectDuplicateKeys(member.value, file: file, visits: &visits, limit: limit)
            }
        default:
            break
        }
    }

    // MARK: Versions

    /// Which OpenAPIKit module reads the document.
    enum Generation: Sendable {
        case v30
        case v31
    }

    static func generation(of node: JSONNode, file: String) throws(OpenAPIError) -> Generation {
        if let swagger = node["swagger"], let key = node.members?.first(where: { $0.key == "swagger" })?.keyPosition {
            throw .unsupportedVersion(
                "this is a Swagger \(swagger.value.plainText ?? "2.0") document; apicheck reads OpenAPI 3.0, 3.1 and 3.2: convert it "
                    + "(for example with swagger2openapi, or by importing and exporting it in Swagger Editor) and pass the 3.x document",
                file: file, line: key.line, column: key.column)
        }
        guard let version = node["openapi"] else {
            throw .structure("no 'openapi' field: this is not an OpenAPI document (expected e.g. openapi: 3.1.0)", file: file, line: node.position.line, column: node.position.column)
        }
        guard let text = version.stringValue else {
            throw .structure(
                "'openapi' must be a string such as \"3.1.0\", found \(version.typeName) (quote it in YAML)",
                file: file, line: version.position.line, column: version.position.column)
        }
        if text.hasPrefix("3.0.") { return .v30 }
        if text.hasPrefix("3.1.") || text.hasPrefix("3.2.") { return .v31 }
        throw .unsupportedVersion(
            "OpenAPI \(text) is not supported; apicheck reads 3.0.x, 3.1.x and 3.2.x", file: file, line: version.position.line, column: version.position.column)
    }

    // MARK: Decoding errors

    /// A decoding error at the node its coding path names (the deepest that exists).
    static func located(_ error: any Error, node: JSONNode, file: String) -> OpenAPIError {
        let described = OpenAPIKit.OpenAPI.Error(from: error)
        let (target, trail) = deepest(node, along: described.codingPath)
        let place = trail.isEmpty ? "" : " (at \(trail.joined(separator: ".")))"
        var message = described.localizedDescription
        if message.isEmpty { message = "\(error)" }
        return .structure("not a valid OpenAPI document: \(message)\(place)", file: file, line: target.position.line, column: target.position.column)
    }

    static func deepest(_ node: JSONNode, along path: [any CodingKey]) -> (JSONNode, [String]) {
        var current = node
        var trail: [String] = []
        for key in path {
            switch current.kind {
            case .object(let members):
                guard let member = members.first(where: { $0.key == key.stringValue }) else { return (current, trail) }
                current = member.value
                trail.append(key.stringValue)
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return (current, trail) }
                current = elements[index]
                trail.append(String(index))
            default:
                return (current, trail)
            }
        }
        return (current, trail)
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}

extension JSONValue {
    /// A scalar's text (`2.0` for the number or the string), `nil` for containers and null.
    var plainText: String? {
        switch self {
        case .string(let text), .number(let text): text
        case .bool(let value): String(value)
        default: nil
        }
    }
}
