import APICheckFindings
import APICheckJSON
import APICheckReportFormats

/// The API's shape as a tree of places, for the HTML report's map: one node per place (a rel
/// path with indices stripped and deep paths folded, ``RelPath/place(of:)``, the places the
/// report counts checks at), its parent the place one step up, with what happened there: checks
/// by method and outcome, findings by severity, the defects found there, declared against served
/// types, and (with `--list-checks`) the resources checked. The page's script draws it; this is
/// the data, written once as JSON.
struct ReportMap {
    struct Node {
        var key: String
        var label: String
        var parent: Int?
        var depth: Int
        var methods: [CheckCount] = []
        var errors = 0
        var warnings = 0
        /// Indices into the report's defects.
        var defects: [Int] = []
        var types: [String] = []
        var resources: [String] = []
        var moreResources = 0
    }

    /// How many declared/served type pairs, and resources, one place lists.
    static let typesListed = 5
    static let resourcesListed = 20

    private(set) var nodes: [Node]
    private var index: [String: Int] = [:]

    init(report: CrawlReport, defects: [Defect]) {
        nodes = [Node(key: "root", label: "root", parent: nil, depth: 0)]
        index["root"] = 0
        for count in report.checkCounts {
            let node = place(count.place)
            nodes[node].methods.append(count)
        }
        for (defectIndex, defect) in defects.enumerated() {
            for finding in defect.occurrences {
                let node = place(RelPath.place(of: finding.relPath))
                if defect.severity == .error { nodes[node].errors += 1 } else { nodes[node].warnings += 1 }
                if nodes[node].defects.last != defectIndex { nodes[node].defects.append(defectIndex) }
                if let declared = finding.declaredType, let served = finding.servedType, nodes[node].types.count < Self.typesListed {
                    let pair = Clip.text("declared \(declared), served \(served)")
                    if !nodes[node].types.contains(pair) { nodes[node].types.append(pair) }
                }
            }
        }
        if report.listsEveryCheck {
            let display = OccurrenceDisplay(root: report.root, command: report.command)
            for check in report.checks {
                let node = place(RelPath.place(of: check.relPath))
                if nodes[node].resources.count < Self.resourcesListed {
                    nodes[node].resources.append(Clip.text("\(check.method) \(display.url(check.url)) \(check.outcome.name)" + (check.statusCode.map { " \($0)" } ?? "")))
                } else {
                    nodes[node].moreResources += 1
                }
            }
        }
    }

    /// The node of `place`, made (with its missing ancestors) when first seen.
    private mutating func place(_ place: RelPath) -> Int {
        let key = RelPath.describe(place)
        if let existing = index[key] { return existing }
        let labels = place.labels
        let parent = labels.isEmpty ? 0 : self.place(RelPath(labels.dropLast()))
        nodes.append(Node(key: Clip.text(key), label: Clip.text(labels.last ?? "root"), parent: parent, depth: labels.count))
        index[key] = nodes.count - 1
        return nodes.count - 1
    }

    /// The node a place's key names (`root → library → movies[*].self`), if any.
    func node(forKey key: String) -> Int? { index[key] }

    /// `{"nodes": [...], "defects": {...}}`, read by the page's script (`report-data`). Short
    /// member names, zeros and empty lists left out, and no path per node (the script joins the
    /// labels of its ancestors; a parent always comes before its children): a map of 20,000
    /// places stays a few megabytes. A node: `l` label, `p` parent, `m` checks per method
    /// `[method, passed, failed, notChecked, skipped]`, `e`/`w` error and warning findings, `d`
    /// defect ids, `t` declared/served types, `r` resources (with `--list-checks`), `rm` how many
    /// more were not listed.
    func json(defects: [Defect]) -> JSONValue {
        .object([
            JSONMember("schemaVersion", 1),
            JSONMember(
                "nodes",
                .array(nodes.map { node in
                    var members = [JSONMember("l", .string(node.label))]
                    if let parent = node.parent { members.append(JSONMember("p", .number(Double(parent)))) }
                    if !node.methods.isEmpty {
                        members.append(
                            JSONMember(
                                "m",
                                .array(node.methods.map { count in
                                    .array([.string(count.method)] + [count.passed, count.failed, count.notChecked, count.skipped].map { .number(Double($0)) })
                                })))
                    }
                    if node.errors > 0 { members.append(JSONMember("e", .number(Double(node.errors)))) }
                    if node.warnings > 0 { members.append(JSONMember("w", .number(Double(node.warnings)))) }
                    if !node.defects.isEmpty { members.append(JSONMember("d", .array(node.defects.map { .string(defects[$0].id) }))) }
                    if !node.types.isEmpty { members.append(JSONMember("t", .array(node.types.map(JSONValue.string)))) }
                    if !node.resources.isEmpty { members.append(JSONMember("r", .array(node.resources.map(JSONValue.string)))) }
                    if node.moreResources > 0 { members.append(JSONMember("rm", .number(Double(node.moreResources)))) }
                    return .object(members)
                })),
            JSONMember(
                "defects",
                .object(defects.map { defect in
                    JSONMember(defect.id, .object([JSONMember("title", .string(Clip.text(defect.title))), JSONMember("severity", .string(defect.severity.rawValue))]))
                })),
        ])
    }
}

/// Crawled values as the page shows them: whole up to ``limit`` bytes, then cut with the size said.
/// A hostile API can name a rel with a megabyte; the page would repeat it at every place below.
enum Clip {
    static let limit = 2_000

    static func text(_ value: String, limit: Int = limit) -> String {
        guard value.utf8.count > limit else { return value }
        var kept = ""
        var bytes = 0
        for scalar in value.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > limit { break }
            kept.unicodeScalars.append(scalar)
        }
        return kept + "… (\(value.utf8.count) bytes in all)"
    }
}
