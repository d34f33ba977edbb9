import APICheckResponder
import NIOCore

/// The bytes of HTTP/1.1 responses the server writes itself, by hand: heads come precomputed from
/// the responder (``APICheckResponder/ReplyHead/wire``) and are written as they are instead of
/// rebuilding `HTTPHeaders` and re-encoding them for every request. The rules (bodies, lengths,
/// safe headers) are ``APICheckResponder/WireRules``.
enum HTTPWire {
    static let continueResponse: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"
}

extension ByteBuffer {
    /// Appends `name: value\r\n`.
    mutating func writeHeader(_ name: String, _ value: String) {
        writeString(name)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}
