import APICheckJSON
import APICheckModel
import APICheckSpool

/// Known findings that should not fail CI: `--write-baseline FILE` records a report's findings,
/// `--baseline FILE` suppresses them in later runs, so only new findings fail.
///
/// ```swift
/// // apicheck crawl … --write-baseline apicheck-baseline.json
/// let text = Baseline(findings: report.findings).jsonString
/// // apicheck crawl … --baseline apicheck-baseline.json
/// let baseline = try Baseline(decoding: bytes, path: "apicheck-baseline.json")
/// report = baseline.apply(to: report)   // report.baseline?.stale lists entries to prune
/// ```
///
/// Entries match findings by ``Finding/fingerprint`` (rule, method, normalised URL, rel, source
/// pointer) or by defect (``Defect/id``): changing a rule's severity or a message's wording keeps
/// them matched, and a new link showing a known defect does not fail the crawl; a new defect does. Write
/// a baseline from a report before applying another baseline to it, or the suppressed findings
/// are lost from the new file.
public struct Baseline: Sendable, Hashable {
    /// The baseline file format version.
    public static let currentSchemaVersion = 1

    /// One known finding: its fingerprint, and what it was for people reading the file.
    public struct Entry: Sendable, Hashable {
        /// The ``Finding/fingerprint`` this entry suppresses; the only field that matches.
        public var fingerprint: String
        /// The finding's rule, for people reading the file.
        public var rule: RuleID
        /// The finding's method, for people.
        public var method: String
        /// The finding's URL, for people.
        public var url: String
        /// The finding's rel, for people.
        public var rel: String?
        /// The finding's source pointer, for people.
        public var sourcePointer: String?
        /// The id of the finding's defect (``Defect/id``): a later finding of the same defect
        /// (the same problem at the same place, on a link that did not exist yet) is known too.
        public var defect: String?

        /// An entry as read from a file.
        public init(fingerprint: String, rule: RuleID, method: String, url: String, rel: String? = nil, sourcePointer: String? = nil, defect: String? = nil) {
            self.defect = defect
            self.fingerprint = fingerprint
            self.rule = rule
            self.method = method
            self.url = url
            self.rel = rel
            self.sourcePointer = sourcePointer
        }

        /// The entry that suppresses `finding`.
        public init(_ finding: Finding) {
            self.init(
                fingerprint: finding.fingerprint, rule: finding.rule, method: finding.method, url: finding.url, rel: finding.rel,
                sourcePointer: finding.sourcePointer, defect: Defect.id(of: finding))
        }

        package static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
            if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
            if lhs.url != rhs.url { return lhs.url < rhs.url }
            if lhs.method != rhs.method { return lhs.method < rhs.method }
            if lhs.fingerprint != rhs.fingerprint { return lhs.fingerprint < rhs.fingerprint }
            if lhs.rel != rhs.rel { return ascending(lhs.rel, rhs.rel) }
            return ascending(lhs.sourcePointer, rhs.sourcePointer)
        }
    }

    /// One entry per fingerprint, sorted by rule, URL, method.
    public let entries: [Entry]

    /// A baseline of `entries`, sorted, one per fingerprint.
    public init(entries: [Entry]) {
        var seen: Set<String> = []
        var unique: [Entry] = []
        for entry in entries.sorted(by: Entry.precedes) where seen.insert(entry.fingerprint).inserted {
            unique.append(entry)
        }
        self.entries = unique
    }

    /// A baseline that suppresses exactly `findings`.
    public init(findings: [Finding]) {
        self.init(entries: findings.map(Entry.init))
    }

    /// `report` without the findings this baseline knows. ``CrawlReport/baseline`` records how
    /// many were suppressed and which entries matched nothing (stale: the problem was fixed, or
    /// the finding's URL or pointer changed), so they can be pruned.
    public func apply(to report: CrawlReport) -> CrawlReport {
        let known = Set(entries.map(\.fingerprint))
        var knownDefects = Set(entries.compactMap(\.defect))
        // A baseline written before a defect's grouping changed (version 4's titles split or
        // joined some) names the old id: its findings, found by fingerprint, name the new one.
        let entryDefects = Dictionary(entries.compactMap { entry in entry.defect.map { (entry.fingerprint, $0) } }, uniquingKeysWith: { first, _ in first })
        for finding in report.findings {
            if let old = entryDefects[finding.fingerprint], case let new = Defect.id(of: finding), new != old { knownDefects.insert(new) }
        }
        var matched: Set<String> = []
        var matchedDefects: Set<String> = []
        var kept: [Finding] = []
        var suppressed = 0
        for finding in report.findings {
            let fingerprint = finding.fingerprint
            let defect = Defect.id(of: finding)
            if known.contains(fingerprint) || knownDefects.contains(defect) {
                matched.insert(fingerprint)
                matchedDefects.insert(defect)
                suppressed += 1
            } else {
                kept.append(finding)
            }
        }
        // Occurrences a read report counted without listing go with their defect's listed ones.
        var omitted = report.omittedFindings
        for (defect, count) in report.omittedFindings where knownDefects.contains(defect) {
            omitted[defect] = nil
            suppressed += count
            matchedDefects.insert(defect)
        }
        var result = report
        result.omittedFindings = omitted
        result.setFindings(kept)
        result.baseline = BaselineSummary(
            suppressed: (report.baseline?.suppressed ?? 0) + suppressed,
            stale: entries.filter { !matched.contains($0.fingerprint) && !($0.defect.map(matchedDefects.contains) ?? false) })
        return result
    }

    /// The baseline file: pretty JSON with a trailing newline, entries sorted, so it diffs well
    /// under version control.
    public var jsonString: String {
        JSONWriter(style: .pretty).string(jsonValue) + "\n"
    }

    /// The baseline as a JSON value.
    public var jsonValue: JSONValue {
        .object([
            JSONMember("schemaVersion", .number(String(Self.currentSchemaVersion))),
            JSONMember("description", "Known findings of apicheck crawl: findings with these fingerprints, or of these defects, do not fail the crawl."),
            JSONMember("entries", .array(entries.map(\.jsonValue))),
        ])
    }
}

extension Baseline.Entry {
    package var jsonValue: JSONValue {
        var members = [
            JSONMember("fingerprint", .string(fingerprint)),
            JSONMember("rule", .string(rule.rawValue)),
            JSONMember("method", .string(method)),
            JSONMember("url", .string(url)),
        ]
        if let rel { members.append(JSONMember("rel", .string(rel))) }
        if let sourcePointer { members.append(JSONMember("sourcePointer", .string(sourcePointer))) }
        if let defect { members.append(JSONMember("defect", .string(defect))) }
        return .object(members)
    }
}
