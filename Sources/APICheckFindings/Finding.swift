import APICheckModel
import APICheckSpool
/// One contract violation the crawler found: which rule, how bad, where, and what was expected
/// and seen. Findings are data, never thrown.
///
/// ```swift
/// let finding = Finding(
///     rule: .linkResolves, url: "https://api.example.com/movies/3/poster",
///     rel: "poster", sourcePointer: "/_links/poster", format: "HAL",
///     relPath: ["library", "movies[3]", "poster"],
///     referrer: "https://api.example.com/movies/3",
///     expected: "2xx", actual: "404 Not Found",
///     message: "the link does not resolve")
/// finding.relPathDescription   // "root → library → movies[3] → poster"
/// ```
///
/// Every URL in a finding must already be redacted (see ``Redaction``): reports are written to
/// CI logs.
public struct Finding: Sendable, Hashable {
    /// The rule that was violated.
    public var rule: RuleID
    /// How bad it is, as configured.
    public var severity: Severity
    /// The request method, `GET` unless the link declares another.
    public var method: String
    /// The URL the finding is about: usually the link's target, or the resource itself for
    /// findings about a representation (`format-shape`, `duplicate-rel`).
    public var url: String
    /// The link relation, `nil` for findings about a whole resource or the root.
    public var rel: String?
    /// The media type the link declared, if any.
    public var declaredType: String?
    /// The `Content-Type` the server answered with, if any.
    public var servedType: String?
    /// Where in the referrer's representation the link was written: a JSON pointer
    /// (`/_links/poster`), an XPath (`/feed/link[2]`) or `Link header`.
    public var sourcePointer: String?
    /// The hypermedia format the link was read from (`HAL`, `JSON:API`, `Siren`, `Link header`, …).
    public var format: String?
    /// The rels followed from the root to reach this link, e.g. `["library", "movies[3]", "poster"]`.
    public var relPath: RelPath
    /// The resource the link was found on; `nil` for the root.
    public var referrer: String?
    /// What the rule expected, short (`2xx`, `image/jpeg`).
    public var expected: String?
    /// What was seen instead, short (`404 Not Found`, `text/html`).
    public var actual: String?
    /// A sentence for people.
    public var message: String
    /// The ``CheckedLink/discoveryIndex`` of the link the finding is about, or of the link that
    /// led to the resource it is about: reports list findings in this order.
    public var discoveryIndex: Int = 0
    /// For `probe-*` findings: the generated request that found it, shrunk.
    public var probe: ProbeRequest?

    /// A finding at `severity`, or at the rule's default severity when `severity` is `nil`.
    public init(
        rule: RuleID,
        severity: Severity? = nil,
        method: String = "GET",
        url: String,
        rel: String? = nil,
        declaredType: String? = nil,
        servedType: String? = nil,
        sourcePointer: String? = nil,
        format: String? = nil,
        relPath: RelPath = .root,
        referrer: String? = nil,
        expected: String? = nil,
        actual: String? = nil,
        message: String,
        discoveryIndex: Int = 0
    ) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.method = method
        self.url = url
        self.rel = rel
        self.declaredType = declaredType
        self.servedType = servedType
        self.sourcePointer = sourcePointer
        self.format = format
        self.relPath = relPath
        self.referrer = referrer
        self.expected = expected
        self.actual = actual
        self.message = message
        self.discoveryIndex = discoveryIndex
    }

    /// `root → library → movies[3] → poster`.
    /// (Past 16 steps, the middle is counted, not listed: ``RelPath/abbreviatedDescription``.)
    public var relPathDescription: String { relPath.abbreviatedDescription }

    /// A stable identity for baselines and SARIF: the same problem at the same place gets the
    /// same fingerprint in every run, whatever its severity or message wording.
    ///
    /// Built from the rule id, the method (upper-cased), the normalised URL (see docs/reports.md),
    /// the rel and the source pointer, hashed with 64-bit FNV-1a; 16 lower-case hex digits.
    public var fingerprint: String {
        var input: [UInt8] = []
        for field in [rule.rawValue, method.uppercased(), URLResolution.identityKey(url), rel ?? "", sourcePointer ?? ""] {
            // Length-prefixed, so no choice of field contents can make two tuples collide.
            input.append(contentsOf: Array(String(field.utf8.count).utf8))
            input.append(UInt8(ascii: ":"))
            input.append(contentsOf: Array(field.utf8))
        }
        return FNV1a.hexDigest(input)
    }

    /// The order of every report: discovery index, then URL, method, rule, source pointer and the
    /// remaining fields, so output never depends on the order concurrent checks finished in.
    package static func precedes(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.discoveryIndex != rhs.discoveryIndex { return lhs.discoveryIndex < rhs.discoveryIndex }
        if lhs.url != rhs.url { return lhs.url < rhs.url }
        if lhs.method != rhs.method { return lhs.method < rhs.method }
        if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
        if lhs.sourcePointer != rhs.sourcePointer { return ascending(lhs.sourcePointer, rhs.sourcePointer) }
        if lhs.rel != rhs.rel { return ascending(lhs.rel, rhs.rel) }
        if lhs.referrer != rhs.referrer { return ascending(lhs.referrer, rhs.referrer) }
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        if lhs.message != rhs.message { return lhs.message < rhs.message }
        if lhs.expected != rhs.expected { return ascending(lhs.expected, rhs.expected) }
        if lhs.actual != rhs.actual { return ascending(lhs.actual, rhs.actual) }
        if lhs.declaredType != rhs.declaredType { return ascending(lhs.declaredType, rhs.declaredType) }
        if lhs.servedType != rhs.servedType { return ascending(lhs.servedType, rhs.servedType) }
        if lhs.format != rhs.format { return ascending(lhs.format, rhs.format) }
        if lhs.probe != rhs.probe { return ascending(lhs.probe?.label, rhs.probe?.label) }
        return lhs.relPath.lexicographicallyPrecedes(rhs.relPath)
    }

    /// The link this finding is about, to find its ``CheckedLink``.
    package var linkKey: LinkKey {
        LinkKey(method: method, url: url, rel: rel, sourcePointer: sourcePointer, referrer: referrer)
    }
}

/// What identifies a link within a crawl: a finding belongs to the checked link with the same key.
package struct LinkKey: Hashable, Sendable {
    package var method: String
    package var url: String
    package var rel: String?
    package var sourcePointer: String?
    package var referrer: String?
}
