import APICheckFindings
import APICheckHTML
import APICheckJSON
import APICheckReportFormats

/// `--format html`: one self-contained page (no network fetch, inline CSS and script allowed by
/// hash in its Content-Security-Policy, works from `file://` and as a CI artifact) with
/// - the run: verdict, root, configuration and counts, as the text report's summary says them;
/// - the API's map (``ReportMap``), drawn by the page's script: a node per place, by depth from
///   the root, edges labelled with rels and methods, size by checks, colour by worst finding;
///   a node's checks, types, defects and (with `--list-checks`) resources on click; subtrees
///   collapse, a search finds places; large maps start collapsed below the second level;
/// - the defects, worst first, with the text report's titles, counts, examples and
///   reproductions, each linked to its places on the map; filters by rule and severity.
///
/// Every crawled value (URL, rel, title, message) goes through ``APICheckHTML``'s typed nodes, so
/// none can become markup or script; the map's data is JSON in a `<script type=application/json>`
/// block with `<` escaped.
public struct HTMLReportRenderer: ReportRenderer {
    /// Examples listed per defect, as in the text report.
    public static let exampleCount = 3

    public init() {}

    public func render(_ report: CrawlReport) -> String {
        var output = ""
        document(report).render(into: &output)
        return output
    }

    public func render(_ report: CrawlReport, chunkBytes: Int, to sink: (String) throws -> Void) rethrows {
        // The document is rendered into pieces of about `chunkBytes`: a large report is never one string.
        var chunks = ChunkedOutput(limit: max(chunkBytes, 1024))
        document(report).render(into: &chunks)
        for piece in chunks.pieces { try sink(piece) }
        if !chunks.current.isEmpty { try sink(chunks.current) }
    }

    func document(_ report: CrawlReport) -> HTMLDocument {
        let defects = report.defects
        let map = ReportMap(report: report, defects: defects)
        let display = OccurrenceDisplay(root: report.root, command: report.command)
        let verdict = Self.verdict(report)
        let counts = report.counts
        let title = "\(report.tool.name) \(report.command.rawValue) \(verdict): \(counts.defects) \(plural(counts.defects, "defect")) — \(Clip.text(report.root, limit: 200))"
        var body: [HTMLNode] = [
            .element(.header, [], [
                .element(.h1, [], [.text("\(report.tool.name) \(report.command.rawValue) "), .element(.span, [.class(HTMLToken(validating: "verdict-" + verdict) ?? HTMLToken("verdict"))], [.text(verdict)]), .text(": \(counts.defects) \(plural(counts.defects, "defect")) (\(counts.errors) \(plural(counts.errors, "error")), \(counts.warnings) \(plural(counts.warnings, "warning")))")]),
                .element(.p, [.class(HTMLToken("run"))], runLine(report)),
                countsTable(report),
            ]),
        ]
        var main: [HTMLNode] = [mapSection(report)]
        main.append(defectsSection(defects, map: map, display: display, report: report))
        if !report.errors.isEmpty {
            main.append(.element(.section, [.id(HTMLToken("errors"))], [
                .element(.h2, [], [.text("Infrastructure errors")]),
                .element(.ul, [], report.errors.map { problem in
                    .element(.li, [], [.text(Clip.text(problem.message))] + (problem.url.map { [.text(" ("), .isolated(Clip.text($0)), .text(")")] } ?? []))
                }),
            ]))
        }
        main.append(configurationSection(report))
        body.append(.element(.main, [], main))
        body.append(.json(id: HTMLToken("report-data"), JSONWriter().string(map.json(defects: defects))))
        return HTMLDocument(language: "en", title: title, styles: [HTMLReportAssets.style], scripts: [HTMLReportAssets.script], body: body)
    }

    static func verdict(_ report: CrawlReport) -> String {
        switch report.exitCode {
        case .success: "passed"
        case .contractViolations: "failed"
        case .infrastructureError: "incomplete"
        }
    }

    // MARK: Sections

