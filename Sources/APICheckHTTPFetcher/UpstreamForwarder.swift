import APICheckCrawler
import APICheckModel
import Foundation

/// Sends what a proxy received to the real API and returns its answer whole: the recording
/// proxy's and spy mode's upstream client.
///
/// Nothing is followed on the way: redirects come back to the client as they are (a redirect to
/// another host is the client's business, never fetched here). The client's `Accept-Encoding` is
/// not forwarded; the fetcher asks for gzip and deflate itself and decodes them (dropping the
/// `Content-Encoding` it decoded), so the client and the recording get readable bytes.
/// Hop-by-hop headers are dropped both ways, and `Host` names the upstream. The body is bounded
/// (an answer over the limit is an error, not a truncated body passed on as complete), and so is
/// the whole exchange in time (``timeout``), whatever the upstream does.
public struct UpstreamForwarder: Sendable {
    /// `scheme://host[:port]` of the upstream.
    public let origin: String
    private let fetcher: HTTPFetcher
    public var maximumBodyBytes: Int
    public var timeout: Duration

    public init(origin: String, fetcher: HTTPFetcher, maximumBodyBytes: Int = 64 << 20, timeout: Duration = .seconds(30)) {
        self.origin = origin
        self.fetcher = fetcher
        self.maximumBodyBytes = maximumBodyBytes
        self.timeout = timeout
    }

    /// Why the upstream gave no usable answer; the proxy answers 502 with it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Forwards `request` (`target` = its path and query as received).
    public func forward(_ request: StubRequest, target: String) async throws(Failure) -> UpstreamResponse {
        guard target.hasPrefix("/"), let url = URL(string: origin + target) else {
            throw Failure(description: "'\(target)' is not a path this proxy forwards (absolute-form and authority-form targets are refused)")
        }
        let headers = request.headers.filter { header in
            !UpstreamResponse.isHopByHop(header.name) && !header.name.caseInsensitiveEquals("Host")
                && !header.name.caseInsensitiveEquals("Accept-Encoding")
        }
        let fetched: FetchedResponse
        do {
            fetched = try await fetcher.fetch(
                FetchRequest(method: request.method, url: url, headers: headers, body: request.body), maximumBodyBytes: maximumBodyBytes,
                timeout: timeout)
        } catch {
            throw Failure(description: error.description)
        }
        guard !fetched.isTruncated else {
            throw Failure(description: "the answer's body is over the limit of \(maximumBodyBytes) bytes (raise it with --max-upstream-body)")
        }
        return UpstreamResponse(status: fetched.status, headers: fetched.headers.filter { !UpstreamResponse.isHopByHop($0.name) }, body: fetched.body)
    }
}
