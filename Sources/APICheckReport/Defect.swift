/// A contract defect: the findings of one rule that share one problem at one place in the API's
/// shape, so that one fix repairs them all. Reports list defects, not occurrences: the AcmeFlix
/// demo's 116 findings are 13 defects.
///
/// What makes two findings the same defect (docs/reports.md, "Defects"):
/// - the **rule**;
/// - the **problem**: the facts the rule reports, without the URL they were seen at (the invalid
///   type for `type-syntax`, the declared and served types for `type-matches`, the method and
///   status for `link-resolves`, the message's wording with URLs, quoted text and numbers taken
///   out for the others, except the drift rules, whose whole message is the problem);
/// - the **place**: for rules about what an API writes everywhere the same way (`type-syntax`,
///   `type-matches`, `format-shape`) none, since one change to the API fixes every occurrence;
///   for links (`link-resolves`, `method-valid`, `template-valid`) the link relation; for the
///   rules about one representation (`self-consistent`, `duplicate-rel`, `content-type-present`,
///   and rules added later) the rel path from the root with indices stripped
///   (`root → library → movies[*]`).
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
    /// What is wrong and how to fix it, said once.
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
    /// A shell command that reproduces the first occurrence (see ``Reproduction``).
    public var reproduction: String
    /// How many findings this defect stands for, listed or not.
    public var count: Int

    /// How many occurrences of a defect a JSON report lists unless told to list all
    /// (`--all-occurrences`).
    public static let occurrencesListed = 20

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
                title: DefectTitle.title(for: first), places: places, occurrences: occurrences,
                reproduction: Reproduction.curl(method: first.method, url: first.url, headers: requestHeaders),
                count: occurrences.count + (omitted[key.id] ?? 0)
            )
        }
        .sorted(by: Defect.precedes)
    }

    /// The stable id a finding's defect has (for baselines and SARIF fingerprints).
    public static func id(of finding: Finding) -> String { DefectKey(finding).id }
}

/// A body's JSON pointer with array indices as `*` (`/movies/3/year` → `/movies/*/year`), so
/// that one field wrong in every element is one defect.
enum BodySchemaPointer {
    static func shape(_ pointer: String) -> String {
        guard pointer.contains(where: \.isNumber) else { return pointer }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).map { step in
            !step.isEmpty && step.allSatisfy({ $0.isASCII && $0.isNumber }) ? "*" : String(step)
        }.joined(separator: "/")
    }
}

/// What makes findings one defect.
struct DefectKey: Hashable {
    var rule: RuleID
    var problem: String
    var place: String

    init(_ finding: Finding) {
        rule = finding.rule
        switch finding.rule {
        case .typeSyntax:
            let side = finding.declaredType == finding.actual ? "declared" : "served"
            problem = "\(side) \(finding.actual ?? "")"
            place = ""
        case .typeMatches:
            problem = "\(finding.declaredType ?? finding.expected ?? "") | \(finding.servedType ?? "") | \(MessageTemplate.of(finding.message))"
            place = ""
        case .formatShape:
            problem = "\(finding.format ?? "") | \(MessageTemplate.of(finding.message))"
            place = ""
        case .bodySchema:
            // One defect per schema keyword, body field (indices as *) and place in the API: a wrong
            // field in every movie is one defect, whatever the values.
            problem = "\(finding.expected ?? "") | \(BodySchemaPointer.shape(finding.sourcePointer ?? ""))"
            place = RelPath.shape(finding.relPath)
        case .crawlLimit:
            // One defect per limit, however many responses it cut short.
            problem = MessageTemplate.of(finding.message)
            place = ""
        case .linkResolves:
            // A status stays as it is (404 and 500 are different problems); a failure's wording is templated.
            let actual = finding.actual.map { $0.allSatisfy(\.isNumber) ? $0 : MessageTemplate.of($0) } ?? ""
            problem = "\(finding.method) | \(actual) | \(MessageTemplate.of(finding.message))"
            place = "rel " + (finding.rel ?? "")
        case .methodValid, .templateValid:
            problem = "\(finding.method) | \(MessageTemplate.of(finding.message))"
            place = "rel " + (finding.rel ?? "")
        case .duplicateRel:
            problem = "rel " + (finding.rel ?? "")
            place = RelPath.shape(finding.relPath)
        case .contentTypePresent, .selfConsistent:
            problem = MessageTemplate.of(finding.message)
            place = RelPath.shape(finding.relPath)
        case .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader:
            // The message is the fact (the pointer, rel, statuses or types): templating it would
            // merge different drifts into one.
            problem = finding.message
            place = RelPath.shape(finding.relPath)
        case .driftCoverage:
            // One gap per kind of resource; the count in the message changes as the API grows.
            problem = "no stub"
            place = RelPath.shape(finding.relPath)
        }
    }

    var id: String {
        var input: [UInt8] = []
        for field in [rule.rawValue, problem, place] {
            input.append(contentsOf: Array(String(field.utf8.count).utf8))
            input.append(UInt8(ascii: ":"))
            input.append(contentsOf: Array(field.utf8))
        }
        return FNV1a.hexDigest(input)
    }
}

/// A message's wording without what varies between occurrences of one problem.
enum MessageTemplate {
    /// URLs become `<url>`, quoted text `<…>`, runs of digits `#`.
    static func of(_ message: String) -> String {
        var output = ""
        var characters = message[...]
        while let first = characters.first {
            if characters.hasPrefix("http://") || characters.hasPrefix("https://") {
                output += "<url>"
                characters = characters.drop { !$0.isWhitespace && $0 != ")" && $0 != "," }
            } else if first == "'" || first == "\"", let end = characters.dropFirst().firstIndex(of: first) {
                output += "<…>"
                characters = characters[characters.index(after: end)...]
            } else if first.isASCII, first.isNumber {
                output += "#"
                characters = characters.drop { $0.isASCII && $0.isNumber }
            } else {
                output.append(first)
                characters = characters.dropFirst()
            }
        }
        return output
    }
}

