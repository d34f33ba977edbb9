import APICheckModel
import APICheckSpool
import Foundation

/// Everything one `apicheck crawl` (or one shard of it) found, in a fixed order: the value every
/// renderer reads, the JSON report holds and `apicheck report merge` combines.
///
/// ```swift
/// let report = CrawlReport(
///     tool: ToolInfo(name: "apicheck", version: "0.4.0"),
///     root: "https://api.example.com/", startTime: started, duration: .seconds(3),
///     configuration: rules, statistics: CrawlStatistics(resourcesFetched: 41, requests: 44),
///     checks: checks, findings: findings)
/// print(TextReportRenderer(useColor: true).render(report))
/// exit(report.exitCode.rawValue)
/// ```
///
/// Findings, checks and errors are de-duplicated and in report order on construction (findings
/// and checks by discovery index, then, for reports before version 4, by URL, method and rule or
/// rel), so the result does not depend on the order concurrent work finished in. Times are kept
/// to the millisecond.
public struct CrawlReport: Sendable, Hashable {
    /// The version of the JSON report format this library writes.
    public static let currentSchemaVersion = 4

    /// The JSON report format version (see docs/reports.md); ``currentSchemaVersion`` for new reports.
    public var schemaVersion: Int
    /// The tool and version that crawled.
    public var tool: ToolInfo
    /// What produced the report: a crawl of an API, or a verification of stubs against one.
    public var command: ReportCommand = .crawl
    /// The URL the crawl started from (redacted).
    public var root: String
    /// When the crawl started.
    public var startTime: Date {
        didSet { startTime = ReportTime.rounded(startTime) }
    }
    /// How long it took.
    public var duration: Duration {
        didSet { duration = ReportTime.rounded(duration) }
    }
    /// Which part of a sharded crawl this is; `nil` for a whole crawl or a merged report.
    public var shard: Shard?
    /// The rule levels and strictness the crawl ran with; decides ``exitCode``.
    public var configuration: RuleConfiguration
    /// Counts only the crawler knows; the others are derived (see ``counts``).
    public var statistics: CrawlStatistics
    /// The checks a person has to look at (failed, not checked, skipped for a limit), sorted;
    /// every check when ``listsEveryCheck`` (`--list-checks`; then in a temporary file for a
    /// large crawl, see ``CheckList``).
    public private(set) var checks: CheckList
    /// Every check counted, per place in the API's shape and method, listed or not.
    public private(set) var checkCounts: [CheckCount]
    /// Whether ``checks`` holds every check, passed ones included.
    public private(set) var listsEveryCheck: Bool
    /// Per defect id, how many of its findings are not in ``findings`` (a report read from a file
    /// that listed only the first occurrences); counted in ``counts`` and ``Defect/count``.
    public package(set) var omittedFindings: [String: Int] = [:]
    /// Contract violations, sorted; findings suppressed by a baseline are not here.
    public private(set) var findings: [Finding]
    /// Infrastructure problems (root unreachable, crawl aborted); any of them means exit code 2.
    public private(set) var errors: [CrawlProblem]
    /// What a baseline suppressed, when one was applied.
    public var baseline: BaselineSummary?
    /// The names of the headers the crawl sent (`--header`), never their values: reproductions
    /// show them as shell variables.
    public var requestHeaderNames: [String] = []

    /// With `--sample N`: per kind of resource (rel path with indices stripped), how many were
    /// seen and how many were left out; empty without sampling.
    public var sampling: [SampledKind] = []

    /// With `--openapi`: how many of the document's operations the crawl reached, and which it
    /// never did; `nil` without a document.
    public var operationCoverage: OperationCoverage?

    /// `apicheck probe`: what it probed, sent, created and deleted; `nil` for other commands.
    public var probing: ProbeSummary?

    /// The findings clustered into defects, worst first (see ``Defect``).
    public var defects: [Defect] { Defect.cluster(findings, requestHeaders: requestHeaderNames, omitted: omittedFindings) }

