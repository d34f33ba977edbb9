import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckResponder
import APICheckSchema
import APICheckSpool
import Foundation
import Synchronization

/// Everything a crawl is allowed to do (FORMATS §6–§7). Every bound has a default, so a hostile
/// or broken API cannot make a crawl run forever, fetch without end or hold unbounded memory.
public struct CrawlOptions: Sendable {
    /// Where the crawl starts. Only its origin is crawled unless ``allowedHosts`` names others.
    public var root: URL {
        didSet { rootOrigin = OriginRewriter.origin(of: root) }
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
    /// With a value: fetch at most this many resources of each kind (rel path with indices
    /// stripped), the first ones in breadth-first order; the rest are reported as skipped.
    public var sampleSize: Int?
    /// Send ``headers`` to `--allow-host` origins too (by default only to the root's origin).
    public var sendsHeadersToAllowedHosts: Bool
    /// Set by the caller to stop the crawl early (Ctrl-C, SIGTERM): the report covers what was
    /// checked and says it is incomplete.
    public var interruption: CrawlInterruption?
    /// How much of the report the crawl keeps in memory before it writes to temporary files.
    public var spooling = Spooling()
    /// Whether the report lists every check (`--list-checks`), passed ones included; otherwise it
    /// counts them per place and lists only what a person has to look at.
    public var listsEveryCheck = false
    /// Links read from one response (`--max-links`); the rest are counted and reported
    /// (`crawl-limit`).
    public var maximumLinksPerResponse = 10_000
    /// The JSON Schemas bodies of each media type must validate against (`body-schema`):
    /// `--profile TYPE=FILE` and a stub set's `apicheck.json`.
    public var profiles = MediaTypeProfiles()
    /// Fetch and use the schemas an API names for its bodies (a Content-Type's `profile`, a
    /// `describedby` or `profile` link); `--no-discover-profiles` turns it off.
    public var discoversProfiles = true
    /// Schema documents the crawl fetches at most when discovering profiles.
    public var maximumDiscoveredSchemas = 64
    /// How profiles are compiled (format assertion, regex budget).
    public var schemaOptions = JSONSchemaOptions()
    /// A description of the API every answer is checked against (`--openapi`): its violations
    /// are the `openapi-*` findings.
    public var contract: (any ResponseContract)?
    /// Links a contract adds by filling an operation's path parameters from an answer
    /// (``LinkFormat/openAPIFill``) followed at most this many times per operation over the
    /// whole crawl, the first in discovery order (`--sample N`, else 3); the document's own Link
    /// Objects are not capped here (`--sample` still applies to them as to any link).
    public var parameterFillsPerOperation = 3
    /// The report lists every operation of the contract no answer reached (`--coverage`).
    public var listsEveryUnreachedOperation = false
    /// Sees every fetched resource with its links and body (`apicheck probe`); `nil` for a crawl.
    public var observer: (any CrawlObserver)?

    /// Bounds on what a crawl holds in memory; the rest waits in temporary files, in order. The
    /// report is the same whatever the bounds (a test proves it).
    public struct Spooling: Sendable, Hashable {
        /// Links waiting for their target's answer, and URLs queued for the next level, held in
        /// memory at most; the rest wait in temporary files, in discovery order.
        public var runLength: Int
        /// Checks a report keeps in memory; beyond this they are written to a temporary file.
        public var checksInMemory: Int
        /// Where temporary files go (default: `TMPDIR`); removed when the report is gone.
        public var directory: String?

        public init(runLength: Int = 32_768, checksInMemory: Int = 20_000, directory: String? = nil) {
            self.runLength = runLength
            self.checksInMemory = checksInMemory
            self.directory = directory
        }
    }

    public init(
        root: URL, headers: [HTTPHeader] = [], variables: [String: URITemplate.Value] = [:], maximumDepth: Int = 32,
        maximumRequests: Int = 100_000, concurrency: Int = 8, requestsPerSecond: Double? = nil, timeout: Duration = .seconds(30),
        deadline: Duration = .seconds(3600), maximumBodyBytes: Int = 10 << 20, maximumRedirects: Int = 10, maximumRetries: Int = 3,
        maximumRetryDelay: Duration = .seconds(30), allowedHosts: Set<String> = [], unsafe: Bool = false,
        allowedMethodTokens: Set<String> = ["REDIRECT"], rules: RuleConfiguration = RuleConfiguration(), shard: Shard? = nil,
        redaction: Redaction = Redaction(), sampleSize: Int? = nil, sendsHeadersToAllowedHosts: Bool = false,
        interruption: CrawlInterruption? = nil
    ) {
        self.sampleSize = sampleSize
        self.sendsHeadersToAllowedHosts = sendsHeadersToAllowedHosts
        self.interruption = interruption
        self.root = root
        self.rootOrigin = OriginRewriter.origin(of: root)
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
    /// The crawl's own headers (credentials) for a request to `url`: only the root's origin gets
    /// them, and `--allow-host` origins when asked; never another host a redirect leads to.
    func headers(for url: URL) -> [HTTPHeader] {
        guard !headers.isEmpty else { return [] }
        if OriginRewriter.origin(of: url) == rootOrigin { return headers }
        if sendsHeadersToAllowedHosts, let host = url.host?.lowercased(), allowedHosts.contains(host) { return headers }
        return []
    }

    /// Whether the crawl was given credentials for `url`.
    func hasCredentials(for url: URL) -> Bool { !headers(for: url).isEmpty }

    func isInScope(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        if allowedHosts.contains(host) { return true }
        return OriginRewriter.origin(scheme: scheme, host: host, port: url.port) == rootOrigin
    }
}

/// A flag the caller raises to stop a crawl: requests not yet started are skipped, the report is
/// written and marked incomplete. Safe from a signal handler's queue.
public final class CrawlInterruption: Sendable {
    private let signal = Atomic<Int32>(0)

    public init() {}

    /// Stops the crawl; `signal` names why (`SIGINT`, `SIGTERM`), for the report.
    public func interrupt(signal number: Int32) { _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed) }

    /// The signal that stopped the crawl, or `nil`.
    public var signalNumber: Int32? {
        let value = signal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    var reason: String? {
        signalNumber.map { number in
            switch number {
            case SIGINT: "the crawl was interrupted (SIGINT)"
            case SIGTERM: "the crawl was stopped (SIGTERM)"
            default: "the crawl was stopped (signal \(number))"
            }
        }
    }
}
