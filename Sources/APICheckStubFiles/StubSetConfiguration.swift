import APICheckJSON
import APICheckModel
import Foundation

/// A stub set's own configuration: `apicheck.json` at the root of its folder, read by `serve`,
/// `lint` and `crawl --stubs`.
///
/// ```json
/// {
///   "profiles": {
///     "application/vnd.acmeflix.api.movie+json": "schemas/movie.json"
///   }
/// }
/// ```
///
/// `profiles` maps media types (or RFC 6906 profile URIs) to JSON Schema files, relative to the
/// folder. The loader skips this file and the folder's `schemas/` folder: they are not stub files.
public struct StubSetConfiguration: Sendable, Hashable {
    /// The file name the loader looks for at the root of a stub folder.
    public static let fileName = "apicheck.json"
    /// The folder, at the root of a stub folder, that holds schemas rather than stub files.
    public static let schemaFolder = "schemas"

    /// One `"type": "file"` of `profiles`.
    public struct ProfileEntry: Sendable, Hashable {
        /// The media type or profile URI, as written.
        public var key: String
        /// The schema file as written, relative to the configuration's folder.
        public var path: String
        /// Where the entry is written, for errors about it.
        public var location: SourceLocation

        public init(key: String, path: String, location: SourceLocation) {
            self.key = key
            self.path = path
            self.location = location
        }
    }

    /// The folder the configuration belongs to (paths resolve against it).
    public var folder: String
    public var profiles: [ProfileEntry]

    public init(folder: String, profiles: [ProfileEntry] = []) {
        self.folder = folder
        self.profiles = profiles
    }

    /// Whether a path relative to a loaded folder is a configuration, or under the `schemas/` of a
    /// folder that has one (`configuredFolders`: those folders, relative, `""` for the root).
    public static func isReserved(_ relativePath: String, configuredFolders: Set<String>) -> Bool {
        let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        if name == fileName { return true }
        for folder in configuredFolders {
            let prefix = folder.isEmpty ? schemaFolder + "/" : folder + "/" + schemaFolder + "/"
            if relativePath.hasPrefix(prefix) { return true }
        }
        return false
    }

    /// The folders under `root` (itself included) that hold an `apicheck.json`, nearest first,
    /// for tools that load a tree of stub sets (`lint stubs`, `serve stubs`).
    public static func folders(under root: String, maximumEntries: Int = 400_000) -> [String] {
        guard let (entries, _) = FileSystem.walk(root, maximumEntries: maximumEntries) else { return [] }
        let base = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        return entries.compactMap { entry -> String? in
            guard entry.kind == .file else { return nil }
            if entry.relativePath == fileName { return base }
            guard entry.relativePath.hasSuffix("/" + fileName) else { return nil }
            return base + "/" + entry.relativePath.dropLast(fileName.count + 1)
        }.sorted { $0.count < $1.count }
    }

    /// The configuration of `folder`: `nil` without an `apicheck.json`; otherwise what it says,
    /// and its problems as located diagnostics (a bad entry is left out, the rest still counts).
    public static func load(folder: String, maximumBytes: Int = 1 << 20) -> (StubSetConfiguration, [Diagnostic])? {
        let path = folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let location = SourceLocation(path: path)
        let bytes: [UInt8]
        switch BoundedFileReader.read(path, maximumBytes: maximumBytes) {
        case .success(let read): bytes = read
        case .failure(let problem): return (StubSetConfiguration(folder: folder), [.error("cannot read the configuration: \(problem)", at: location)])
        }
        return parse(bytes, path: path, folder: folder)
    }

    /// Parses a configuration file's bytes; `path` names it in diagnostics.
    public static func parse(_ bytes: [UInt8], path: String, folder: String) -> (StubSetConfiguration, [Diagnostic]) {
        var configuration = StubSetConfiguration(folder: folder)
        var diagnostics: [Diagnostic] = []
        func at(_ position: JSONPosition) -> SourceLocation { SourceLocation(path: path, line: position.line, column: position.column) }
        let root: JSONNode
        do {
            root = try JSONParser(maximumDepth: 16).parse(bytes)
        } catch {
            return (configuration, [.error("not valid JSON: \(error.message)", at: at(error.position))])
        }
        guard let members = root.members else {
            return (configuration, [.error("the configuration must be a JSON object, found \(root.typeName)", at: at(root.position))])
        }
        for member in members {
            switch member.key {
            case "$schema", "$comment":
                continue
            case "profiles":
                guard let entries = member.value.members else {
                    diagnostics.append(.error("\"profiles\" must be an object of media type → schema file, found \(member.value.typeName)", at: at(member.value.position)))
                    continue
                }
                for entry in entries {
                    guard case .string(let file) = entry.value.kind, !file.isEmpty else {
                        diagnostics.append(.error("the profile of \"\(entry.key)\" must be a schema file path (a string), found \(entry.value.typeName)", at: at(entry.value.position)))
                        continue
                    }
                    configuration.profiles.append(ProfileEntry(key: entry.key, path: file, location: at(entry.value.position)))
                }
            default:
                diagnostics.append(Diagnostic(.warning, "unknown key \"\(member.key)\" (known: profiles)", at: at(member.keyPosition), code: .unknownName))
            }
        }
        return (configuration, diagnostics)
    }
}