    private func runLine(_ report: CrawlReport) -> [HTMLNode] {
        var parts: [HTMLNode] = [.text("Root: "), .element(.a, [.href(report.root)], [.isolated(Clip.text(report.root))])]
        if let shard = report.shard { parts.append(.text(" · shard \(shard)")) }
        parts.append(.text(" · started \(ReportTime.iso8601(report.startTime)) · \(ReportTime.secondsText(report.duration)) s"))
        if report.configuration.strict { parts.append(.text(" · strict (warnings fail)")) }
        if report.configuration.insecureTLS { parts.append(.element(.strong, [], [.text(" · TLS certificates not checked (--insecure)")])) }
        parts.append(.text(" · \(report.tool.name) \(report.tool.version)"))
        return parts
    }

    private func countsTable(_ report: CrawlReport) -> HTMLNode {
        let counts = report.counts
        let things = report.command == .verify ? "Stubs" : "Links"
        var rows: [(String, Int)] = [
            ("Resources fetched", counts.resourcesFetched), ("Requests", counts.requests), ("\(things) found", counts.linksFound),
            ("\(things) checked", counts.linksChecked), ("\(things) not checked", counts.linksNotChecked), ("\(things) skipped", counts.linksSkipped),
            ("Defects", counts.defects), ("Errors", counts.errors), ("Warnings", counts.warnings),
        ]
        if report.baseline != nil { rows.append(("Suppressed by the baseline", counts.suppressed)) }
        if counts.infrastructureErrors > 0 { rows.append(("Infrastructure errors", counts.infrastructureErrors)) }
        return .element(.table, [.class(HTMLToken("counts"))], [
            .element(.tbody, [], rows.map { label, value in
                .element(.tr, [], [.element(.th, [], [.text(label)]), .element(.td, [], [.text(String(value))])])
            })
        ])
    }

    private func mapSection(_ report: CrawlReport) -> HTMLNode {
        .element(.section, [.id(HTMLToken("map"))], [
            .element(.h2, [], [.text("The API's map")]),
            .element(.p, [.class(HTMLToken("hint"))], [
                .text("One node per place in the API's shape (rel path from the root, indices stripped), by depth from the root. "
                    + "Size: checks made there; colour: the worst finding (red error, amber warning, green passed, grey not checked; blue: the root). "
                    + "Click a node for what happened there; ± folds its subtree. The address follows what is shown: copy it to share the view.")
            ]),
            .element(.div, [.class(HTMLToken("controls"))], [
                .element(.label, [.tokens(.for, [HTMLToken("map-search")])], [.text("Find a place ")]),
                .element(.input, [.id(HTMLToken("map-search")), .tokens(.type, [HTMLToken("search")]), .text(.placeholder, "rel or path, e.g. movies")]),
                .element(.button, [.id(HTMLToken("map-expand")), .tokens(.type, [HTMLToken("button")])], [.text("Expand all")]),
                .element(.button, [.id(HTMLToken("map-collapse")), .tokens(.type, [HTMLToken("button")])], [.text("Fold to overview")]),
                .element(.span, [.id(HTMLToken("map-status")), .tokens(.role, [HTMLToken("status")])]),
            ]),
            .element(.div, [.class(HTMLToken("map-layout"))], [
                .element(.div, [.id(HTMLToken("map-canvas"))], [
                    .element(.p, [.id(HTMLToken("map-fallback"))], [.text("The map is drawn by this page's script; the defects below are listed without it.")])
                ]),
                .element(.aside, [.id(HTMLToken("map-details")), .text(.ariaLabel, "Selected place")], [
                    .element(.p, [.class(HTMLToken("hint"))], [.text("Select a node.")])
                ]),
            ]),
        ])
    }

    private func defectsSection(_ defects: [Defect], map: ReportMap, display: OccurrenceDisplay, report: CrawlReport) -> HTMLNode {
        let rules = Array(Set(defects.map(\.rule.rawValue))).sorted()
        let severities = Array(Set(defects.map(\.severity.rawValue))).sorted()
        func select(_ id: StaticString, _ label: String, _ values: [String]) -> [HTMLNode] {
            [
                .element(.label, [.tokens(.for, [HTMLToken(id)])], [.text(label + " ")]),
                .element(.select, [.id(HTMLToken(id))], [.element(.option, [.text(.value, "")], [.text("all")])] + values.map { value in
                    .element(.option, [.text(.value, value)], [.text(value)])
                }),
            ]
        }
        return .element(.section, [.id(HTMLToken("defects"))], [
            .element(.h2, [], [.text("Defects (\(defects.count))")]),
            .element(.div, [.class(HTMLToken("controls"))], select("rule-filter", "Rule", rules) + select("severity-filter", "Severity", severities) + [
                .element(.span, [.id(HTMLToken("defects-status")), .tokens(.role, [HTMLToken("status")])])
            ]),
            defects.isEmpty
                ? .element(.p, [], [.text("No defects: every check passed.")])
                : .element(.ol, [.class(HTMLToken("defect-list"))], defects.map { defect in defectItem(defect, map: map, display: display, report: report) }),
        ])
    }

