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

/// Per event loop: the `Date` header line of the current second, and the complete responses
/// sent this second, so a stub answered again within the same second (polling clients, many
/// clients of one resource) is written from the same bytes instead of being assembled again.
///
/// Only plain cases are kept: static bodies up to ``maximumBodyBytes``, no latency, HTTP/1.1
/// keep-alive, no CORS. Everything is dropped when the second changes, and at most
/// ``maximumEntries`` responses are kept. Entries hold their ``PreparedResponse``, so an identity
/// can never be reused by another set's response while cached.
final class LoopResponseCache {
    static let maximumEntries = 512
    static let maximumBodyBytes = 16 << 10

    private struct Entry {
        let prepared: PreparedResponse
        let bytes: ByteBuffer
    }

    private var second = -1
    private var line = ByteBuffer()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The last response found or stored: a client polling one resource skips the table.
    private var last: Entry?

    /// Starts a new second when the clock moved; returns the current one.
    @inline(__always)
    private func tick() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        var buffer = ByteBuffer()
        buffer.reserveCapacity(40)
        buffer.writeHeader("Date", HTTPDate.rfc1123(Date(timeIntervalSince1970: TimeInterval(now))))
        line = buffer
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
        last = nil
    }

    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n` for now.
    var dateLine: ByteBuffer {
        tick()
        return line
    }

    /// The complete response for `prepared` sent earlier this second, if any.
    func response(for prepared: PreparedResponse) -> ByteBuffer? {
        tick()
        if let last, last.prepared === prepared { return last.bytes }
        guard let entry = entries[ObjectIdentifier(prepared)], entry.prepared === prepared else { return nil }
        last = entry
        return entry.bytes
    }

    func store(_ bytes: ByteBuffer, for prepared: PreparedResponse) {
        guard entries.count < Self.maximumEntries else { return }
        let entry = Entry(prepared: prepared, bytes: bytes)
        entries[ObjectIdentifier(prepared)] = entry
        last = entry
    }
}
