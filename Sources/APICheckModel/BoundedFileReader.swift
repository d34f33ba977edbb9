import Foundation

/// Reads files named by untrusted input: only regular files, never more than a bound. The type
/// and size are checked on the open descriptor (no race with a file swapped after a check), and
/// `O_NONBLOCK` keeps a FIFO from blocking the reader.
package enum BoundedFileReader {
    package enum Failure: Error, Sendable, CustomStringConvertible {
        case cannotOpen(String)
        case notRegular
        case tooLarge(Int)

        package var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot read the file: \(reason)"
            case .notRegular: "not a regular file"
            case .tooLarge(let size): "the file is \(size) bytes, over the limit"
            }
        }
    }

    /// The file's bytes; with `truncating`, at most `maximumBytes` of them instead of failing
    /// on a larger file.
    package static func read(_ path: String, maximumBytes: Int, truncating: Bool = false) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        var size = Int(info.st_size)
        if size > maximumBytes {
            guard truncating else { return .failure(.tooLarge(size)) }
            size = max(maximumBytes, 0)
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        while total < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + total, size - total)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }  // the file shrank: keep what is there
            total += count
        }
        if total < size { bytes.removeLast(size - total) }
        return .success(bytes)
    }

    /// The size of a regular file at `path`, checked like ``read(_:maximumBytes:truncating:)``
    /// checks it, without reading it.
    package static func size(_ path: String, maximumBytes: Int) -> Result<Int, Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        let size = Int(info.st_size)
        return size <= maximumBytes ? .success(size) : .failure(.tooLarge(size))
    }
}

extension StubFile {
    /// The file's bytes now, read safely and bounded; throws a message naming the file. With
    /// `truncating`, a larger file gives its first `maximumBytes` bytes instead of an error.
    public func contents(maximumBytes: Int, truncating: Bool = false) throws(StubFileReadError) -> Data {
        switch BoundedFileReader.read(url.path, maximumBytes: maximumBytes, truncating: truncating) {
        case .success(let bytes): return Data(bytes)
        case .failure(let failure): throw error(failure, maximumBytes: maximumBytes)
        }
    }

    /// This file as it is now (a regular file, its current size), or why it cannot be sent.
    public func current(maximumBytes: Int) throws(StubFileReadError) -> StubFile {
        switch BoundedFileReader.size(url.path, maximumBytes: maximumBytes) {
        case .success(let size): return StubFile(declaredPath: declaredPath, url: url, byteCount: size)
        case .failure(let failure): throw error(failure, maximumBytes: maximumBytes)
        }
    }

    private func error(_ failure: BoundedFileReader.Failure, maximumBytes: Int) -> StubFileReadError {
        switch failure {
        case .cannotOpen(let reason): StubFileReadError(file: self, message: "\(url.path) (\(declaredPath)) cannot be read: \(reason)", isMissing: true)
        case .notRegular: StubFileReadError(file: self, message: "\(url.path) (\(declaredPath)) is not a regular file", isMissing: false)
        case .tooLarge(let size): StubFileReadError(file: self, message: "\(url.path) (\(declaredPath)) is \(size) bytes, over the limit of \(maximumBytes)", isMissing: false)
        }
    }
}

/// Why a stub's body file could not be read when it was needed.
public struct StubFileReadError: Error, Sendable, CustomStringConvertible {
    public var file: StubFile
    public var message: String
    /// The file is gone (or unreadable), as opposed to being of the wrong kind or size.
    public var isMissing: Bool

    public var description: String { message }
}
