import APICheckModel
import APICheckSpool

/// A contract defect: the findings of one rule that share one problem at one place in the API's
/// shape, so that one fix repairs them all. Reports list defects, not occurrences: the AcmeFlix
/// demo's 116 findings are 13 defects.
///
/// What makes two findings the same defect (docs/reports.md, "Defects"):
/// - the **rule**;
/// - the **problem**: the facts the rule reports, without the URL they were seen at (the invalid
///   type for `type-syntax`, the declared and served types for `type-matches`, the method and
///   status for `link-resolves`, the message's wording with URLs, quoted text and numbers taken
///   out for the others (`format-shape` keeps the format member it names: a missing `'type'` is
///   not a missing `'id'`), except the drift rules, whose whole message is the problem);
/// - the **place**: for rules about what an API writes everywhere the same way (`type-syntax`,
///   `type-matches`, `format-shape`) none, since one change to the API fixes every occurrence;
///   for a status a link's target answered (`link-resolves`) the target's path with ids as
///   placeholders (`/authors/{id}/`), whichever rels lead there; for other link problems
///   (`link-resolves` without an answer, `method-valid`, `template-valid`) the link relation;
///   for the rules about one representation (`self-consistent`, `duplicate-rel`,
///   `content-type-present`, and rules added later) the rel path from the root with indices
///   stripped (`root → library → movies[*]`).
///
/// The title is true of every occurrence (``DefectTitle``), and the reproduction sends only what
/// the crawl sent (``Reproduction``).
///
/// ```swift
/// for defect in report.defects {
///     print("\(defect.severity)[\(defect.rule)] \(defect.title) (\(defect.count) links)")
///     print(defect.reproduction)      // curl -i 'https://api.example.com/poster/10CFL'
/// }
/// ```
public struct Defect: Sendable, Hashable {
    /// Stable across runs and shards: 16 hex digits of FNV-1a over rule, problem and place.
    public var id: String
    public var rule: RuleID
    /// The highest severity among the occurrences.
    public var severity: Severity
    /// What is wrong and how to fix it, said once; true of every occurrence (what differs between
    /// them is listed) and without the API's origin, so it names the same defect in any environment.
    public var title: String
    /// The shapes (rel paths, indices stripped) the occurrences were found at, in order: the
    /// first ``placesListed``, so a defect down a deep chain (a shape per depth, each as long as
    /// the chain) does not make the report grow with the square of the depth.
    public var places: [String]
    /// How many places a defect lists at most.
    public static let placesListed = 20
    /// The findings of this defect the report holds, in report order: every one, unless the
    /// report was read from a JSON report that listed the first ``occurrencesListed``.
    public var occurrences: [Finding]
    /// A shell command that sends what the crawl sent for the first occurrence, or a shell comment
    /// saying why nothing can be sent (see ``Reproduction``).
    public var reproduction: String
    /// How many findings this defect stands for, listed or not.
    public var count: Int

    /// How many occurrences of a defect a JSON report lists unless told to list all
    /// (`--all-occurrences`).
    public static let occurrencesListed = 20

    /// Why a report read back from JSON lists fewer occurrences than it counts.
    package static let omittedNote = "the JSON report it was read from listed the first \(occurrencesListed) of each defect (crawl with --all-occurrences to list every one)"

    /// The order of reports: errors first, then the most occurrences, then rule and title.
    package static func precedes(_ lhs: Defect, _ rhs: Defect) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        if lhs.count != rhs.count { return lhs.count > rhs.count }
        if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
        if lhs.title != rhs.title { return lhs.title < rhs.title }
        return lhs.id < rhs.id
    }
}

extension Defect {
    /// The defects of `findings` (in report order), worst first. `requestHeaders` are the names
    /// of the headers the crawl sent, which reproductions show as shell variables.
    /// `omitted`: per defect id, findings counted but not in `findings` (a report read from a
    /// file that listed the first occurrences only).
    public static func cluster(_ findings: [Finding], requestHeaders: [String] = [], omitted: [String: Int] = [:]) -> [Defect] {
        var groups: [DefectKey: [Finding]] = [:]
        var order: [DefectKey] = []
        for finding in findings {
            let key = DefectKey(finding)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(finding)
        }
        return order.compactMap { key -> Defect? in
            guard let occurrences = groups[key], let first = occurrences.first else { return nil }
            var places: [String] = []
            for finding in occurrences where places.count < Defect.placesListed {
                // Abbreviated past 16 steps: a defect per depth of a deep chain would otherwise
                // list a place as long as the chain each.
                let shape = RelPath.abbreviatedShape(finding.relPath)
                if !places.contains(shape) { places.append(shape) }
            }
            return Defect(
                id: key.id, rule: key.rule, severity: occurrences.map(\.severity).max() ?? first.severity,
                title: DefectTitle.title(for: occurrences), places: places, occurrences: occurrences,
                reproduction: Reproduction.of(first, headers: requestHeaders),
                count: occurrences.count + (omitted[key.id] ?? 0)
            )
        }
        .sorted(by: Defect.precedes)
    }

    /// The stable id a finding's defect has (for baselines and SARIF fingerprints).
    public static func id(of finding: Finding) -> String { DefectKey(finding).id }
}
