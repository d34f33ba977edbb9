import APICheckModel
import Foundation

/// The folder a set of stub files lives in. Resolves the files stubs refer to and guarantees
/// that none of them leaves it: no `..` out, no absolute paths, no symlink pointing outside.
package struct StubRoot: Sendable {
    /// The root with symlinks resolved, without a trailing slash.
    let realPath: String
    /// Why no file may be referred to at all (``withoutFiles(_:)``).
    private let refusal: String?

    package init(path: String) {
        var real = FileSystem.realPath(path) ?? URL(fileURLWithPath: path).standardizedFileURL.path
        while real.count > 1, real.hasSuffix("/") { real.removeLast() }
        self.realPath = real
        self.refusal = nil
    }

    private init(refusal: String) {
        realPath = "/nonexistent"
        self.refusal = refusal
    }

    /// A root that holds no files: stubs sent to a server that has no stub folder refer to none.
    package static func withoutFiles(_ reason: String) -> StubRoot {
        StubRoot(refusal: reason)
    }

    func contains(realPath path: String) -> Bool {
        path == realPath || path.hasPrefix(realPath == "/" ? "/" : realPath + "/")
    }

    /// Resolves `declared` against `folder` (the stub file's folder), then against the root.
    func resolve(_ declared: String, from folder: String, maximumBytes: Int) -> Result<StubFile, ResolveError> {
        if let refusal { return .failure(ResolveError("\"\(declared)\": \(refusal)")) }
        guard !declared.isEmpty else { return .failure(ResolveError("the path is empty")) }
        guard !declared.hasPrefix("/"), !declared.hasPrefix("~"), !declared.contains("\0") else {
            return .failure(ResolveError("\"\(declared)\" is absolute; paths are relative to the stub file or the stub root"))
        }
        let candidates = [folder, realPath]
        var looked: [String] = []
        for base in candidates {
            let lexical = URL(fileURLWithPath: base).appendingPathComponent(declared).standardizedFileURL.path
            guard contains(realPath: lexical) else {
                return .failure(ResolveError("\"\(declared)\" escapes the stub root \(realPath)"))
            }
            if looked.contains(lexical) { continue }
            looked.append(lexical)
            guard FileManager.default.fileExists(atPath: lexical) else { continue }
            let real = URL(fileURLWithPath: lexical).resolvingSymlinksInPath().path
            guard contains(realPath: real) else {
                return .failure(ResolveError("\"\(declared)\" is a symlink to \(real), outside the stub root \(realPath)"))
            }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: real),
                attributes[.type] as? FileAttributeType == .typeRegular
            else {
                return .failure(ResolveError("\"\(declared)\" is not a regular file"))
            }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maximumBytes else {
                return .failure(ResolveError("\"\(declared)\" is \(size) bytes, over the limit of \(maximumBytes) bytes"))
            }
            return .success(StubFile(declaredPath: declared, url: URL(fileURLWithPath: real), byteCount: size))
        }
        return .failure(ResolveError("\"\(declared)\" not found (looked in \(looked.joined(separator: " and ")))"))
    }

    struct ResolveError: Error {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
