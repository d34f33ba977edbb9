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
        try write(to: path) { sink in try sink(text) }
    }

    /// Replaces (or creates) `path` with the pieces `produce` hands to its sink, written as they
    /// come: a large report is never held whole. The file appears only when all went well.
    static func write(to path: String, _ produce: ((String) throws -> Void) throws -> Void) throws(UsageError) {
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
        do {
            try produce { piece in
                if let problem = writeAll(piece, to: descriptor) { throw WriteFailure(reason: problem) }
            }
        } catch let error as WriteFailure {
            failure = error.reason
        } catch {
            failure = "\(error)"
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw UsageError(path: path, message: "cannot write the file: \(failure)")
        }
    }

    private struct WriteFailure: Error {
        var reason: String
    }

    /// Writes all of `text`'s UTF-8 to `descriptor` (retrying short writes and EINTR); the reason on failure.
    static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var written = 0
            while written < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return String(cString: strerror(errno)) }
                written += count
            }
            return nil
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
