import Foundation

/// Reading template files on POSIX directly: the type and size are checked on the open descriptor,
/// and `O_NONBLOCK` keeps a FIFO from hanging the renderer.
enum TemplateFile {
    /// What identifies one version of a file for the compile cache.
    struct Stamp: Hashable, Sendable {
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var inode: UInt64

        init(_ info: stat) {
            size = Int(info.st_size)
            #if canImport(Darwin)
            modifiedSeconds = Int(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
            #else
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            #endif
            inode = UInt64(info.st_ino)
        }
    }

    /// The stamp of `path` as it is now.
    static func stamp(_ path: String) throws(TemplateError) -> Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { throw cannotOpen(path) }
        return Stamp(info)
    }

    /// The file's text (a UTF-8 byte order mark removed) and the stamp of what was read.
    static func readText(_ path: String, maximumBytes: Int) throws(TemplateError) -> (Stamp, String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw cannotOpen(path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw cannotOpen(path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw TemplateError(path: path, "the template is not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumBytes else {
            throw TemplateError(path: path, "the template is \(size) bytes; templates may have at most \(maximumBytes >> 20) MiB")
        }
        // Read one byte more than announced, to notice a file that grew since fstat.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress! + total, buffer.count - total) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        guard total <= size else {
            throw TemplateError(path: path, "the template changed while it was read; try again")
        }
        bytes.removeLast(bytes.count - total)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let text = String(validating: bytes[start...], as: UTF8.self) else {
            let (line, column) = firstInvalidUTF8(bytes, from: start)
            throw TemplateError(path: path, line: line, column: column, "the template is not valid UTF-8")
        }
        return (Stamp(info), text)
    }

    private static func cannotOpen(_ path: String) -> TemplateError {
        let reason = errno == ENOENT ? "the template file does not exist" : "cannot open the template: \(String(cString: strerror(errno)))"
        return TemplateError(path: path, reason)
    }

    /// Line and column (in characters) of the first byte that is not UTF-8.
    private static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> (Int, Int) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error:
                return (line, column)
            }
        }
    }
}
