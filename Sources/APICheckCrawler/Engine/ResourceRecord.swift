import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool
import Foundation

/// What the crawl learned about one URL it fetched: enough for every rule, without the body.
struct ResourceRecord: Sendable {
    enum Outcome: Sendable {
        /// A response came back (after following redirects).
        case response(status: Int, finalURL: URL)
        /// No response: a network failure, a redirect loop.
        case failed(String)
        /// No complete answer within `--timeout` (or before the deadline): not checked.
        case timedOut(String)
        /// Not requested: a limit or the deadline.
        case skipped(String)
    }

    var entry: CrawlFrontier.Entry
    var outcome: Outcome
    /// The served `Content-Type`, as sent.
    var contentType: String?
    /// The `WWW-Authenticate` challenge of a 401 or 403, as sent.
    var challenge: String?
    var bodyByteCount: Int = 0
    var bodyWasTruncated = false
    /// Whether the body agrees with the served type (checked while the body was at hand).
    var bodyVerdict: BodySniffer.Verdict?
    var duration: Duration = .zero
    /// Links and shape notes of a 2xx response.
    var extraction = LinkExtraction()
    /// The 2xx body, kept only for ``CrawlOptions/observer``.
    var observedBody: [UInt8]?
    /// The operation of the crawl's contract the answer reached (`--openapi` coverage).
    var operation: String?
    /// The findings about the resource itself (without their rel path, which the crawl fills in).
    var findings: [Finding] = []

    /// The URL the resource answered from (after redirects), as a string.
    var finalURLString: String { finalURL?.absoluteString ?? entry.url }

    var status: Int? {
        if case .response(let status, _) = outcome { return status }
        return nil
    }

    var finalURL: URL? {
        if case .response(_, let url) = outcome { return url }
        return nil
    }

    var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// A 401 or 403 with a `WWW-Authenticate` challenge: the resource needs credentials.
    var needsCredentials: Bool { (status == 401 || status == 403) && challenge != nil }
}
