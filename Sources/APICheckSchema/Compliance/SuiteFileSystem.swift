#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the test-suite runner needs, straight to POSIX so the engine target
/// keeps building without Foundation on every platform.
enum SuiteFileSystem {
    /// The whole file.
    static func contents(of path: String) throws(JSONSchemaTestSuiteError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path, reason: lastErrorText()) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path, reason: lastErrorText())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The names in a directory (without `.` and `..`), sorted so reports come out in a stable
    /// order; nil when `path` is not a directory that can be opened.
    static func entries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func isDirectory(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        closedir(directory)
        return true
    }

    /// Every `.json` file below `path`, as paths relative to it (`draft7/subSchemas.json`), sorted.
    static func jsonFiles(under path: String, prefix: String = "") -> [String] {
        var found: [String] = []
        for name in entries(path) ?? [] {
            let full = path + "/" + name
            if isDirectory(full) {
                found += jsonFiles(under: full, prefix: prefix + name + "/")
            } else if name.hasSuffix(".json") {
                found.append(prefix + name)
            }
        }
        return found
    }

    private static func lastErrorText() -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }
}
