import APICheckModel

/// The head of a reply as every transport delivers it: the status and the final headers, decided
/// once by the rules of ``WireRules`` and kept by the ``ServedStubs`` for every stub response whose
/// head does not depend on the request (all but those whose links name `{{baseURL}}` and are
/// answered at another origin than the set's).
///
/// The interceptor makes an `HTTPURLResponse` of ``headers``, the crawler's in-memory fetcher
/// hands them on, and the stub server writes ``wire``, the same headers as bytes; around them each
/// transport adds only what it owns: `Content-Length` (``WireRules/contentLength(status:bodyCount:)``),
/// and on a socket `Date` and `Connection`.
public final class ReplyHead: Sendable {
    public let status: Int
    /// The headers in order: the stub's own, without the fields the transport owns
    /// (``WireRules/isTransportOwned(_:)``) and without any whose name is not a token or whose
    /// value holds control characters; `{{baseURL}}` in link-bearing values replaced by the
    /// origin; rewritten origins (a server's `--rewrite-origin`) in link-bearing values; then one
    /// `Set-Cookie` per cookie. A server that names itself adds `Server` when the stub sets none.
    public let headers: [HTTPHeader]
    /// The status line and each header as `name: value\r\n` (with the server's `Server` line),
    /// without the blank line: what a server writes before its own fields.
    package let wire: [UInt8]
    /// The stub sets its own `Date`: a server does not add one.
    package let hasDate: Bool
    /// The stub's header names (not `Set-Cookie`), for CORS' `Access-Control-Expose-Headers`.
    package let exposedHeaders: String
    /// The first `Content-Type`, which decides whether a body is text to rewrite.
    package let contentType: String?

    /// A head of exactly these headers (a problem document's), checked by the same rules.
    public convenience init(status: Int, headers: [HTTPHeader], serverName: String? = nil) {
        self.init(Self.build(status: status, headers: headers, rewriters: [], serverName: serverName).head)
    }

    private init(_ parts: Parts) {
        status = parts.status
        headers = parts.headers
        wire = parts.wire
        hasDate = parts.hasDate
        exposedHeaders = parts.exposedHeaders
        contentType = parts.contentType
    }

    private struct Parts {
        var status: Int
        var headers: [HTTPHeader] = []
        var wire: [UInt8] = []
        var hasDate = false
        var exposedHeaders = ""
        var contentType: String?
    }

    /// The head of `response` answered at `origin` (`nil`: not known yet, and the head names it:
    /// then `nil` is returned), and the names of headers left out as unsafe.
    static func make(
        for response: StubResponse, origin: String?, rewriters: [OriginRewriter], serverName: String?
    ) -> (head: ReplyHead, dropped: [String])? {
        let headers = response.headersForSending
        let substituted: [HTTPHeader]
        if let origin {
            substituted = StubResponse.substitutingBaseURL(in: headers, with: origin)
        } else {
            guard !namesOrigin(response) else { return nil }
            substituted = headers
        }
        let built = build(status: response.status, headers: substituted, rewriters: rewriters, serverName: serverName)
        return (ReplyHead(built.head), built.dropped)
    }

    /// Whether the response's head depends on the origin it is answered at.
    static func namesOrigin(_ response: StubResponse) -> Bool {
        let headers = response.headers
        return StubResponse.substitutingBaseURL(in: headers, with: "") != headers
    }

    /// The one place headers become final.
    private static func build(status: Int, headers: [HTTPHeader], rewriters: [OriginRewriter], serverName: String?) -> (head: Parts, dropped: [String]) {
        var parts = Parts(status: status)
        var dropped: [String] = []
        var hasServer = false
        var exposed: [String] = []
        var wire = Array(WireRules.statusLine(status).utf8)
        for header in headers {
            guard WireRules.isToken(header.name), WireRules.isSafeValue(header.value) else {
                dropped.append(header.name)
                continue
            }
            if WireRules.isTransportOwned(header.name) { continue }
            var value = header.value
            if !rewriters.isEmpty, OriginRewriter.linkHeaders.contains(where: { $0.caseInsensitiveEquals(header.name) }) {
                for rewriter in rewriters { value = rewriter.rewrite(value) }
            }
            if header.name.caseInsensitiveEquals("Date") { parts.hasDate = true }
            if header.name.caseInsensitiveEquals("Server") { hasServer = true }
            if header.name.caseInsensitiveEquals("Content-Type") { parts.contentType = parts.contentType ?? value }
            if !header.name.caseInsensitiveEquals("Set-Cookie"), !exposed.contains(where: { $0.caseInsensitiveEquals(header.name) }) {
                exposed.append(header.name)
            }
            parts.headers.append(HTTPHeader(name: header.name, value: value))
            appendLine(&wire, header.name, value)
        }
        if let serverName, !hasServer { appendLine(&wire, "Server", serverName) }
        parts.wire = wire
        parts.exposedHeaders = exposed.joined(separator: ", ")
        return (parts, dropped)
    }

    private static func appendLine(_ wire: inout [UInt8], _ name: String, _ value: String) {
        wire += name.utf8
        wire += ": ".utf8
        wire += value.utf8
        wire += "\r\n".utf8
    }

    /// Whether a body sent with this head is text whose origins a rewriter rewrites.
    package func rewritesBody(_ rewriters: [OriginRewriter], isUTF8: @autoclosure () -> Bool) -> Bool {
        !rewriters.isEmpty && OriginRewriter.isText(contentType: contentType, isUTF8: isUTF8())
    }
}
