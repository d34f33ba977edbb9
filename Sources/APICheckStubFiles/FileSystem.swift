import APICheckModel
import Foundation

/// The few file-system operations the loader needs, on POSIX directly: Foundation's `URL`
/// and `FileManager` path handling cost more than parsing a stub file.
package enum FileSystem {
    package enum EntryKind: Sendable {
        case file, directory, symlink, other
    }

    package struct Entry: Sendable {
        /// Relative to the walked folder, `/`-separated.
        package let relativePath: String
        package let kind: EntryKind
    }

    /// Every entry below `folder` (not following symlinks, skipping names that start with "."),
    /// depth-first, and whether the walk stopped at `maximumEntries`; `nil` if `folder` cannot
    /// be opened.
    package static func walk(_ folder: String, maximumEntries: Int) -> (entries: [Entry], truncated: Bool)? {
        var entries: [Entry] = []
        var pending: [String] = [""]
        var opened = false
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            guard let directory = opendir(absolute) else {
                if !opened { return nil }
                continue
            }
            opened = true
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                guard !name.hasPrefix(".") else { continue }  // also skips "." and ".."
                let path = relative.isEmpty ? name : relative + "/" + name
                var kind: EntryKind
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): kind = .file
                case Int32(DT_DIR): kind = .directory
                case Int32(DT_LNK): kind = .symlink
                case Int32(DT_UNKNOWN): kind = kindByLstat(folder + "/" + path)
                default: kind = .other
                }
                if kind == .directory { pending.append(path) }
                entries.append(Entry(relativePath: path, kind: kind))
                if entries.count >= maximumEntries { return (entries, true) }
            }
        }
        return (entries, false)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func kindByLstat(_ path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    /// The path with every symlink resolved, or `nil` if it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func deletingExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Reads a regular file of at most `maximumBytes` (see ``BoundedFileReader``).
    static func readFile(_ path: String, maximumBytes: Int) -> Result<[UInt8], BoundedFileReader.Failure> {
        BoundedFileReader.read(path, maximumBytes: maximumBytes)
    }
}
