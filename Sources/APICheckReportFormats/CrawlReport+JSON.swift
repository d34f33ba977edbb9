import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool

/// The JSON report (`--format json`), described by schemas/report.schema.json and
/// docs/reports.md. Members are written in a fixed order and optional members are omitted when
/// absent, so two runs that found the same things write the same bytes (apart from times).
extension CrawlReport {
    /// The report as a JSON value, listing the first ``Defect/occurrencesListed`` occurrences of
    /// each defect.
    public var jsonValue: JSONValue { jsonValue(occurrencesListed: Defect.occurrencesListed) }

    /// The report as a JSON value, listing the first `occurrencesListed` occurrences of each
    /// defect (`nil`: all).
    public func jsonValue(occurrencesListed: Int?) -> JSONValue {
        .object(
            jsonMembers(occurrencesListed: occurrencesListed).map { member in
                switch member.content {
                case .value(let value): JSONMember(member.key, value)
                case .elements(let elements): JSONMember(member.key, .array(Array(elements())))
                case .checks(let checks, let paths):
                    JSONMember(member.key, .array(checks.enumerated().map { $1.jsonValue(path: paths.members(ofCheck: $0, $1)) }))
                }
            })
    }

    /// A member's value: whole, or (for the long arrays) converted an element at a time.
    enum JSONMemberContent {
        case value(JSONValue)
        case elements(() -> AnySequence<JSONValue>)
        /// The checks, written directly (millions of them in a large crawl: no value tree each),
        /// with the table their paths are written against.
        case checks(CheckList, RelPathTable)
    }

    /// The members in schema order; optional members only when present.
    func jsonMembers(occurrencesListed: Int?) -> [(key: String, content: JSONMemberContent)] {
        var members: [(key: String, content: JSONMemberContent)] = [
            ("schemaVersion", .value(.number(String(schemaVersion)))),
            ("tool", .value(tool.jsonValue)),
            ("command", .value(.string(command.rawValue))),
            ("root", .value(.string(root))),
            ("startTime", .value(.string(ReportTime.iso8601(startTime)))),
            ("durationSeconds", .value(.number(ReportTime.secondsText(duration)))),
        ]
        if let shard { members.append(("shard", .value(.string(shard.description)))) }
        members.append(("exitCode", .value(.number(String(exitCode.rawValue)))))
        members.append(("configuration", .value(configuration.jsonValue)))
        members.append(("counts", .value(counts.jsonValue)))
        members.append(("errors", .value(.array(errors.map(\.jsonValue)))))
        if !requestHeaderNames.isEmpty { members.append(("requestHeaders", .value(.array(requestHeaderNames.map(JSONValue.string))))) }
        if !sampling.isEmpty {
            members.append(
                (
                    "sampling",
                    .value(
                        .array(
                            sampling.map { kind in
                                .object([
                                    JSONMember("kind", .string(kind.kind)), JSONMember("seen", .number(String(kind.seen))),
                                    JSONMember("checked", .number(String(kind.checked))), JSONMember("skipped", .number(String(kind.skipped))),
                                ])
                            }))
                ))
        }
        if let operationCoverage {
            members.append(
                (
                    "operationCoverage",
                    .value(
                        .object([
                            JSONMember("total", .number(String(operationCoverage.total))),
                            JSONMember("reached", .number(String(operationCoverage.reached))),
                            JSONMember("unreached", .array(operationCoverage.unreached.map(JSONValue.string))),
                        ]))
                ))
        }
        if let probing {
            let counts: [(String, Int)] = [
                ("writes", probing.writes), ("queryForms", probing.queryForms), ("templatedReads", probing.templatedReads),
                ("requests", probing.requests), ("notSent", probing.notSent), ("created", probing.created), ("deleted", probing.deleted),
                ("restored", probing.restored),
            ]
            members.append(
                (
                    "probe",
                    .value(
                        .object(
                            counts.map { JSONMember($0.0, .number(String($0.1))) } + [
                                JSONMember("skipped", .array(probing.skipped.map(JSONValue.string))),
                                JSONMember("leftBehind", .array(probing.leftBehind.map(JSONValue.string))),
                                JSONMember("changed", .array(probing.changed.map(JSONValue.string))),
                                JSONMember("interrupted", .bool(probing.interrupted)),
                            ]))
                ))
        }
        members.append(("listsEveryCheck", .value(.bool(listsEveryCheck))))
        let defects = defects
        let findings = listedFindings(occurrencesListed)
        let checks = checks
        let checkCounts = checkCounts
        // Every path first (one more pass over spooled checks), so a reader resolves each check's
        // path as it streams by.
        let paths = RelPathTable(findings: findings, checks: checks)
        for count in checkCounts { paths.add(count.place) }
        members.append(("paths", .elements { AnySequence((0..<paths.count).lazy.map(paths.jsonValue(at:))) }))
        members.append(("checkCounts", .elements { AnySequence(checkCounts.lazy.map { $0.jsonValue(paths: paths) }) }))
        members.append(("defects", .elements { AnySequence(defects.lazy.map { $0.jsonValue(listing: occurrencesListed) }) }))
        members.append(("findings", .elements { AnySequence(findings.lazy.map { $0.jsonValue(paths: paths) }) }))
        members.append(("checks", .checks(checks, paths)))
        if let baseline {
            members.append(
                (
                    "baseline",
                    .value(
                        .object([
                            JSONMember("suppressed", .number(String(baseline.suppressed))),
                            JSONMember("stale", .array(baseline.stale.map(\.jsonValue))),
                        ]))
                ))
        }
        return members
    }