    /// A report of the current schema version. Checks, findings and errors are de-duplicated and
    /// sorted; times are rounded to the millisecond.
    public init(
        tool: ToolInfo,
        root: String,
        startTime: Date,
        duration: Duration,
        shard: Shard? = nil,
        configuration: RuleConfiguration = RuleConfiguration(),
        statistics: CrawlStatistics = CrawlStatistics(),
        checks: [CheckedLink] = [],
        findings: [Finding] = [],
        errors: [CrawlProblem] = [],
        baseline: BaselineSummary? = nil
    ) {
        self.init(
            schemaVersion: Self.currentSchemaVersion, tool: tool, root: root, startTime: startTime, duration: duration,
            shard: shard, configuration: configuration, statistics: statistics, checks: checks, findings: findings,
            errors: errors, baseline: baseline)
    }

    package init(
        schemaVersion: Int,
        tool: ToolInfo,
        root: String,
        startTime: Date,
        duration: Duration,
        shard: Shard?,
        configuration: RuleConfiguration,
        statistics: CrawlStatistics,
        checks: [CheckedLink],
        findings: [Finding],
        errors: [CrawlProblem],
        baseline: BaselineSummary?
    ) {
        self.schemaVersion = schemaVersion
        self.tool = tool
        self.root = root
        self.startTime = ReportTime.rounded(startTime)
        self.duration = ReportTime.rounded(duration)
        self.shard = shard
        self.configuration = configuration
        self.statistics = statistics
        let checks = Self.normalized(checks)
        self.checkCounts = Self.tally(checks)
        self.checks = CheckList(checks)
        self.listsEveryCheck = true
        self.findings = Self.normalized(findings)
        self.errors = Self.normalized(errors)
        self.baseline = baseline
    }

    /// Replaces the findings (sorted and de-duplicated like the initialiser does). Occurrences
    /// counted but not listed (``omittedFindings``) stay only with defects that still have a
    /// listed finding (a rule turned off drops both).
    public mutating func setFindings(_ findings: [Finding]) {
        self.findings = Self.normalized(findings)
        if !omittedFindings.isEmpty {
            let present = Set(self.findings.map { Defect.id(of: $0) })
            omittedFindings = omittedFindings.filter { present.contains($0.key) }
        }
    }

    /// Replaces the checks (sorted and de-duplicated), every one listed and counted.
    public mutating func setChecks(_ checks: consuming [CheckedLink]) {
        self.checks = []
        let checks = Self.normalized(checks)
        checkCounts = Self.tally(checks)
        self.checks = CheckList(checks)
        listsEveryCheck = true
    }

    /// Replaces the checks with ones already sorted and de-duplicated (a streamed crawl's), and
    /// the counts of every check, listed or not.
    package mutating func setSortedChecks(_ checks: CheckList, counts: [CheckCount], listsEveryCheck: Bool) {
        self.checks = checks
        checkCounts = counts
        self.listsEveryCheck = listsEveryCheck
    }

    /// Keeps in ``checks`` only the ones a person has to look at (``CheckedLink/Outcome/isWorthListing``);
    /// the counts stay whole. What `--list-checks` leaves out.
    public mutating func listOnlyChecksWorthReading() {
        guard listsEveryCheck else { return }
        listsEveryCheck = false
        guard checks.contains(where: { !$0.outcome.isWorthListing }) else { return }
        guard checks.isSpooled else {
            checks = CheckList(checks.filter(\.outcome.isWorthListing))
            return
        }
        // Millions of listed checks (a large verify, a merge) stay in a temporary file.
        let builder = CheckListBuilder(directory: SpoolDirectory(), memoryLimit: 20_000, redaction: checks.redaction)
        for check in checks where check.outcome.isWorthListing { builder.append(check) }
        var filtered = builder.finish()
        filtered.inheritedFailure = checks.readFailure ?? builder.failure.map { "\($0)" }
        checks = filtered
    }

    private static func tally(_ checks: [CheckedLink]) -> [CheckCount] {
        var tally = CheckTally()
        for check in checks { tally.count(check) }
        return tally.counts
    }

    /// Replaces the infrastructure errors (sorted and de-duplicated).
    public mutating func setErrors(_ errors: [CrawlProblem]) {
        self.errors = Self.normalized(errors)
    }

