import APICheckFindings
import APICheckJSON
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct SARIFReportRendererTests {
    private func sarif(_ report: CrawlReport) throws -> JSONValue {
        try JSONParser().parseValue(Array(SARIFReportRenderer().render(report).utf8))
    }

    private func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let elements)? = value else { return [] }
        return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    private func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = value { return elements }
        return []
    }

    @Test func logHasTheRequiredStructure() throws {
        let log = try sarif(SampleReports.report())
        #expect(log["version"] == "2.1.0")
        #expect(log["$schema"] == .string(SARIFReportRenderer.schemaURI))
        let runs = array(log["runs"])
        try #require(runs.count == 1)
        let driver = try #require(runs[0]["tool"]?["driver"])
        #expect(driver["name"] == "apicheck")
        #expect(driver["version"] == "1.2.3")
        #expect(driver["informationUri"] == "https://example.com/apicheck")

        let rules = array(driver["rules"])
        #expect(rules.count == 16, "a crawl's log lists the crawl's rules, not verify's drift rules")
        #expect(Set(rules.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }) == Set(RuleID.rules(of: .crawl).map(\.rawValue)))
        for rule in rules {
            for path in ["/shortDescription/text", "/fullDescription/text", "/help/text", "/help/markdown", "/defaultConfiguration/level", "/name"] {
                guard case .string(let text)? = rule.value(at: path), !text.isEmpty else {
                    Issue.record("\(String(describing: rule["id"])) lacks \(path)")
                    continue
                }
            }
            let id = try #require(RuleID(rawValue: { if case .string(let id)? = rule["id"] { id } else { "" } }()))
            #expect(rule.value(at: "/defaultConfiguration/level") == .string(id.defaultSeverity.rawValue))
        }

        let results = array(runs[0]["results"])
        #expect(results.count == 3)
        let defects = SampleReports.report().defects
        for (result, defect) in zip(results, defects) {
            let finding = try #require(defect.occurrences.first)
            #expect(result["ruleId"] == .string(defect.rule.rawValue))
            guard case .number(let index)? = result["ruleIndex"], let ruleIndex = Int(index), rules.indices.contains(ruleIndex) else {
                Issue.record("ruleIndex missing")
                continue
            }
            #expect(rules[ruleIndex]["id"] == .string(defect.rule.rawValue))
            #expect(result["level"] == .string(defect.severity.rawValue))
            guard case .string(let message)? = result.value(at: "/message/text") else {
                Issue.record("message.text missing")
                continue
            }
            #expect(message.hasPrefix(defect.title))
            #expect(result.value(at: "/locations/0/physicalLocation/artifactLocation/uri") == .string(finding.url))
            #expect(result.value(at: "/locations/0/logicalLocations/0/kind") == "resource")
            #expect(result.value(at: "/locations/0/logicalLocations/0/fullyQualifiedName") == .string(finding.relPathDescription))
            #expect(result.value(at: "/partialFingerprints/apicheck~1defect~1v1") == .string(defect.id))
            #expect(result.value(at: "/properties/reproduction") == .string(defect.reproduction))
        }
        let poster = results[0]
        #expect(poster.value(at: "/locations/0/logicalLocations/1/fullyQualifiedName") == "https://api.example.com/movies/3#/_links/poster")
        #expect(poster.value(at: "/relatedLocations/0/physicalLocation/artifactLocation/uri") == .string(SampleReports.movie))
        #expect(strings(poster.value(at: "/properties/occurrenceFingerprints")) == [SampleReports.brokenPoster.fingerprint])
        #expect(results[1]["relatedLocations"] == nil)

        #expect(runs[0].value(at: "/invocations/0/executionSuccessful") == true)
        #expect(runs[0].value(at: "/invocations/0/startTimeUtc") == "2025-03-01T12:00:00.000Z")
        #expect(runs[0].value(at: "/invocations/0/endTimeUtc") == "2025-03-01T12:00:03.250Z")
    }

    @Test func infrastructureErrorsAreNotifications() throws {
        let log = try sarif(SampleReports.report(findings: [], errors: [CrawlProblem(message: "root unreachable", url: SampleReports.root)]))
        let invocation = try #require(log.value(at: "/runs/0/invocations/0"))
        #expect(invocation["executionSuccessful"] == false)
        #expect(invocation.value(at: "/toolExecutionNotifications/0/message/text") == "root unreachable")
        #expect(invocation.value(at: "/toolExecutionNotifications/0/level") == "error")
        #expect(invocation.value(at: "/exitCode") == .number("2"))
        #expect(array(log.value(at: "/runs/0/results")).isEmpty)
    }

    @Test func hostileTextStaysInsideStrings() throws {
        let hostile = "\"}]} \u{0}\u{1B}\n\u{2028} é"
        let log = try sarif(SampleReports.report(findings: [Finding(rule: .typeMatches, url: "https://h/", rel: hostile, message: hostile)]))
        #expect(log.value(at: "/runs/0/results/0/message/text") == .string(hostile + " (1 occurrence)"))
        #expect(log.value(at: "/runs/0/results/0/locations/0/message/text") == .string("GET https://h/ via root; link: rel " + hostile))
    }

    @Test func templatesAndOddURLsBecomeValidURIReferences() throws {
        let finding = Finding(rule: .templateValid, url: "https://h/movies{?page", referrer: "https://h/a b", message: "unclosed expression")
        let log = try sarif(SampleReports.report(findings: [finding]))
        #expect(log.value(at: "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri") == "https://h/movies%7B?page")
        #expect(log.value(at: "/runs/0/results/0/relatedLocations/0/physicalLocation/artifactLocation/uri") == "https://h/a%20b")
        #expect(log.value(at: "/runs/0/results/0/message/text") == "unclosed expression (1 occurrence)")
    }
}
