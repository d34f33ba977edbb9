import APICheckModel
import APICheckSpool

/// One link the crawler considered, whatever became of it: the unit of JUnit test cases and of
/// the link counts.
///
/// A finding belongs to a checked link when method, URL, rel, source pointer and referrer are
/// equal; build both from the same link so they match.
public struct CheckedLink: Sendable, Hashable {
    /// What became of the link.
    public enum Outcome: Sendable, Hashable {
        /// Requested and every rule passed.
        case passed
        /// Requested, and at least one rule reported a finding.
        case failed
        /// Could not be checked as written, e.g. `needs variables: id` for a template without values.
        case notChecked(reason: String)
        /// Deliberately left alone, e.g. `other origin` or `unsafe method without --unsafe`.
        case skipped(reason: String)

        /// `passed`, `failed`, `notChecked` or `skipped`, as written in JSON reports.
        public var name: String {
            switch self {
            case .passed: "passed"
            case .failed: "failed"
            case .notChecked: "notChecked"
            case .skipped: "skipped"
            }
        }

        /// The reason of `notChecked` and `skipped`.
        public var reason: String? {
            switch self {
            case .passed, .failed: nil
            case .notChecked(let reason), .skipped(let reason): reason
            }
        }

        /// Whether a report lists a check with this outcome (version 4 counts the rest): failed
        /// and not checked always; skipped unless it was skipped by design (another origin, a
        /// method the crawl does not send, `--sample`), so a limit hit is listed.
        public var isWorthListing: Bool {
            switch self {
            case .passed: false
            case .failed, .notChecked: true
            case .skipped(let reason): !Self.routineSkips.contains { reason.contains($0) }
            }
        }

        /// What the reasons of skips by design say (the crawler's and verify's own wording).
        static let routineSkips = ["other origin", "sampled out", "links are not requested", "without --unsafe"]

        /// Whether the link was requested (passed or failed).
        public var wasChecked: Bool {
            switch self {
            case .passed, .failed: true
            case .notChecked, .skipped: false
            }
        }
    }

    /// The request method, `GET` unless the link declares another.
    public var method: String
    /// The link's target (already redacted), or its template when it could not be expanded.
    public var url: String
    /// The link relation; `nil` for the root itself.
    public var rel: String?
    /// The rels followed from the root, e.g. `["library", "movies[3]", "poster"]`.
    public var relPath: RelPath
    /// The resource the link was found on; `nil` for the root.
    public var referrer: String?
    /// Where in the referrer's representation the link was written (JSON pointer, XPath, `Link header`).
    public var sourcePointer: String?
    /// What became of the link.
    public var outcome: Outcome
    /// The final status code, when a response arrived.
    public var statusCode: Int?
    /// How long the request took, when one was sent.
    public var duration: Duration?
    /// Where the crawl found the link: links are numbered as they are found, breadth-first, each
    /// level in order, so the number is the same at any concurrency and in every shard. Reports
    /// list checks in this order; `0` for checks of reports written before version 4.
    public var discoveryIndex: Int = 0

    /// A checked link; `method` defaults to `GET`.
    public init(
        method: String = "GET",
        url: String,
        rel: String? = nil,
        relPath: RelPath = .root,
        referrer: String? = nil,
        sourcePointer: String? = nil,
        outcome: Outcome,
        statusCode: Int? = nil,
        duration: Duration? = nil,
        discoveryIndex: Int = 0
    ) {
        self.method = method
        self.url = url
        self.rel = rel
        self.relPath = relPath
        self.referrer = referrer
        self.sourcePointer = sourcePointer
        self.outcome = outcome
        self.statusCode = statusCode
        self.duration = duration
        self.discoveryIndex = discoveryIndex
    }

    /// `root → library → movies[3] → poster`.
    /// (Past 16 steps, the middle is counted, not listed: ``RelPath/abbreviatedDescription``.)
    public var relPathDescription: String { relPath.abbreviatedDescription }

    /// A finding about this link: method, URL, rel, rel path, source pointer and referrer are
    /// copied, so the finding belongs to this check (JUnit attaches it to this test case).
    ///
    /// ```swift
    /// let check = CheckedLink(url: target, rel: "poster", relPath: path, referrer: page,
    ///                         sourcePointer: "/_links/poster", outcome: .failed, statusCode: 404)
    /// let finding = check.finding(.linkResolves, expected: "2xx", actual: "404 Not Found",
    ///                             message: "the link does not resolve")
    /// ```
    public func finding(
        _ rule: RuleID,
        severity: Severity? = nil,
        declaredType: String? = nil,
        servedType: String? = nil,
        format: String? = nil,
        expected: String? = nil,
        actual: String? = nil,
        message: String
    ) -> Finding {
        Finding(
            rule: rule, severity: severity, method: method, url: url, rel: rel, declaredType: declaredType, servedType: servedType,
            sourcePointer: sourcePointer, format: format, relPath: relPath, referrer: referrer, expected: expected, actual: actual,
            message: message, discoveryIndex: discoveryIndex)
    }

    /// The link's identity; findings with the same key belong to this check.
    package var linkKey: LinkKey {
        LinkKey(method: method, url: url, rel: rel, sourcePointer: sourcePointer, referrer: referrer)
    }

    /// Report order: discovery order, then (for checks of reports before version 4) URL, method,
    /// rel, source pointer, referrer, then the rest.
    @usableFromInline package static func precedes(_ lhs: CheckedLink, _ rhs: CheckedLink) -> Bool {
        if lhs.discoveryIndex != rhs.discoveryIndex { return lhs.discoveryIndex < rhs.discoveryIndex }
        if lhs.url != rhs.url { return lhs.url < rhs.url }
        if lhs.method != rhs.method { return lhs.method < rhs.method }
        if lhs.rel != rhs.rel { return ascending(lhs.rel, rhs.rel) }
        if lhs.sourcePointer != rhs.sourcePointer { return ascending(lhs.sourcePointer, rhs.sourcePointer) }
        if lhs.referrer != rhs.referrer { return ascending(lhs.referrer, rhs.referrer) }
        if lhs.outcome.name != rhs.outcome.name { return lhs.outcome.name < rhs.outcome.name }
        if lhs.outcome.reason != rhs.outcome.reason { return ascending(lhs.outcome.reason, rhs.outcome.reason) }
        if lhs.statusCode != rhs.statusCode { return ascending(lhs.statusCode, rhs.statusCode) }
        if lhs.duration != rhs.duration { return ascending(lhs.duration, rhs.duration) }
        return lhs.relPath.lexicographicallyPrecedes(rhs.relPath)
    }
}

/// Orders optionals with `nil` first; for total orders over report values.
package func ascending<T: Comparable>(_ lhs: T?, _ rhs: T?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): false
    case (nil, _): true
    case (_, nil): false
    case (let lhs?, let rhs?): lhs < rhs
    }
}
