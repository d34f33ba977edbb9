import Foundation

/// One request and the real API's answer to it, as a recorder receives it: from the recording
/// proxy, from a crawl, or from an intercepted session passing through to the network.
public struct RecordedExchange: Sendable {
    /// The request as the client sent it (path, query, headers, body).
    public var request: StubRequest
    public var response: UpstreamResponse
    /// The upstream's origin (`https://api.example.com`): written as `{{baseURL}}` in the stub.
    public var upstream: String
    public var date: Date

    public init(request: StubRequest, response: UpstreamResponse, upstream: String, date: Date = Date()) {
        self.request = request
        self.response = response
        self.upstream = upstream
        self.date = date
    }
}
