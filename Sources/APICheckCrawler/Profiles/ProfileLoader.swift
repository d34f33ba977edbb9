import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation
import Synchronization

/// Reads profile schemas from files (`--profile TYPE=FILE`, a stub set's `apicheck.json`) into
/// ``MediaTypeProfiles``.
///
/// Each schema file is read once, however many types name it, bounded in size, and compiled once.
/// Its relative `$ref`s are read from files next to it, but never from outside `root` (a stub
/// set's folder, or the current folder for `--profile`) and never from the network: a remote
/// `$ref` is an error that says to save the schema beside the others. Every problem is a located
/// diagnostic (`schemas/movie.json:12:5: error: …`); a broken schema leaves its types without a
/// profile and the rest still load.
public struct ProfileLoader: Sendable {
    /// One `TYPE=FILE`: the media type or profile URI, the schema's path as written, and where the
    /// pair was written (a configuration file's entry; `nil` on the command line).
    public struct Source: Sendable {
        public var key: String
        public var path: String
        public var location: SourceLocation?

        public init(key: String, path: String, location: SourceLocation? = nil) {
            self.key = key
            self.path = path
            self.location = location
        }
    }

    public var options: JSONSchemaOptions
    /// Largest schema file read, main or referenced.
    public var maximumSchemaBytes = 16 << 20
    /// Most schema files read for one set of profiles, referenced ones included.
    public var maximumSchemaFiles = 256

    public init(options: JSONSchemaOptions = JSONSchemaOptions()) {
        self.options = options
    }

    /// Loads `sources`, whose paths are relative to `folder` (or absolute), reading nothing outside `root`.
    public func load(_ sources: [Source], folder: String, root: String? = nil) -> (MediaTypeProfiles, [Diagnostic]) {
        var profiles = MediaTypeProfiles()
        var diagnostics: [Diagnostic] = []
        var compiled: [String: JSONSchema] = [:]
        let rootPath = FileSystemPath.real(root ?? folder) ?? (root ?? folder)
        let files = SchemaFiles(root: rootPath, maximumBytes: maximumSchemaBytes, maximumFiles: maximumSchemaFiles)
        for source in sources {
            let written = source.location ?? SourceLocation(path: source.path)
            let displayPath = source.path.hasPrefix("/") || folder == "." || folder.isEmpty ? source.path : folder + "/" + source.path
            guard let real = FileSystemPath.real(displayPath) else {
                diagnostics.append(.error("the schema file \(displayPath) does not exist", at: written))
                continue
            }
            guard FileSystemPath.contains(rootPath, real) else {
                diagnostics.append(.error("the schema file \(displayPath) is outside \(rootPath); keep schemas inside it", at: written))
                continue
            }
            let schema: JSONSchema
            if let known = compiled[real] {
                schema = known
            } else {
                switch files.compile(real, displayPath: displayPath, options: options) {
                case .success(let made):
                    schema = made
                    compiled[real] = made
                case .failure(let problem):
                    diagnostics.append(problem.diagnostic)
                    continue
                }
            }
            do {
                try profiles.add(MediaTypeProfile(key: source.key, schemaName: source.path, schema: schema))
            } catch {
                diagnostics.append(.error(error.description, at: written))
            }
        }
        return (profiles, diagnostics)
    }
}

extension ProfileLoader {
    /// One schema file, compiled with its relative `$ref`s read from `root` (default: the file's
    /// folder); a problem is a located diagnostic (`apicheck schema check`, `schema lint`).
    public func compileSchema(at path: String, root: String? = nil) -> Result<JSONSchema, SchemaFileProblem> {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let rootPath = root ?? (folder.isEmpty ? "/" : folder)
        guard let real = FileSystemPath.real(path) else { return .failure(SchemaFileProblem(.error("no such file", at: SourceLocation(path: path)))) }
        let files = SchemaFiles(root: FileSystemPath.real(rootPath) ?? rootPath, maximumBytes: maximumSchemaBytes, maximumFiles: maximumSchemaFiles)
        return files.compile(real, displayPath: path, options: options)
    }
}

extension ProfileLoader {
    /// A schema file's document, base URI and a registry that reads its relative `$ref`s as
    /// ``compileSchema(at:root:)`` does (for tools that need the document itself, such as the
    /// generator); a problem is a located diagnostic.
    public func schemaDocument(at path: String) -> Result<(document: JSONValue, baseURI: String, registry: JSONSchemaRegistry), SchemaFileProblem> {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard let real = FileSystemPath.real(path) else { return .failure(SchemaFileProblem(.error("no such file", at: SourceLocation(path: path)))) }
        let files = SchemaFiles(root: FileSystemPath.real(folder.isEmpty ? "/" : folder) ?? folder, maximumBytes: maximumSchemaBytes, maximumFiles: maximumSchemaFiles)
        switch BoundedFileReader.read(real, maximumBytes: maximumSchemaBytes) {
        case .failure(let failure):
            return .failure(SchemaFileProblem(.error("cannot read the schema: \(failure)", at: SourceLocation(path: path))))
        case .success(let bytes):
            do throws(JSONParseError) {
                let node = try JSONParser().parse(bytes)
                return .success((node.value, FileSystemPath.fileURI(real), files.registry(for: node, realPath: real)))
            } catch {
                return .failure(SchemaFileProblem(.error(
                    "the schema is not valid JSON: \(error.message)", at: SourceLocation(path: path, line: error.position.line, column: error.position.column))))
            }
        }
    }
}