/// A defect's title: the problem and its fix, each fact once.
enum DefectTitle {
    static func title(for finding: Finding, count: Int = 1) -> String {
        switch finding.rule {
        case .typeMatches:
            guard let declared = finding.declaredType, let served = finding.servedType, finding.message.hasPrefix("declared ") else {
                return finding.messageWithEvidence
            }
            return "declared \(declared), served \(served): serve the declared type, or declare the one served"
                + (finding.message.contains("profile") ? " (\(finding.message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""))" : "")
        case .linkResolves:
            guard let rel = finding.rel, let actual = finding.actual, finding.expected == "a 2xx response" else { return finding.messageWithEvidence }
            let answer = actual.first?.isNumber == true ? "answer \(actual)" : "fail (\(actual))"
            return "\(finding.method) \(rel) links \(answer): the target must answer 2xx"
        case .methodValid where finding.expected?.hasPrefix("a stub answering ") == true:
            // The near-miss report stays in the finding's message (JSON, --verbose).
            let request = finding.expected.map { String($0.dropFirst("a stub answering ".count)) } ?? ""
            return "no stub answers \(request)\(finding.rel.map { " (the \($0) link)" } ?? ""): add one, or fix the link"
        case .contentTypePresent:
            return "\(finding.messageWithEvidence): send a Content-Type"
        case .bodySchema:
            // The field with indices as *, what is wrong, and which schema keyword says so.
            let field = BodySchemaPointer.shape(finding.sourcePointer ?? "")
            let problem = finding.actual ?? finding.message
            return "\(field.isEmpty ? "the body" : "the body's " + field): \(problem) (\(finding.expected ?? "its profile")): fix the body, or the profile"
        case .methodValid, .typeSyntax, .selfConsistent, .duplicateRel, .formatShape, .templateValid, .crawlLimit,
            .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader:
            return finding.messageWithEvidence
        case .driftCoverage:
            return "\(finding.message): record it (apicheck crawl --record) or write a stub"
        }
    }
}

/// A one-line shell command that sends a finding's request again, as Schemathesis prints for each
/// failure: `curl -i -X PUT -H "Authorization: $AUTHORIZATION" 'https://api.example.com/cart/1'`.
/// Headers the crawl sent appear with a shell variable named after them, never their values.
public enum Reproduction {
    /// The command for `method` on `url` (already redacted) with the crawl's `headers` (names).
    public static func curl(method: String, url: String, headers: [String] = []) -> String {
        var parts = ["curl", method == "HEAD" ? "-I" : "-i"]
        // Braces and brackets are curl's URL globbing unless turned off.
        if url.contains(where: { "{}[]".contains($0) }) { parts.append("-g") }
        if method != "GET" && method != "HEAD" { parts += ["-X", quoted(method)] }
        for name in headers { parts += ["-H", "\"\(name): $\(variableName(for: name))\""] }
        parts.append(quoted(url))
        return parts.joined(separator: " ")
    }

    /// `Authorization` → `AUTHORIZATION`, `X-Api-Key` → `X_API_KEY`.
    public static func variableName(for header: String) -> String {
        String(header.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    private static func quoted(_ text: String) -> String {
        let safe = Escaping.visibleControlCharacters(text)
        return "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// How reports show an occurrence's URL: a path when it is on the root's origin.
struct OccurrenceDisplay {
    let origin: String
    let command: ReportCommand

    init(root: String, command: ReportCommand = .crawl) {
        self.command = command
        // `scheme://authority` of the root; URLs there are shown by path.
        if let schemeEnd = root.range(of: "://") {
            let rest = root[schemeEnd.upperBound...]
            origin = String(root[..<(rest.firstIndex(of: "/") ?? root.endIndex)])
        } else {
            origin = ""
        }
    }

    /// How the occurrence was reached: the rel path from the root for a crawl's (`via root →
    /// orders[0]`); the stub file for verify's drifts (`(stub stubs/orders.json:1:1)`), which no
    /// link led to.
    func reached(_ finding: Finding) -> String {
        if command == .verify, finding.relPath.isEmpty, let stub = finding.referrer { return "(stub \(stub))" }
        return "via " + finding.relPathDescription
    }

    func url(_ url: String) -> String {
        guard !origin.isEmpty, url.hasPrefix(origin) else { return url }
        let path = url.dropFirst(origin.count)
        return path.isEmpty ? "/" : (path.first == "/" || path.first == "?" ? String(path) : url)
    }
}

/// Links not checked or skipped for the same reason, listed once with examples.
struct UncheckedGroup {
    var reason: String
    var checks: [CheckedLink]

    /// The distinct `METHOD url`s of the group, in order (several links may name one target).
    var targets: [String] {
        var seen = Set<String>()
        return checks.map { "\($0.method) \($0.url)" }.filter { seen.insert($0).inserted }
    }

    static func groups(of checks: [CheckedLink]) -> [UncheckedGroup] {
        var order: [String] = []
        var byReason: [String: [CheckedLink]] = [:]
        for check in checks {
            let reason = check.outcome.reason ?? ""
            if byReason[reason] == nil { order.append(reason) }
            byReason[reason, default: []].append(check)
        }
        return order.map { UncheckedGroup(reason: $0, checks: byReason[$0] ?? []) }
    }
}
