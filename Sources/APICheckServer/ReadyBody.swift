import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// A body ready to send: bytes, an open file streamed with `sendfile`, or only the size of a
/// file (for `HEAD`).
enum ReadyBody: Sendable {
    case bytes(ByteBuffer)
    case file(descriptor: CInt, size: Int)
    case sizeOnly(Int)

    var count: Int {
        switch self {
        case .bytes(let buffer): buffer.readableBytes
        case .file(_, let size), .sizeOnly(let size): size
        }
    }

    /// Releases an open file that will not be sent.
    func discard() {
        if case .file(let descriptor, _) = self { Foundation.close(descriptor) }
    }

    /// Opens a stub's body file on the thread pool: only regular files (`O_NONBLOCK`, so a FIFO
    /// cannot block the pool), its size taken from the open descriptor. (A body whose origins are
    /// rewritten comes from the responder as bytes.)
    static func open(_ file: StubFile, headOnly: Bool) -> Result<ReadyBody, BodyFileError> {
        let descriptor = Foundation.open(file.url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(BodyFileError(message: "\(file.url.path) (\(file.declaredPath)) cannot be read: \(String(cString: strerror(errno)))", isMissing: true))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Foundation.close(descriptor)
            return .failure(BodyFileError(message: "\(file.url.path) (\(file.declaredPath)) is not a regular file", isMissing: false))
        }
        if headOnly {
            Foundation.close(descriptor)
            return .success(.sizeOnly(Int(info.st_size)))
        }
        return .success(.file(descriptor: descriptor, size: Int(info.st_size)))
    }
}

/// Why a body file could not be sent.
struct BodyFileError: Error, Sendable {
    var message: String
    var isMissing: Bool
}
