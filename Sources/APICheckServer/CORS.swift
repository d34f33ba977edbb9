import APICheckResponder
import NIOCore
import NIOHTTP1

/// What `--cors` adds, as header bytes: the answer to a preflight and the headers of every other
/// response. Kept apart from the connection handler, which only places them; tested on its own.
///
/// The request's `Origin` is reflected (with credentials allowed), never when it holds bytes that
/// could end a header line, so a hostile origin cannot inject headers.
enum CORS {
    /// An `OPTIONS` request with `Origin` and `Access-Control-Request-Method`: answered by the
    /// server itself, never matched against stubs.
    static func isPreflight(_ head: HTTPRequestHead) -> Bool {
        head.method == .OPTIONS && head.headers.first(name: "origin") != nil && head.headers.first(name: "access-control-request-method") != nil
    }

    /// The headers of a response to `origin`; `exposed` lists the stub's own headers for scripts.
    static func writeResponseHeaders(_ buffer: inout ByteBuffer, origin: String, exposed: String) {
        guard WireRules.isSafeValue(origin) else { return }
        buffer.writeHeader("Access-Control-Allow-Origin", origin)
        buffer.writeStaticString("Access-Control-Allow-Credentials: true\r\nVary: Origin\r\n")
        if !exposed.isEmpty { buffer.writeHeader("Access-Control-Expose-Headers", exposed) }
    }

    /// The headers of the `204` that answers a preflight from `origin`, allowing every method a
    /// stub can have and the headers the browser asked for.
    static func writePreflightHeaders(_ buffer: inout ByteBuffer, origin: String, requestedHeaders: String?) {
        guard WireRules.isSafeValue(origin) else { return }
        buffer.writeHeader("Access-Control-Allow-Origin", origin)
        buffer.writeStaticString("Access-Control-Allow-Credentials: true\r\nVary: Origin, Access-Control-Request-Method, Access-Control-Request-Headers\r\n")
        buffer.writeStaticString("Access-Control-Allow-Methods: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n")
        if let requestedHeaders, WireRules.isSafeValue(requestedHeaders) {
            buffer.writeHeader("Access-Control-Allow-Headers", requestedHeaders)
        }
        buffer.writeStaticString("Access-Control-Max-Age: 600\r\n")
    }
}