    /// What the process should exit with (FORMATS §7): 2 when an infrastructure error occurred,
    /// else 1 when a finding fails (an error, or a warning under `--strict`), else 0.
    public var exitCode: CrawlExitCode {
        if !errors.isEmpty { return .infrastructureError }
        if findings.contains(where: { configuration.fails($0.severity) }) { return .contractViolations }
        return .success
    }

    /// All the numbers of the summary line.
    public var counts: ReportCounts {
        var counts = ReportCounts()
        counts.resourcesFetched = statistics.resourcesFetched
        counts.requests = statistics.requests
        for count in checkCounts {
            counts.linksFound += count.total
            counts.linksChecked += count.passed + count.failed
            counts.linksNotChecked += count.notChecked
            counts.linksSkipped += count.skipped
        }
        for finding in findings {
            switch finding.severity {
            case .error: counts.errors += 1
            case .warning: counts.warnings += 1
            }
        }
        var defectIDs = Set(findings.map { Defect.id(of: $0) })
        if !omittedFindings.isEmpty {
            for defect in defects where defect.count > defect.occurrences.count {
                switch defect.severity {
                case .error: counts.errors += defect.count - defect.occurrences.count
                case .warning: counts.warnings += defect.count - defect.occurrences.count
                }
            }
            defectIDs.formUnion(omittedFindings.keys)
        }
        counts.defects = defectIDs.count
        counts.suppressed = baseline?.suppressed ?? 0
        counts.infrastructureErrors = errors.count
        return counts
    }

    /// The findings of each checked link's key, built once (a lookup per check, not a scan).
    package var findingsByLink: [LinkKey: [Finding]] {
        Dictionary(grouping: findings, by: \.linkKey)
    }

    private static func normalized(_ findings: [Finding]) -> [Finding] {
        var findings = findings
        findings.sortRemovingDuplicates(by: Finding.precedes)
        return findings
    }

    private static func normalized(_ checks: consuming [CheckedLink]) -> [CheckedLink] {
        var checks = checks
        for index in checks.indices where checks[index].duration.map({ ReportTime.rounded($0) != $0 }) ?? false {
            checks[index].duration = checks[index].duration.map(ReportTime.rounded)
        }
        checks.sortRemovingDuplicates(by: CheckedLink.precedes)
        return checks
    }

    private static func normalized(_ errors: [CrawlProblem]) -> [CrawlProblem] {
        Array(Set(errors)).sorted { $0.message != $1.message ? $0.message < $1.message : ascending($0.url, $1.url) }
    }
}

/// One kind of resource under `--sample N`: its shape, how many of its resources the crawl found,
/// and how many of them it fetched (the first `N` in breadth-first order, the same every run).
public struct SampledKind: Sendable, Hashable {
    /// The rel path with indices stripped, e.g. `root → library → movies[*].self`.
    public var kind: String
    /// Resources of this kind the crawl found links to.
    public var seen: Int
    /// Resources of this kind the crawl fetched and checked.
    public var checked: Int

    /// Resources of this kind left out.
    public var skipped: Int { seen - checked }

    public init(kind: String, seen: Int, checked: Int) {
        self.kind = kind
        self.seen = seen
        self.checked = checked
    }
}

/// The command a report comes from; it decides the report's heading and which rules it lists.
public enum ReportCommand: String, Sendable, Hashable, CaseIterable {
    /// `apicheck crawl`: contract rules over an API's links.
    case crawl
    /// `apicheck verify`: drift rules, stubs against the live API.
    case verify
    /// `apicheck probe`: a crawl, then generated requests against its affordances.
    case probe

    /// What a check is about, for people: a crawl checks links, verify checks stubs.
    public var checkedThing: String {
        switch self {
        case .crawl, .probe: "link"
        case .verify: "stub"
        }
    }
}

/// The tool that wrote a report.
public struct ToolInfo: Sendable, Hashable {
    /// `apicheck`.
    public var name: String
    /// The tool's version, e.g. `1.4.0`.
    public var version: String
    /// Where to read about the tool (SARIF `informationUri`).
    public var informationURI: String?

