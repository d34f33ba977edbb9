import Foundation

/// Writes output files (reports, baselines) so that readers never see half a file: the bytes go
/// to a temporary file in the same folder, which then replaces the target with `rename(2)`.
///
/// Foundation's `.atomic` option is not used because swift-corelibs-foundation creates its
/// temporary file with `mkstemp` (mode 0600), so the report would lose the usual permissions;
/// here the file is created with 0666 less the umask, like `>` in a shell. A symbolic link at
/// the target is replaced by the file, not followed (as with any rename-based write).
enum AtomicFile {
    /// Replaces (or creates) `path` with `text`; the message of the error names the file and the
    /// reason, e.g. the folder does not exist.
    static func write(_ text: String, to path: String) throws(UsageError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        if let problem = problem(writingTo: path) {
            throw UsageError(path: path, message: problem)
        }
        let temporary = folder + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw UsageError(path: path, message: "cannot write the file: \(String(cString: strerror(errno)))")
        }
        var failure: String?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = String(cString: strerror(errno))
                break
            }
            written += count
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw UsageError(path: path, message: "cannot write the file: \(failure)")
        }
    }

    /// Why `path` cannot be written, checked before any work is done (`--output` in a folder
    /// that does not exist, or naming a folder); `nil` when it looks writable.
    static func problem(writingTo path: String) -> String? {
        if path.isEmpty { return "the file name is empty" }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            return "the folder '\(folder)' does not exist; create it first (mkdir -p '\(folder)')"
        }
        guard isDirectory.boolValue else { return "'\(folder)' is not a folder" }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "'\(path)' is a folder; name a file"
        }
        return nil
    }
}
