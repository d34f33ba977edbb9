import APICheckHypermedia
import APICheckModel
import Foundation

/// One HTTP exchange the crawler asks for. Redirects are never followed by a fetcher: the crawl
/// engine follows them itself (bounded, loop-checked) so live and in-memory crawls agree.
public struct FetchRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    public var headers: [HTTPHeader]
    public var body: Data

    public init(method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back, with the body cut at the fetch's size limit.
public struct FetchedResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Data
    /// The body was longer than the limit and was not read to its end.
    public var isTruncated: Bool

    public init(status: Int, headers: [HTTPHeader], body: Data, isTruncated: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.isTruncated = isTruncated
    }
}

/// Why a fetch produced no response.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case timedOut = "timeout"
        case connectionFailed = "connection failed"
        case invalidURL = "invalid URL"
        case unsupportedScheme = "unsupported scheme"
        case protocolError = "protocol error"
    }

    public var kind: Kind
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? kind.rawValue : "\(kind.rawValue): \(detail)" }
}

/// Where a crawl's responses come from: a live API over HTTP, or a stub set in memory.
///
/// Both go through the same engine, rules and reports; only the transport differs.
public protocol CrawlFetcher: Sendable {
    /// A live API (unsafe methods are never sent without `--unsafe`; `OPTIONS` probes them).
    /// A stub set answers unsafe methods by matching stubs instead (or by its `OPTIONS` stubs).
    var isLive: Bool { get }

    /// Sends `request` and reads at most `maximumBodyBytes` of the body within `timeout`.
    func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse

    /// For in-memory stub sets: does a stub answer this request (without consuming a sequence)?
    /// With `ignoringBody`, a stub that differs only in what it expects of the body answers (the
    /// link's body has placeholders no `--var` filled). `nil` for live APIs, which cannot be asked
    /// without sending, and where the crawl should ask `OPTIONS` as it asks a live API (a stub set
    /// that answers `OPTIONS` for the URL but not the method: a recording of a live crawl).
    func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck?
}

/// Whether a stub set answers a request, and if not, the near-miss explanation.
public enum StubAnswerCheck: Sendable, Hashable {
    case answered(stubName: String)
    case unanswered(explanation: String)
}
