/// The HTTP rules every transport follows when it delivers a reply, in one place: which statuses
/// carry a body and a `Content-Length`, which header names and values can be sent, which fields
/// belong to the transport rather than the stub, and the status line.
public enum WireRules {
    /// Whether a response with this status carries a body (RFC 9110 §6.4.1: not 1xx, 204, 304).
    public static func allowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }

    /// The `Content-Length` announced for a body of `bodyCount` bytes: none for 1xx and 204, 0 for
    /// 304 (it has no body), the body's length otherwise (also for `HEAD`, which gets no body).
    public static func contentLength(status: Int, bodyCount: Int) -> Int? {
        guard status >= 200, status != 204 else { return nil }
        return allowsBody(status) ? bodyCount : 0
    }

    /// Fields the transport writes itself: a stub's values would contradict the bytes actually sent.
    public static func isTransportOwned(_ name: String) -> Bool {
        name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding")
            || name.caseInsensitiveEquals("Connection") || name.caseInsensitiveEquals("Keep-Alive")
    }

    /// An RFC 9110 token (header names, methods).
    public static func isToken(_ text: String) -> Bool {
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
    public static func isSafeValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// `HTTP/1.1 404 Not Found\r\n`.
    public static func statusLine(_ status: Int) -> String {
        "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
    }

    /// The reason phrase SwiftNIO writes for `status` (empty for codes it does not name); a server
    /// test compares every code from 100 to 599 with NIO's `HTTPResponseStatus`.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 102: "Processing"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 207: "Multi-Status"
        case 208: "Already Reported"
        case 226: "IM Used"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 305: "Use Proxy"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Payload Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 418: "I'm a teapot"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Entity"
        case 423: "Locked"
        case 424: "Failed Dependency"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 506: "Variant Also Negotiates"
        case 507: "Insufficient Storage"
        case 508: "Loop Detected"
        case 510: "Not Extended"
        case 511: "Network Authentication Required"
        default: ""
        }
    }
}
