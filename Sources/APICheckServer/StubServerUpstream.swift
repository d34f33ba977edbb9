import APICheckModel
import Foundation

/// Where a stub server sends the requests no stub answers: the real API, in spy mode
/// (`apicheck serve DIR --proxy URL`) and when recording (`apicheck record URL`).
///
/// The responder still decides first: a request reaches the upstream only when it answers
/// ``APICheckResponder/StubReply/Kind/passthrough`` (no stub matched), and the journal says so.
/// The server writes what ``forward(_:target:)`` returns as it is, minus hop-by-hop headers; a
/// thrown error becomes a `502 Bad Gateway` problem document naming the request and the cause.
public protocol StubServerUpstream: Sendable {
    /// The upstream's origin (`https://api.example.com`), for logs and the admin API.
    var origin: String { get }
    /// Sends `request` (its `target` as received: path and query) upstream and returns the answer.
    func forward(_ request: StubRequest, target: String) async throws -> UpstreamResponse
    /// Whether the upstream's origin becomes the server's own in text bodies and link-bearing
    /// headers before the answer is sent (what a recorder writes down is not affected): a client
    /// that follows a hypermedia API's absolute links then stays on the proxy. Default `true`.
    var rewritesLinks: Bool { get }
}

extension StubServerUpstream {
    public var rewritesLinks: Bool { true }
}