/// Schema files under one root: read bounded, parsed with positions, compiled with their relative
/// `$ref`s read from the same tree.
struct SchemaFiles: Sendable {
    let root: String
    let maximumBytes: Int
    let maximumFiles: Int

    func compile(_ realPath: String, displayPath: String, options: JSONSchemaOptions) -> Result<JSONSchema, SchemaFileProblem> {
        let location = SourceLocation(path: displayPath)
        let bytes: [UInt8]
        switch BoundedFileReader.read(realPath, maximumBytes: maximumBytes) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(SchemaFileProblem(.error("cannot read the schema: \(failure)", at: location)))
        }
        let node: JSONNode
        do {
            node = try JSONParser().parse(bytes)
        } catch {
            return .failure(SchemaFileProblem(.error(
                "the schema is not valid JSON: \(error.message)", at: SourceLocation(path: displayPath, line: error.position.line, column: error.position.column))))
        }
        let registry = registry(for: node, realPath: realPath)
        do throws(JSONSchemaError) {
            return .success(try JSONSchema(node, file: displayPath, baseURI: FileSystemPath.fileURI(realPath), registry: registry, options: options))
        } catch {
            let at = SourceLocation(path: error.file ?? displayPath, line: error.line ?? 1, column: error.column ?? 1)
            return .failure(SchemaFileProblem(.error(error.message, at: at)))
        }
    }

    /// A registry whose `retrieve` reads the schema's relative `$ref`s from files inside the root.
    func registry(for node: JSONNode, realPath: String) -> JSONSchemaRegistry {
        var registry = JSONSchemaRegistry()
        let (root, maximumBytes, maximumFiles) = (root, maximumBytes, maximumFiles)
        let reads = FileReadCounter()
        // A schema with an http(s) `$id` names its siblings by that base: they are read from the
        // schema's own folder (`https://x.example/schemas/links.json` → `schemas/links.json`).
        var mirror: (base: String, folder: String)?
        if case .string(let id)? = node["$id"]?.value, id.hasPrefix("http://") || id.hasPrefix("https://"), let slash = id.lastIndex(of: "/") {
            mirror = (String(id[...slash]), FileSystemPath.parent(of: realPath) + "/")
        }
        let localMirror = mirror
        registry.retrieve = { uri in
            try Self.retrieve(uri, root: root, mirror: localMirror, maximumBytes: maximumBytes, maximumFiles: maximumFiles, reads: reads)
        }
        return registry
    }

    /// A referenced schema: a `file:` URI inside the root, bounded; anything else is refused with
    /// the reason (the engine reports it at the `$ref`).
    static func retrieve(
        _ uri: String, root: String, mirror: (base: String, folder: String)?, maximumBytes: Int, maximumFiles: Int, reads: FileReadCounter
    ) throws -> JSONValue? {
        let path: String
        if uri.hasPrefix("file://") {
            path = FileSystemPath.path(fromFileURI: uri)
        } else if let mirror, uri.hasPrefix(mirror.base) {
            let relative = uri.dropFirst(mirror.base.count).prefix { $0 != "#" }
            path = mirror.folder + (String(relative).removingPercentEncoding ?? String(relative))
        } else {
            let hint = mirror.map { " (only $refs under the schema's $id folder, \($0.base), are read from files beside it)" } ?? ""
            throw SchemaRetrievalError(
                message: "remote schemas are not fetched (\(uri)): save it beside the others and refer to it by a relative path\(hint)")
        }
        guard let real = FileSystemPath.real(path), FileSystemPath.contains(root, real) else {
            throw SchemaRetrievalError(message: "\(path) is missing or outside \(root)")
        }
        guard reads.next() <= maximumFiles else { throw SchemaRetrievalError(message: "more than \(maximumFiles) schema files") }
        switch BoundedFileReader.read(real, maximumBytes: maximumBytes) {
        case .success(let bytes):
            do {
                return try JSONParser().parseValue(bytes)
            } catch {
                throw SchemaRetrievalError(message: "\(path):\(error.position.line):\(error.position.column): not valid JSON: \(error.message)")
            }
        case .failure(let failure):
            throw SchemaRetrievalError(message: "cannot read \(path): \(failure)")
        }
    }
}

/// A schema file that cannot be used, as a located diagnostic.
public struct SchemaFileProblem: Error, Sendable, CustomStringConvertible {
    public var diagnostic: Diagnostic

    init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    public var description: String { diagnostic.description }
}

/// Why a referenced schema could not be read.
struct SchemaRetrievalError: Error, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Counts the files one compilation reads (the engine calls `retrieve` synchronously).
final class FileReadCounter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}

/// Paths and `file:` URIs, as the profile loader needs them.
enum FileSystemPath {
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func contains(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `file://` and the path, each byte outside the unreserved set and `/` percent-encoded.
    static func fileURI(_ path: String) -> String {
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return uri
    }

    /// The path of a `file:` URI (fragment dropped, percent-decoded).
    static func path(fromFileURI uri: String) -> String {
        var rest = Substring(uri.dropFirst("file://".count))
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }  // file://host/path
        return rest.removingPercentEncoding ?? String(rest)
    }
}
