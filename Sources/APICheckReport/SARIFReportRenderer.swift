import APICheckJSON
import Foundation

/// SARIF 2.1.0 (`--format sarif`) for code-scanning dashboards: one run, every rule in
/// `tool.driver.rules` with its description, help and default level, one result per finding.
///
/// A result's location is the URL it concerns (`physicalLocation.artifactLocation.uri`,
/// percent-encoded where the URL is not a valid URI reference, e.g. an unexpanded template), with
/// logical locations for the path of rels and the source pointer, and the referrer as a related
/// location. `partialFingerprints["apicheck/v1"]` is ``Finding/fingerprint``, so dashboards
/// track a finding across runs the way baselines do. Infrastructure errors are tool execution
/// notifications of the invocation, which then is not successful.
public struct SARIFReportRenderer: ReportRenderer {
    /// The SARIF 2.1.0 schema (OASIS, errata 01).
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The key of ``Finding/fingerprint`` in `partialFingerprints`.
    public static let fingerprintKey = "apicheck/v1"

    /// The SARIF renderer.
    public init() {}

    /// The SARIF log as pretty JSON with a trailing newline.
    public func render(_ report: CrawlReport) -> String {
        JSONWriter(style: .pretty).string(sarif(report)) + "\n"
    }

    /// The SARIF log as a JSON value.
    public func sarif(_ report: CrawlReport) -> JSONValue {
        let rules = RuleID.allCases.sorted()
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
        if let baseline = report.baseline { properties.append(JSONMember("suppressedByBaseline", .number(String(baseline.suppressed)))) }

        let run: JSONValue = .object([
            JSONMember("tool", .object([JSONMember("driver", .object(driver))])),
            JSONMember("invocations", .array([invocation])),
            JSONMember("columnKind", "unicodeCodePoints"),
            JSONMember("results", .array(report.findings.map { result($0, ruleIndex: rules.firstIndex(of: $0.rule) ?? 0) })),
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

    private func result(_ finding: Finding, ruleIndex: Int) -> JSONValue {
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
        var location = physicalLocationMembers(finding.url)
        location.append(JSONMember("logicalLocations", .array(logical)))

        var members: [JSONMember] = [
            JSONMember("ruleId", .string(finding.rule.rawValue)),
            JSONMember("ruleIndex", .number(String(ruleIndex))),
            JSONMember("level", .string(finding.severity.rawValue)),
            JSONMember("message", .object([JSONMember("text", .string("\(finding.method) \(finding.url): \(finding.messageWithEvidence)"))])),
            JSONMember("locations", .array([.object(location)])),
        ]
        if let referrer = finding.referrer {
            var related = physicalLocationMembers(referrer)
            related.insert(JSONMember("id", 1), at: 0)
            related.append(JSONMember("message", .object([JSONMember("text", "The resource the link was found on.")])))
            members.append(JSONMember("relatedLocations", .array([.object(related)])))
        }
        members.append(JSONMember("partialFingerprints", .object([JSONMember(Self.fingerprintKey, .string(finding.fingerprint))])))

        var properties: [JSONMember] = [
            JSONMember("method", .string(finding.method)),
            JSONMember("relPath", .array(finding.relPath.map(JSONValue.string))),
        ]
        func optional(_ key: String, _ value: String?) {
            if let value { properties.append(JSONMember(key, .string(value))) }
        }
        optional("rel", finding.rel)
        optional("sourcePointer", finding.sourcePointer)
        optional("format", finding.format)
        optional("declaredType", finding.declaredType)
        optional("servedType", finding.servedType)
        optional("expected", finding.expected)
        optional("actual", finding.actual)
        members.append(JSONMember("properties", .object(properties)))
        return .object(members)
    }

    /// A JSON pointer is a URI fragment (RFC 6901 §6); other pointers (XPath, `Link header`)
    /// are written beside the URL.
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
