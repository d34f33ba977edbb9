import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool
import Foundation

/// SARIF 2.1.0 (`--format sarif`) for code-scanning dashboards: one run, every rule in
/// `tool.driver.rules` with its description, help and default level, one result per defect.
///
/// A result's locations are its occurrences: each the URL it concerns
/// (`physicalLocation.artifactLocation.uri`, percent-encoded where the URL is not a valid URI
/// reference, e.g. an unexpanded template), with logical locations for the path of rels and the
/// source pointer. `partialFingerprints["apicheck/defect/v1"]` is ``Defect/id``, so dashboards
/// track a defect across runs however many links it touches. Infrastructure errors are tool execution
/// notifications of the invocation, which then is not successful.
public struct SARIFReportRenderer: ReportRenderer {
    /// The SARIF 2.1.0 schema (OASIS, errata 01).
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The key of ``Defect/id`` in `partialFingerprints` (a defect keeps its id across runs).
    public static let fingerprintKey = "apicheck/defect/v1"

    /// The SARIF renderer.
    public init() {}

    /// The SARIF log as pretty JSON with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        JSONWriter(style: .pretty).string(sarif(report)) + "\n"
    }

    /// The SARIF log as a JSON value.
    public func sarif(_ report: CrawlReport) -> JSONValue {
        let rules = RuleID.rules(of: report.command)
        var driver: [JSONMember] = [
            JSONMember("name", .string(report.tool.name)),
            JSONMember("version", .string(report.tool.version)),
        ]
        if let uri = report.tool.informationURI { driver.append(JSONMember("informationUri", .string(uri))) }
        driver.append(JSONMember("rules", .array(rules.map(rule))))

        let end = Date(timeIntervalSince1970: Double(ReportTime.milliseconds(report.startTime) + ReportTime.milliseconds(report.duration)) / 1000)
        let invocation: JSONValue = .object([
            JSONMember("executionSuccessful", .bool(report.errors.isEmpty)),
            JSONMember("startTimeUtc", .string(ReportTime.iso8601(report.startTime))),
            JSONMember("endTimeUtc", .string(ReportTime.iso8601(end))),
            JSONMember("exitCode", .number(String(report.exitCode.rawValue))),
            JSONMember(
                "toolExecutionNotifications",
                .array(
                    report.errors.map { problem in
                        var members = [
                            JSONMember("level", "error"),
                            JSONMember("message", .object([JSONMember("text", .string(problem.message))])),
                        ]
                        if let url = problem.url {
                            members.append(JSONMember("locations", .array([physicalLocation(url)])))
                        }
                        return .object(members)
                    })),
        ])

        var properties: [JSONMember] = [JSONMember("root", .string(report.root))]
        if let shard = report.shard { properties.append(JSONMember("shard", .string(shard.description))) }
        properties.append(JSONMember("strict", .bool(report.configuration.strict)))
        if report.configuration.insecureTLS { properties.append(JSONMember("insecureTLS", .bool(true))) }
        if let baseline = report.baseline { properties.append(JSONMember("suppressedByBaseline", .number(String(baseline.suppressed)))) }

        let run: JSONValue = .object([
            JSONMember("tool", .object([JSONMember("driver", .object(driver))])),
            JSONMember("invocations", .array([invocation])),
            JSONMember("columnKind", "unicodeCodePoints"),
            JSONMember("results", .array(report.defects.map { result($0, ruleIndex: rules.firstIndex(of: $0.rule) ?? 0) })),
            JSONMember("properties", .object(properties)),
        ])
        return .object([
            JSONMember("$schema", .string(Self.schemaURI)),
            JSONMember("version", "2.1.0"),
            JSONMember("runs", .array([run])),
        ])
    }

    private func rule(_ rule: RuleID) -> JSONValue {
        .object([
            JSONMember("id", .string(rule.rawValue)),
            JSONMember("name", .string(rule.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())),
            JSONMember("shortDescription", .object([JSONMember("text", .string(rule.summary))])),
            JSONMember("fullDescription", .object([JSONMember("text", .string(rule.explanation))])),
            JSONMember(
                "help",
                .object([
                    JSONMember("text", .string("\(rule.explanation)\n\nExample: \(rule.example)")),
                    JSONMember("markdown", .string("\(rule.explanation)\n\n**Example:** \(rule.example)")),
                ])),
            JSONMember("defaultConfiguration", .object([JSONMember("level", .string(rule.defaultSeverity.rawValue))])),
        ])
    }

    /// One result per defect: its first occurrence as the location, every occurrence (URL,
    /// method, rel path, link) as a location too, and the defect id as the fingerprint, so a
    /// defect keeps its identity across runs however many links it touches.
    private func result(_ defect: Defect, ruleIndex: Int) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("ruleId", .string(defect.rule.rawValue)),
            JSONMember("ruleIndex", .number(String(ruleIndex))),
            JSONMember("level", .string(defect.severity.rawValue)),
            JSONMember("message", .object([JSONMember("text", .string("\(defect.title) (\(defect.count) \(defect.count == 1 ? "occurrence" : "occurrences"))"))])),
            JSONMember("locations", .array(defect.occurrences.map(location))),
        ]
        // The resources the links were found on, each once.
        var referrers: [String] = []
        for finding in defect.occurrences { if let referrer = finding.referrer, !referrers.contains(referrer) { referrers.append(referrer) } }
        if !referrers.isEmpty {
            members.append(
                JSONMember(
                    "relatedLocations",
                    .array(referrers.enumerated().map { index, referrer in
                        var related = physicalLocationMembers(referrer)
                        related.insert(JSONMember("id", .number(String(index + 1))), at: 0)
                        related.append(JSONMember("message", .object([JSONMember("text", "A resource the link was found on.")])))
                        return .object(related)
                    })))
        }
        members.append(JSONMember("partialFingerprints", .object([JSONMember(Self.fingerprintKey, .string(defect.id))])))
        members.append(
            JSONMember(
                "properties",
                .object([
                    JSONMember("count", .number(String(defect.count))),
                    JSONMember("places", .array(defect.places.map(JSONValue.string))),
                    JSONMember("reproduction", .string(defect.reproduction)),
                    JSONMember("occurrenceFingerprints", .array(defect.occurrences.map { .string($0.fingerprint) })),
                ])))
        return .object(members)
    }

    private func location(_ finding: Finding) -> JSONValue {
        var logical: [JSONValue] = [
            .object([
                JSONMember("name", .string(finding.relPath.last ?? "root")),
                JSONMember("fullyQualifiedName", .string(finding.relPathDescription)),
                JSONMember("kind", "resource"),
            ])
        ]
        if let pointer = finding.sourcePointer {
            logical.append(
                .object([
                    JSONMember("name", .string(pointer)),
                    JSONMember("fullyQualifiedName", .string(pointerLocation(finding.referrer ?? finding.url, pointer))),
                ]))
        }
        var members = physicalLocationMembers(finding.url)
        members.append(JSONMember("logicalLocations", .array(logical)))
        var text = "\(finding.method) \(finding.url) via \(finding.relPathDescription)"
        if let link = finding.linkDescription { text += "; link: \(link)" }
        members.append(JSONMember("message", .object([JSONMember("text", .string(text))])))
        return .object(members)
    }

    private func pointerLocation(_ url: String, _ pointer: String) -> String {
        pointer.hasPrefix("/") && !url.contains("#") ? url + "#" + pointer : url + " (" + pointer + ")"
    }

    private func physicalLocationMembers(_ uri: String) -> [JSONMember] {
        [
            JSONMember(
                "physicalLocation",
                .object([JSONMember("artifactLocation", .object([JSONMember("uri", .string(Escaping.uriReference(uri)))]))]))
        ]
    }

    private func physicalLocation(_ uri: String) -> JSONValue {
        .object(physicalLocationMembers(uri))
    }
}
