import APICheckModel
import APICheckReport
import APICheckResponder
import Foundation

/// Everything a crawl is allowed to do (FORMATS §6–§7). Every bound has a default, so a hostile
/// or broken API cannot make a crawl run forever, fetch without end or hold unbounded memory.
public struct CrawlOptions: Sendable {
    /// Where the crawl starts. Only its origin is crawled unless ``allowedHosts`` names others.
    public var root: URL {
        didSet { rootOrigin = StubResponder.origin(of: root) }
    }
    /// `root`'s origin, computed once: every discovered link is compared with it.
    private var rootOrigin: String
    /// Sent with every request (`--header`); their values are redacted from every report.
    public var headers: [HTTPHeader]
    /// Values for templated hrefs (`--var name=value`); they win over a link's own `parameters`.
    public var variables: [String: URITemplate.Value]
    /// Links further than this many hops from the root are not followed.
    public var maximumDepth: Int
    /// HTTP requests in all (redirect hops, retries and `OPTIONS` probes included).
    public var maximumRequests: Int
    /// Requests in flight at once.
    public var concurrency: Int
    /// At most this many requests start per second (`--rate`), if set.
    public var requestsPerSecond: Double?
    /// Per request, from sending to the end of the body (`--timeout`).
    public var timeout: Duration
    /// The whole crawl; what is unchecked when it passes is reported as skipped.
    public var deadline: Duration
    /// Bodies are read up to this size; a longer body is reported, not read.
    public var maximumBodyBytes: Int
    public var maximumRedirects: Int
    /// Retries of a 429 or 503 (honouring `Retry-After`, capped at ``maximumRetryDelay``).
    public var maximumRetries: Int
    public var maximumRetryDelay: Duration
    /// Other hosts whose links are followed (`--allow-host`), lower-cased.
    public var allowedHosts: Set<String>
    /// Send unsafe methods (`POST`, `PUT`, `PATCH`, `DELETE`) instead of probing them (`--unsafe`).
    public var unsafe: Bool
    /// Vendor method tokens accepted by `method-valid` besides RFC 9110's (PayPal's `REDIRECT`).
    public var allowedMethodTokens: Set<String>
    public var rules: RuleConfiguration
    /// Only links whose target falls in this shard are checked and reported (`--shard i/n`).
    public var shard: Shard?
    public var redaction: Redaction

    public init(
        root: URL, headers: [HTTPHeader] = [], variables: [String: URITemplate.Value] = [:], maximumDepth: Int = 32,
        maximumRequests: Int = 100_000, concurrency: Int = 8, requestsPerSecond: Double? = nil, timeout: Duration = .seconds(30),
        deadline: Duration = .seconds(3600), maximumBodyBytes: Int = 10 << 20, maximumRedirects: Int = 10, maximumRetries: Int = 3,
        maximumRetryDelay: Duration = .seconds(30), allowedHosts: Set<String> = [], unsafe: Bool = false,
        allowedMethodTokens: Set<String> = ["REDIRECT"], rules: RuleConfiguration = RuleConfiguration(), shard: Shard? = nil,
        redaction: Redaction = Redaction()
    ) {
        self.root = root
        self.rootOrigin = StubResponder.origin(of: root)
        self.headers = headers
        self.variables = variables
        self.maximumDepth = maximumDepth
        self.maximumRequests = maximumRequests
        self.concurrency = concurrency
        self.requestsPerSecond = requestsPerSecond
        self.timeout = timeout
        self.deadline = deadline
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumRedirects = maximumRedirects
        self.maximumRetries = maximumRetries
        self.maximumRetryDelay = maximumRetryDelay
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.unsafe = unsafe
        self.allowedMethodTokens = allowedMethodTokens
        self.rules = rules
        self.shard = shard
        self.redaction = redaction
    }

    /// Whether links to `url` are followed: the root's origin, or an allowed host.
    func isInScope(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        if allowedHosts.contains(host) { return true }
        return StubResponder.origin(of: url) == rootOrigin
    }
}