    /// Reads a JSON report (for `apicheck report merge` and tools); errors carry `path:line:column`.
    ///
    /// Derived members (`exitCode`, `counts` other than `resourcesFetched` and `requests`, and
    /// finding fingerprints) are recomputed, not trusted; what version 4 counts without listing
    /// (`checkCounts`, a defect's `count` beyond its listed occurrences) is read as written.
    /// Unknown members are ignored.
    public init(decoding bytes: [UInt8], path: String? = nil, maximumBytes: Int = 256 << 20) throws(ReportDecodingError) {
        let reader = ReportJSONReader(path: path)
        let root = try reader.object(try reader.parse(bytes, maximumBytes: maximumBytes), "the report")

        let versionNode = try reader.member(root, "schemaVersion")
        let version = try reader.countValue(versionNode, "schemaVersion")
        // Version 1 had no defects (they are derived) and no request header names; versions 1 and
        // 2 wrote each whole rel path as `relPath`: read as is.
        guard (1...Self.currentSchemaVersion).contains(version) else {
            throw reader.error(
                "unsupported report schemaVersion \(version); this apicheck reads versions 1 to \(Self.currentSchemaVersion)",
                at: versionNode.position)
        }

        let toolNode = try reader.object(try reader.member(root, "tool"), "\"tool\"")
        let tool = ToolInfo(
            name: try reader.string(toolNode, "name"), version: try reader.string(toolNode, "version"),
            informationURI: try reader.optionalString(toolNode, "informationUri"))

        let startNode = try reader.member(root, "startTime")
        guard let startTime = ReportTime.parseISO8601(try reader.stringValue(startNode, "startTime")) else {
            throw reader.error("expected an ISO 8601 time such as 2025-03-01T12:00:00.000Z for \"startTime\"", at: startNode.position)
        }

        var shard: Shard?
        if let shardNode = root["shard"], !shardNode.isNull {
            guard let parsed = Shard(parsing: try reader.stringValue(shardNode, "shard")) else {
                throw reader.error("expected \"shard\" as i/n with 1 <= i <= n", at: shardNode.position)
            }
            shard = parsed
        }

        let countsNode = try reader.object(try reader.member(root, "counts"), "\"counts\"")
        let statistics = CrawlStatistics(
            resourcesFetched: try reader.count(countsNode, "resourcesFetched"), requests: try reader.count(countsNode, "requests"))

        var errors: [CrawlProblem] = []
        for node in try reader.optionalArray(root, "errors") {
            let object = try reader.object(node, "an error")
            errors.append(CrawlProblem(message: try reader.string(object, "message"), url: try reader.optionalString(object, "url")))
        }
        let paths = try root["paths"].map { node throws(ReportDecodingError) in try RelPathResolver(node, reader: reader) } ?? RelPathResolver()
        var findings: [Finding] = []
        for node in try reader.array(root, "findings") {
            findings.append(try Finding(node, reader: reader, paths: paths))
        }
        var checks: [CheckedLink] = []
        for node in try reader.array(root, "checks") {
            checks.append(try CheckedLink(node, reader: reader, paths: paths))
        }
        // Version 4 counts every check and lists some; earlier versions listed every check.
        var checkCounts: [CheckCount]?
        if version >= 4 {
            var tally = CheckTally()
            for node in try reader.array(root, "checkCounts") { tally.add(try CheckCount(node, reader: reader, paths: paths)) }
            checkCounts = tally.counts
        }
        var defectCounts: [(count: Int, occurrences: [String])] = []
        if version >= 4 {
            for node in try reader.array(root, "defects") {
                let object = try reader.object(node, "a defect")
                defectCounts.append((try reader.count(object, "count"), try reader.strings(object, "occurrences")))
            }
        }
        var baseline: BaselineSummary?
        if let baselineNode = root["baseline"], !baselineNode.isNull {
            let object = try reader.object(baselineNode, "\"baseline\"")
            var stale: [Baseline.Entry] = []
            for node in try reader.optionalArray(object, "stale") {
                stale.append(try Baseline.Entry(node, reader: reader))
            }
            baseline = BaselineSummary(suppressed: try reader.count(object, "suppressed"), stale: stale)
        }

        self.init(
            schemaVersion: version, tool: tool, root: try reader.string(root, "root"), startTime: startTime,
            duration: try reader.duration(try reader.member(root, "durationSeconds"), "durationSeconds"), shard: shard,
            configuration: try RuleConfiguration(try reader.member(root, "configuration"), reader: reader),
            statistics: statistics, checks: checks, findings: findings, errors: errors, baseline: baseline)
        self.schemaVersion = Self.currentSchemaVersion
        if let checkCounts {
            let listsEvery = try reader.optionalBool(root, "listsEveryCheck") ?? false
            setSortedChecks(self.checks, counts: checkCounts, listsEveryCheck: listsEvery)
            // What a defect counted but did not list is kept under the defect its listed findings
            // belong to now (found by fingerprint): a grouping changed since cannot count it twice.
            let byFingerprint = Dictionary(self.findings.map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first })
            for (count, occurrences) in defectCounts where count > occurrences.count {
                guard let first = occurrences.lazy.compactMap({ byFingerprint[$0] }).first else { continue }
                omittedFindings[Defect.id(of: first), default: 0] += count - occurrences.count
            }
        }
        requestHeaderNames = try reader.strings(root, "requestHeaders")
        if let commandNode = root["command"], !commandNode.isNull {
            let name = try reader.string(root, "command")
            guard let command = ReportCommand(rawValue: name) else {
                throw reader.error("\"command\" is '\(name)'; expected crawl or verify", at: commandNode.position)
            }
            self.command = command
        }
        for node in try reader.optionalArray(root, "sampling") {
            let object = try reader.object(node, "a sampled kind")
            sampling.append(SampledKind(kind: try reader.string(object, "kind"), seen: try reader.count(object, "seen"), checked: try reader.count(object, "checked")))
        }
        if let probeNode = root["probe"], !probeNode.isNull {
            let object = try reader.object(probeNode, "\"probe\"")
            probing = ProbeSummary(
                writes: try reader.count(object, "writes"), queryForms: try reader.count(object, "queryForms"),
                templatedReads: try reader.count(object, "templatedReads"), skipped: try reader.strings(object, "skipped"),
                requests: try reader.count(object, "requests"), notSent: try reader.count(object, "notSent"), created: try reader.count(object, "created"),
                deleted: try reader.count(object, "deleted"), leftBehind: try reader.strings(object, "leftBehind"),
                restored: try reader.count(object, "restored"), changed: try reader.strings(object, "changed"),
                interrupted: try reader.bool(object, "interrupted"))
        }
        if let coverageNode = root["operationCoverage"], !coverageNode.isNull {
            let object = try reader.object(coverageNode, "\"operationCoverage\"")
            operationCoverage = OperationCoverage(total: try reader.count(object, "total"), unreached: try reader.strings(object, "unreached"))
        }
    }
}

