import APICheckModel
import Foundation
import NIOCore
import NIOHTTP1

/// The bytes of HTTP/1.1 responses, written by hand: the server writes precomputed heads as they
/// are instead of rebuilding `HTTPHeaders` and re-encoding them for every request.
enum HTTPWire {
    /// `HTTP/1.1 404 Not Found\r\n`.
    static func statusLine(_ status: Int) -> String {
        "HTTP/1.1 \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n"
    }

    static let continueResponse: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"

    /// An RFC 9110 token (header names, methods).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A header value that cannot break the message: no CR, LF, NUL or other control characters
    /// except horizontal tab (a stub's `&#10;` must not become response splitting).
    static func isSafeValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Whether a response with this status carries a body (RFC 9110 §6.4.1).
    static func allowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }

    /// Whether a response with this status carries `Content-Length` (never 1xx and 204).
    static func allowsContentLength(_ status: Int) -> Bool {
        status >= 200 && status != 204
    }

    /// Headers the server owns: a stub's values would contradict the bytes actually sent.
    static func isServerOwned(_ name: String) -> Bool {
        name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding")
            || name.caseInsensitiveEquals("Connection") || name.caseInsensitiveEquals("Keep-Alive")
    }
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