    private func defectItem(_ defect: Defect, map: ReportMap, display: OccurrenceDisplay, report: CrawlReport) -> HTMLNode {
        let noun = defect.rule == .driftCoverage || defect.rule.command == .probe || !defect.occurrences.contains { $0.rel != nil }
            ? "finding" : report.command.checkedThing
        let shown = defect.occurrences.prefix(Self.exampleCount)
        var examples: [HTMLNode] = display.lines(shown).map { line in .element(.li, [], [.isolated(Clip.text(line))]) }
        if shown.count < defect.count {
            examples.append(.element(.li, [.class(HTMLToken("more"))], [.text("… and \(defect.count - shown.count) more")]))
        }
        // Places on the map, from the occurrences (the same places the map counts them at).
        var placeKeys: [String] = []
        for finding in defect.occurrences {
            let key = RelPath.describe(RelPath.place(of: finding.relPath))
            if !placeKeys.contains(key) { placeKeys.append(key) }
            if placeKeys.count == Defect.placesListed { break }
        }
        let places: [HTMLNode] = placeKeys.compactMap { key in
            guard let node = map.node(forKey: key) else { return nil }
            return .element(.li, [], [.element(.a, [.href("#place-\(node)"), .class(HTMLToken("place-link")), .data("place", String(node))], [.isolated(Clip.text(key))])])
        }
        var children: [HTMLNode] = [
            .element(.h3, [], [
                .element(.span, [.class(HTMLToken("badge"), HTMLToken(validating: defect.severity.rawValue) ?? HTMLToken("severity"))], [.text(defect.severity.rawValue)]),
                .text(" "), .element(.code, [], [.text(defect.rule.rawValue)]), .text(" "), .text(Clip.text(defect.title)),
                .text(" (\(defect.count) \(plural(defect.count, noun)))"),
            ]),
            .element(.p, [.class(HTMLToken("label"))], [.text("Examples")]),
            .element(.ul, [.class(HTMLToken("examples"))], examples),
        ]
        if !places.isEmpty {
            children.append(.element(.p, [.class(HTMLToken("label"))], [.text("On the map")]))
            children.append(.element(.ul, [.class(HTMLToken("places"))], places))
        }
        children.append(.element(.p, [.class(HTMLToken("label"))], [.text("Reproduce")]))
        children.append(.element(.pre, [], [.element(.code, [], [.text(Clip.text(defect.reproduction, limit: 20_000))])]))
        return .element(
            .li, [.id(HTMLToken(validating: "defect-" + defect.id) ?? HTMLToken("defect")), .class(HTMLToken("defect")), .data("rule", defect.rule.rawValue), .data("severity", defect.severity.rawValue)],
            children)
    }

    private func configurationSection(_ report: CrawlReport) -> HTMLNode {
        let configuration = report.configuration
        let rows: [HTMLNode] = RuleID.allCases.filter { $0.commands.contains(report.command) }.map { rule in
            .element(.tr, [], [.element(.th, [], [.element(.code, [], [.text(rule.rawValue)])]), .element(.td, [], [.text(configuration.level(for: rule).rawValue)])])
        }
        return .element(.section, [.id(HTMLToken("configuration"))], [
            .element(.details, [], [
                .element(.summary, [], [.text("Configuration: rule levels" + (configuration.strict ? ", strict" : "") + (configuration.insecureTLS ? ", --insecure" : ""))]),
                .element(.table, [], [.element(.tbody, [], rows)]),
            ])
        ])
    }

    private func plural(_ count: Int, _ noun: String) -> String { count == 1 ? noun : noun + "s" }
}

/// Collects rendered text in pieces of about `limit` bytes.
struct ChunkedOutput: TextOutputStream {
    let limit: Int
    var pieces: [String] = []
    var current = ""

    mutating func write(_ string: String) {
        current += string
        if current.utf8.count >= limit {
            pieces.append(current)
            current = ""
        }
    }
}