/// Renders ``CrawlReport`` as the JSON report: two-space indentation, a trailing newline.
public struct JSONReportRenderer: ReportRenderer {
    /// How many occurrences of each defect are listed (`nil`: all, `--all-occurrences`); a
    /// defect's `count` is always the whole number.
    public var occurrencesListed: Int?

    /// The JSON renderer; by default it lists the first ``Defect/occurrencesListed`` occurrences
    /// of each defect.
    public init(occurrencesListed: Int? = Defect.occurrencesListed) {
        self.occurrencesListed = occurrencesListed
    }

    /// The report as pretty JSON with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        var output = ""
        render(report, chunkBytes: ReportChunk.defaultSize) { output += $0 }
        return output
    }

    /// Streams the report: no JSON tree of the whole report and no string of the whole file,
    /// one finding or a batch of checks at a time (at most 8,192, with their text) and a buffer
    /// of about `chunkBytes`.
    public func render(_ report: CrawlReport, chunkBytes: Int, to sink: (String) throws -> Void) rethrows {
        let writer = JSONWriter(style: .pretty)
        var output = ""
        output.reserveCapacity(chunkBytes + 4096)
        try writer.writeObject(report.jsonMembers(occurrencesListed: occurrencesListed).map { (key: $0.key, value: $0.content) }, into: &output) { content, output, indent in
            switch content {
            case .value(let value):
                writer.write(value, indent: indent, into: &output)
            case .checks(let checks, let paths):
                try Self.writeChecks(checks, paths: paths, indent: indent, into: &output, chunkBytes: chunkBytes, sink: sink)
            case .elements(let elements):
                try writer.writeArray(elements(), indent: indent, into: &output) { element, output, indent in
                    writer.write(element, indent: indent, into: &output)
                    if output.utf8.count >= chunkBytes {
                        try sink(output)
                        output.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        output += "\n"
        try sink(output)
    }
}

extension ToolInfo {
    fileprivate var jsonValue: JSONValue {
        var members = [JSONMember("name", .string(name)), JSONMember("version", .string(version))]
        if let informationURI { members.append(JSONMember("informationUri", .string(informationURI))) }
        return .object(members)
    }
}

extension RuleConfiguration {
    fileprivate var jsonValue: JSONValue {
        .object([
            JSONMember("strict", .bool(strict)),
            JSONMember("rules", .object(RuleID.allCases.sorted().map { JSONMember($0.rawValue, .string(level(for: $0).rawValue)) })),
        ] + (insecureTLS ? [JSONMember("insecureTLS", .bool(true))] : []))
    }

    fileprivate init(_ node: JSONNode, reader: ReportJSONReader) throws(ReportDecodingError) {
        let object = try reader.object(node, "\"configuration\"")
        self.init(strict: try reader.bool(object, "strict"))
        if object["insecureTLS"] != nil { insecureTLS = try reader.bool(object, "insecureTLS") }
        guard let rules = object["rules"] else { return }
        guard let members = rules.members else {
            throw reader.error("expected \"rules\" to be an object of rule id to level, found \(rules.typeName)", at: rules.position)
        }
        for member in members {
            guard let rule = RuleID(rawValue: member.key) else {
                let valid = RuleID.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.error("unknown rule \"\(member.key)\"; valid rules: \(valid)", at: member.keyPosition)
            }
            guard let level = RuleLevel(rawValue: try reader.stringValue(member.value, member.key)) else {
                throw reader.error("expected error, warning or off for \"\(member.key)\"", at: member.value.position)
            }
            if level != RuleLevel(rule.defaultSeverity) { overrides[rule] = level }
        }
    }
}

extension ReportCounts {
    fileprivate var jsonValue: JSONValue {
        func number(_ value: Int) -> JSONValue { .number(String(value)) }
        return .object([
            JSONMember("resourcesFetched", number(resourcesFetched)),
            JSONMember("requests", number(requests)),
            JSONMember("linksFound", number(linksFound)),
            JSONMember("linksChecked", number(linksChecked)),
            JSONMember("linksNotChecked", number(linksNotChecked)),
            JSONMember("linksSkipped", number(linksSkipped)),
            JSONMember("errors", number(errors)),
            JSONMember("warnings", number(warnings)),
            JSONMember("defects", number(defects)),
            JSONMember("suppressed", number(suppressed)),
            JSONMember("infrastructureErrors", number(infrastructureErrors)),
        ])
    }
}

extension CrawlProblem {
    fileprivate var jsonValue: JSONValue {
        var members = [JSONMember("message", .string(message))]
        if let url { members.append(JSONMember("url", .string(url))) }
        return .object(members)
    }
}

extension Finding {
    fileprivate func jsonValue(paths: RelPathTable) -> JSONValue {
        var members = [
            JSONMember("rule", .string(rule.rawValue)),
            JSONMember("severity", .string(severity.rawValue)),
            JSONMember("method", .string(method)),
            JSONMember("url", .string(url)),
        ]
        func optional(_ key: String, _ value: String?) {
            if let value { members.append(JSONMember(key, .string(value))) }
        }
        optional("rel", rel)
        if let (via, step) = paths.members(of: relPath) {
            if let via { members.append(JSONMember("via", .number(String(via)))) }
            members.append(JSONMember("step", .string(step)))
        }
        optional("referrer", referrer)
        optional("sourcePointer", sourcePointer)
        optional("format", format)
        optional("declaredType", declaredType)
        optional("servedType", servedType)
        optional("expected", expected)
        optional("actual", actual)
        members.append(JSONMember("message", .string(message)))
        if discoveryIndex > 0 { members.append(JSONMember("index", .number(String(discoveryIndex)))) }
        if let probe {
            var request = [JSONMember("case", .string(probe.label))]
            if let field = probe.field { request.append(JSONMember("field", .string(field))) }
            if let contentType = probe.contentType { request.append(JSONMember("contentType", .string(contentType))) }
            if let body = probe.body { request.append(JSONMember("body", .string(body))) }
            if probe.sends > 1 { request.append(JSONMember("sends", .number(String(probe.sends)))) }
            members.append(JSONMember("probe", .object(request)))
        }
        members.append(JSONMember("fingerprint", .string(fingerprint)))
        members.append(JSONMember("defect", .string(Defect.id(of: self))))
        return .object(members)
    }

    fileprivate init(_ node: JSONNode, reader: ReportJSONReader, paths: RelPathResolver) throws(ReportDecodingError) {
        let object = try reader.object(node, "a finding")
        let severityNode = try reader.member(object, "severity")
        guard let severity = Severity(rawValue: try reader.stringValue(severityNode, "severity")) else {
            throw reader.error("expected error or warning for \"severity\"", at: severityNode.position)
        }
        self.init(
            rule: try reader.rule(object, "rule"), severity: severity, method: try reader.string(object, "method"),
            url: try reader.string(object, "url"), rel: try reader.optionalString(object, "rel"),
            declaredType: try reader.optionalString(object, "declaredType"),
            servedType: try reader.optionalString(object, "servedType"),
            sourcePointer: try reader.optionalString(object, "sourcePointer"),
            format: try reader.optionalString(object, "format"), relPath: try paths.relPath(of: object, reader: reader),
            referrer: try reader.optionalString(object, "referrer"), expected: try reader.optionalString(object, "expected"),
            actual: try reader.optionalString(object, "actual"), message: try reader.string(object, "message"),
            discoveryIndex: try object["index"].map { node throws(ReportDecodingError) in try reader.countValue(node, "index") } ?? 0)
        if let node = object["probe"] {
            let request = try reader.object(node, "a probe request")
            probe = ProbeRequest(
                label: try reader.string(request, "case"), field: try reader.optionalString(request, "field"),
                contentType: try reader.optionalString(request, "contentType"), body: try reader.optionalString(request, "body"),
                sends: try request["sends"].map { node throws(ReportDecodingError) in try reader.countValue(node, "sends") } ?? 1)
        }
    }
}

extension Defect {
    fileprivate func jsonValue(listing limit: Int?) -> JSONValue {
        .object([
            JSONMember("id", .string(id)),
            JSONMember("rule", .string(rule.rawValue)),
            JSONMember("severity", .string(severity.rawValue)),
            JSONMember("title", .string(title)),
            JSONMember("count", .number(String(count))),
            JSONMember("places", .array(places.map(JSONValue.string))),
            JSONMember("reproduction", .string(reproduction)),
            JSONMember("occurrences", .array(occurrences.prefix(limit ?? .max).map { .string($0.fingerprint) })),
        ])
    }
}


extension CrawlReport {
    /// The findings a JSON report lists: the first `limit` of each defect.
    func listedFindings(_ limit: Int?) -> [Finding] {
        guard let limit else { return findings }
        var listed: [String: Int] = [:]
        return findings.filter { finding in
            let id = Defect.id(of: finding)
            let count = listed[id, default: 0]
            guard count < limit else { return false }
            listed[id] = count + 1
            return true
        }
    }
}

