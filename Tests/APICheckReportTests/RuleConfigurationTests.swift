import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct RuleConfigurationTests {
    @Test func theTwentySixRuleIDsAndTheirDefaults() {
        let expected: [String: Severity] = [
            "link-resolves": .error, "method-valid": .error, "type-matches": .error, "type-syntax": .warning,
            "body-schema": .error, "content-type-present": .error, "self-consistent": .warning, "duplicate-rel": .warning, "format-shape": .warning,
            "template-valid": .error, "crawl-limit": .warning, "drift-status": .error, "drift-type": .error, "drift-links": .error,
            "drift-shape": .error, "drift-header": .error, "drift-coverage": .warning,
            "openapi-operation": .warning, "openapi-status": .error, "openapi-content-type": .error, "openapi-body": .error, "openapi-header": .warning,
            "probe-server-error": .error, "probe-response-type": .error, "probe-accepts-invalid": .warning, "probe-created-resolves": .error,
        ]
        #expect(Set(RuleID.allCases.map(\.rawValue)) == Set(expected.keys))
        #expect(RuleID.allCases.count == 26)
        for rule in RuleID.allCases {
            #expect(rule.defaultSeverity == expected[rule.rawValue], "\(rule)")
            #expect(!rule.summary.isEmpty && !rule.explanation.isEmpty && !rule.example.isEmpty, "\(rule)")
            #expect(rule.explanation.count > rule.summary.count, "\(rule)")
        }
    }

    @Test func parsesLevelsAndTheLastSettingWins() throws {
        let configuration = try RuleConfiguration(
            parsing: ["type-syntax=error", "self-consistent=off", " Link-Resolves = Warning ", "type-syntax=warning", "type-syntax=error"],
            strict: true)
        #expect(configuration.severity(for: .typeSyntax) == .error)
        #expect(configuration.severity(for: .selfConsistent) == nil)
        #expect(configuration.level(for: .selfConsistent) == .off)
        #expect(configuration.severity(for: .linkResolves) == .warning)
        #expect(configuration.severity(for: .methodValid) == .error)
        #expect(configuration.severity(for: .formatShape) == .warning)
        #expect(configuration.strict)
        #expect(configuration.fails(.warning))
        #expect(!RuleConfiguration().fails(.warning))
        #expect(RuleConfiguration().fails(.error))
    }

    @Test func unknownRuleListsTheValidOnes() {
        let error = #expect(throws: RuleConfigurationError.self) { try RuleConfiguration(parsing: ["link-resolve=error"]) }
        let text = error?.description ?? ""
        #expect(text.contains("unknown rule 'link-resolve'"), "\(text)")
        for rule in RuleID.allCases { #expect(text.contains(rule.rawValue), "\(text)") }
    }

    @Test func unknownLevelListsTheValidOnes() {
        let error = #expect(throws: RuleConfigurationError.self) { try RuleConfiguration(parsing: ["type-syntax=fatal"]) }
        #expect(error?.description == "--rule 'type-syntax=fatal': unknown level 'fatal'; valid levels: error, warning, off")
    }

    @Test(arguments: ["type-syntax", "", "=error", "type-syntax="])
    func malformedSettingsAreRefused(specification: String) {
        let error = #expect(throws: RuleConfigurationError.self) { try RuleConfiguration(parsing: [specification]) }
        #expect(error?.description.contains("--rule '\(specification)'") == true, "\(String(describing: error))")
    }

    @Test func applyingToFindingsDropsSilencedRulesAndRelevelsTheRest() throws {
        let configuration = try RuleConfiguration(parsing: ["format-shape=off", "type-syntax=error"])
        let findings = configuration.apply(to: [SampleReports.brokenPoster, SampleReports.jpgType, SampleReports.embeddedArray])
        #expect(findings.map(\.rule) == [.linkResolves, .typeSyntax])
        #expect(findings.map(\.severity) == [.error, .error])
    }

    @Test func restatingADefaultChangesNothing() throws {
        #expect(try RuleConfiguration(parsing: ["link-resolves=error"]) == RuleConfiguration())
        #expect(try RuleConfiguration(parsing: ["link-resolves=warning"]) != RuleConfiguration())
        #expect(RuleConfiguration(strict: true) != RuleConfiguration())
    }

    @Test func findingsTakeTheirRulesDefaultSeverityUnlessGiven() {
        #expect(Finding(rule: .typeSyntax, url: "u", message: "m").severity == .warning)
        #expect(Finding(rule: .typeSyntax, severity: .error, url: "u", message: "m").severity == .error)
    }
}

/// A limit's warning stays a warning at the rule's default level; any level set explicitly, or
/// set back to the default, re-levels findings.
@Suite struct RuleLevelApplicationTests {
    private let limit = Finding(rule: .linkResolves, severity: .warning, url: "https://h/big", message: "the body is larger than the crawl reads (--max-body)")
    private let syntax = Finding(rule: .typeSyntax, severity: .error, url: "https://h/x", message: "m")

    @Test func aLimitWarningStaysAWarningAtTheDefaultLevel() {
        #expect(RuleConfiguration().apply(to: [limit]).map(\.severity) == [.warning])
        #expect(RuleConfiguration().apply(to: RuleConfiguration().apply(to: [limit])).map(\.severity) == [.warning], "applying twice changes nothing")
    }

    @Test func settingARuleBackToItsDefaultReLevelsItsFindings() throws {
        var raised = RuleConfiguration()
        try raised.apply("type-syntax=error")
        let written = raised.apply(to: [syntax])
        #expect(written.map(\.severity) == [.error])
        // `report merge --rule type-syntax=warning` on that report: the configuration and the
        // findings agree again.
        var lowered = RuleConfiguration()
        try lowered.apply("type-syntax=warning")
        #expect(lowered.apply(to: written).map(\.severity) == [.warning])
        var off = RuleConfiguration()
        try off.apply("link-resolves=off")
        #expect(off.apply(to: [limit]).isEmpty)
    }
}
