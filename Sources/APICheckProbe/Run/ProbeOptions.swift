import APICheckCrawler
import APICheckFindings
import APICheckModel
import Foundation

/// How `apicheck probe` probes, after its crawl.
public struct ProbeOptions: Sendable {
    /// The crawl's root: probes go to its host (and port) only.
    public var root: URL
    /// Sent with every probe (the crawl's `--header` credentials).
    public var headers: [HTTPHeader]
    /// Write probes send unsafe requests: only with `--unsafe`. Templated reads need only `probe`.
    public var unsafe: Bool
    /// Generated values are the same for the same seed.
    public var seed: UInt64
    /// Requests per affordance (`--probe-budget`), shrinking aside.
    public var budgetPerAffordance: Int
    /// Probe requests in all (`--max-requests` less what the crawl used), shrinking and clean-up
    /// included.
    public var maximumRequests: Int
    /// Requests spent shrinking one failing request.
    public var shrinkAttempts: Int
    /// Probe only affordances whose place (`root → authors → default`) or rel contains one of
    /// these (`--only`); none: all.
    public var only: [String]
    /// Leave out affordances whose place or rel contains one of these (`--skip`).
    public var skip: [String]
    /// Infer templates from the URLs the crawl fetched (`/books/1` … → `/books/{id}`) where the
    /// API advertises none for them.
    public var infersTemplates: Bool
    public var timeout: Duration
    public var maximumBodyBytes: Int
    public var rules: RuleConfiguration
    public var redaction: Redaction
    /// Ctrl-C: stop sending probes, clean up what was created, report what was found.
    public var interruption: CrawlInterruption?
    /// A description of the API (`--openapi`) every accepted probe's answer is checked against:
    /// a documented type or body it breaks is `probe-response-type`.
    public var contract: (any ResponseContract)?

    public init(
        root: URL, headers: [HTTPHeader] = [], unsafe: Bool = false, seed: UInt64 = 0, budgetPerAffordance: Int = 24,
        maximumRequests: Int = 5_000, shrinkAttempts: Int = 12, only: [String] = [], skip: [String] = [], infersTemplates: Bool = true,
        timeout: Duration = .seconds(10), maximumBodyBytes: Int = 8 << 20, rules: RuleConfiguration = RuleConfiguration(),
        redaction: Redaction = Redaction(), interruption: CrawlInterruption? = nil
    ) {
        self.root = root
        self.headers = headers
        self.unsafe = unsafe
        self.seed = seed
        self.budgetPerAffordance = budgetPerAffordance
        self.maximumRequests = maximumRequests
        self.shrinkAttempts = shrinkAttempts
        self.only = only
        self.skip = skip
        self.infersTemplates = infersTemplates
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
        self.rules = rules
        self.redaction = redaction
        self.interruption = interruption
    }
}
