import Foundation

/// A response from a real API, as a proxy forwards it and a recorder writes it down: status,
/// headers as received (hop-by-hop ones already removed) and the whole body.
public struct UpstreamResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Data

    public init(status: Int, headers: [HTTPHeader], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus the ones a
    /// proxy recomputes (`Content-Length`): never forwarded, never recorded.
    public static let hopByHopHeaderNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "proxy-authenticate", "proxy-authorization", "content-length",
    ]

    /// Whether `name` is hop-by-hop (compared case-insensitively).
    public static func isHopByHop(_ name: String) -> Bool {
        hopByHopHeaderNames.contains(name.lowercased())
    }
}