    /// Tool information; the name defaults to `apicheck`.
    public init(name: String = "apicheck", version: String, informationURI: String? = nil) {
        self.name = name
        self.version = version
        self.informationURI = informationURI
    }
}

/// One part of a crawl split with `--shard i/n` (1-based: `1/3`, `2/3`, `3/3`).
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    /// How many shards the crawl is split into.
    public var count: Int

    /// A shard; `nil` unless `1 <= index <= count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, e.g. `2/5`; `nil` when malformed or out of range. Counts above 10,000 are
    /// refused: no CI matrix is that wide, and it keeps hostile input small.
    public init?(parsing text: String) {
        let parts = text.trimmedASCIIWhitespace.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            parts.allSatisfy({ $0.count <= 5 }), let index = Int(parts[0]), let count = Int(parts[1]), count <= 10_000
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `i/n`.
    public var description: String { "\(index)/\(count)" }

    /// Whether this shard owns `url`: the 64-bit FNV-1a hash of the normalised URL (the same
    /// normalisation and hash as fingerprints) modulo the shard count, so every machine splits a
    /// crawl the same way.
    public func contains(url: String) -> Bool {
        Int(FNV1a.hash64(URLResolution.identityKey(url).utf8) % UInt64(count)) == index - 1
    }
}

/// Counts only the crawler knows.
public struct CrawlStatistics: Sendable, Hashable {
    /// Distinct resources fetched.
    public var resourcesFetched: Int
    /// HTTP requests sent (including redirects, OPTIONS probes and retries).
    public var requests: Int

    /// Statistics of a crawl.
    public init(resourcesFetched: Int = 0, requests: Int = 0) {
        self.resourcesFetched = resourcesFetched
        self.requests = requests
    }
}

/// The numbers of a report's summary.
public struct ReportCounts: Sendable, Hashable {
    /// Distinct resources fetched.
    public var resourcesFetched = 0
    /// HTTP requests sent.
    public var requests = 0
    /// Every link considered (= checked + not checked + skipped).
    public var linksFound = 0
    /// Links requested (passed or failed).
    public var linksChecked = 0
    /// Links that could not be checked as written.
    public var linksNotChecked = 0
    /// Links deliberately left alone.
    public var linksSkipped = 0
    /// Findings with severity error.
    public var errors = 0
    /// Findings with severity warning.
    public var warnings = 0
    /// Distinct defects the findings cluster into.
    public var defects = 0
    /// Findings a baseline suppressed.
    public var suppressed = 0
    /// Infrastructure problems.
    public var infrastructureErrors = 0

    /// All zero.
    public init() {}
}

/// An infrastructure problem: not a contract violation but a reason the crawl could not do its
/// job (root unreachable, time limit reached, stub folder unreadable). Exit code 2.
public struct CrawlProblem: Sendable, Hashable {
    /// What went wrong, for people.
    public var message: String
    /// The URL concerned, if one is.
    public var url: String?

    /// A problem, about `url` if one is concerned.
    public init(message: String, url: String? = nil) {
        self.message = message
        self.url = url
    }
}

/// What a process running a crawl should exit with (FORMATS §7).
public enum CrawlExitCode: Int32, Sendable, Hashable {
    /// No failing findings.
    case success = 0
    /// Contract violations: an error finding, or a warning under `--strict`.
    case contractViolations = 1
    /// Usage, configuration or infrastructure error.
    case infrastructureError = 2
}

extension Array where Element: Equatable {
    /// Sorts by `precedes`, a total order over every field, and drops duplicates, in place.
    ///
    /// Reports are normalised more than once on their way out (the crawler, the redaction, a
    /// baseline), so an array that is already sorted and unique costs one linear pass; a
    /// crawl's tens of thousands of checks are never copied into a `Set` or a second array.
    package mutating func sortRemovingDuplicates(by precedes: (Element, Element) -> Bool) {
        guard count > 1 else { return }
        if (1..<count).allSatisfy({ precedes(self[$0 - 1], self[$0]) }) { return }
        sort(by: precedes)
        // Under a total order, equal elements are neighbours once sorted.
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            swapAt(kept, index)
            kept += 1
        }
        removeSubrange(kept...)
    }
}
