import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import APICheckSpool
import Foundation
import Testing

/// docs/reports.md and schemas/report.schema.json describe what the code writes; these tests
/// keep them from drifting apart.
@Suite struct DocumentationTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func read(_ path: String) throws -> String {
        try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    private func keys(_ value: JSONValue?) -> Set<String> {
        guard case .object(let members)? = value else { return [] }
        return Set(members.map(\.key))
    }

    private func strings(_ value: JSONValue?) -> Set<String> {
        guard case .array(let elements)? = value else { return [] }
        return Set(elements.compactMap { if case .string(let text) = $0 { text } else { nil } })
    }

    @Test func docsExplainEveryRuleWithTheSameWords() throws {
        let docs = try read("docs/reports.md")
        for rule in RuleID.allCases {
            #expect(docs.contains("### \(rule.rawValue)\n"), "\(rule)")
            #expect(docs.contains(rule.explanation), "\(rule)")
            #expect(docs.contains(rule.example), "\(rule)")
            #expect(docs.contains("| [`\(rule.rawValue)`](#\(rule.rawValue)) | \(rule.defaultSeverity) | \(rule.summary) |"), "\(rule)")
        }
    }

    @Test func schemaDescribesEveryMemberWeWrite() throws {
        let schema = try JSONParser().parseValue(Array(try read("schemas/report.schema.json").utf8))
        var everything = Finding(
            rule: .typeMatches, url: "u", rel: "r", declaredType: "d", servedType: "s", sourcePointer: "/p", format: "HAL", relPath: ["x", "r"],
            referrer: "f", expected: "e", actual: "a", message: "m", discoveryIndex: 7)
        everything.probe = ProbeRequest(label: "name: empty", field: "name", contentType: "application/json", body: "{}", sends: 2)
        // Every member written somewhere: discovery indices too (none in reports before version 4).
        let checks = SampleReports.checks.enumerated().map { position, check in
            var check = check
            check.discoveryIndex = position + 1
            return check
        }
        var report = SampleReports.report(
            findings: [everything], checks: checks, errors: [CrawlProblem(message: "m", url: "u")], shard: Shard(index: 1, count: 2))
        report = Baseline(findings: [SampleReports.brokenPoster]).apply(to: report)
        report.requestHeaderNames = ["Authorization"]
        report.configuration.insecureTLS = true
        report.sampling = [SampledKind(kind: "root → items[*]", seen: 9, checked: 3)]
        report.operationCoverage = OperationCoverage(total: 3, unreached: ["GET /movies/{id}/cast"])
        report.probing = ProbeSummary(writes: 2, queryForms: 1, templatedReads: 3, skipped: ["x"], requests: 9, created: 1, leftBehind: ["u"], restored: 1, changed: ["c"])
        let written = try JSONParser().parseValue(Array(JSONReportRenderer().render(report).utf8))

        #expect(keys(written) == keys(schema["properties"]))
        #expect(strings(schema["required"]).isSubset(of: keys(written)))
        #expect(keys(written["counts"]) == keys(schema.value(at: "/properties/counts/properties")))
        #expect(keys(written["tool"]) == keys(schema.value(at: "/properties/tool/properties")))
        #expect(keys(written["configuration"]) == keys(schema.value(at: "/properties/configuration/properties")))
        #expect(keys(written["baseline"]) == keys(schema.value(at: "/properties/baseline/properties")))
        #expect(keys(written.value(at: "/errors/0")) == keys(schema.value(at: "/properties/errors/items/properties")))
        #expect(keys(written.value(at: "/findings/0")) == keys(schema.value(at: "/$defs/finding/properties")))
        #expect(keys(written.value(at: "/defects/0")) == keys(schema.value(at: "/$defs/defect/properties")))
        #expect(keys(written.value(at: "/sampling/0")) == keys(schema.value(at: "/properties/sampling/items/properties")))
        #expect(keys(written["operationCoverage"]) == keys(schema.value(at: "/properties/operationCoverage/properties")))
        #expect(keys(written["probe"]) == keys(schema.value(at: "/properties/probe/properties")))
        #expect(keys(written.value(at: "/findings/0/probe")) == keys(schema.value(at: "/$defs/finding/properties/probe/properties")))
        #expect(keys(written.value(at: "/baseline/stale/0")) == keys(schema.value(at: "/$defs/baselineEntry/properties")))
        var checkKeys = Set<String>()
        if case .array(let checks)? = written["checks"] {
            for check in checks { checkKeys.formUnion(keys(check)) }
        }
        #expect(checkKeys == keys(schema.value(at: "/$defs/check/properties")))
        var countKeys = Set<String>()
        if case .array(let counts)? = written["checkCounts"] {
            for count in counts { countKeys.formUnion(keys(count)) }
        }
        #expect(countKeys == keys(schema.value(at: "/$defs/checkCount/properties")))
        var stepKeys = Set<String>()
        if case .array(let steps)? = written["paths"] {
            for step in steps { stepKeys.formUnion(keys(step)) }
        }
        #expect(stepKeys == keys(schema.value(at: "/$defs/pathStep/properties")))
        #expect(strings(schema.value(at: "/$defs/ruleId/enum")) == Set(RuleID.allCases.map(\.rawValue)))
        #expect(schema.value(at: "/properties/schemaVersion/const") == .number(String(CrawlReport.currentSchemaVersion)))
    }
}
