import APICheckModel
import APICheckSpool

/// Which rules report findings, at which severity, and whether warnings fail the crawl.
///
/// Built from the command line:
/// ```swift
/// let rules = try RuleConfiguration(parsing: ["type-syntax=error", "self-consistent=off"], strict: false)
/// rules.severity(for: .typeSyntax)       // .error
/// rules.severity(for: .selfConsistent)   // nil: do not report
/// ```
public struct RuleConfiguration: Sendable, Hashable {
    /// Levels that differ from, or restate, the defaults. Rules not listed use their default.
    public var overrides: [RuleID: RuleLevel]
    /// `--strict`: warnings fail the crawl too (exit code 1).
    public var strict: Bool
    /// `--insecure`: the run did not check the API's TLS certificates (issuer, dates, host name),
    /// so it says nothing about them. Reports show it.
    public var insecureTLS = false

    /// Every rule at its default severity, unless `overrides` says otherwise.
    public init(overrides: [RuleID: RuleLevel] = [:], strict: Bool = false) {
        self.overrides = overrides
        self.strict = strict
    }

    /// Parses `--rule` values (`id=error|warning|off`); a later value for the same rule wins.
    public init(parsing specifications: [String], strict: Bool = false) throws(RuleConfigurationError) {
        self.init(strict: strict)
        for specification in specifications {
            try apply(specification)
        }
    }

    /// Applies one `id=level` setting (ids and levels are case-insensitive).
    public mutating func apply(_ specification: String) throws(RuleConfigurationError) {
        guard let equals = specification.firstIndex(of: "=") else {
            throw .missingLevel(specification)
        }
        let id = specification[..<equals].trimmedASCIIWhitespace
        let levelText = specification[specification.index(after: equals)...].trimmedASCIIWhitespace
        guard let rule = RuleID(rawValue: id.lowercased()) else {
            throw .unknownRule(id, in: specification)
        }
        guard let level = RuleLevel(rawValue: levelText.lowercased()) else {
            throw .unknownLevel(levelText, in: specification)
        }
        overrides[rule] = level
    }

    /// The level in force for `rule`.
    public func level(for rule: RuleID) -> RuleLevel {
        overrides[rule] ?? RuleLevel(rule.defaultSeverity)
    }

    /// The severity findings of `rule` get, or `nil` when the rule is off and must not report.
    public func severity(for rule: RuleID) -> Severity? {
        level(for: rule).severity
    }

    /// Whether a finding of this severity fails the crawl (exit code 1).
    public func fails(_ severity: Severity) -> Bool {
        severity == .error || strict
    }

    /// `findings` with this configuration's severities: findings of rules that are off are
    /// dropped, and the others take their rule's level, with one exception: at the rule's default
    /// level, a finding below it keeps its own severity. A body over `--max-body` is a
    /// `link-resolves` (or `drift-shape`) warning, a limit of the run rather than a broken link,
    /// which the rule's default, error, would misstate; `--rule link-resolves=warning` or
    /// `=error`… set explicitly to another level apply to it like to any finding. Re-applying with
    /// another configuration (`report merge --rule …`) re-levels from the findings as written.
    public func apply(to findings: [Finding]) -> [Finding] {
        findings.compactMap { finding in
            guard let severity = severity(for: finding.rule) else { return nil }
            var finding = finding
            let keepsOwn = severity == finding.rule.defaultSeverity && finding.severity < severity
            if !keepsOwn { finding.severity = severity }
            return finding
        }
    }

    /// Equal when every rule has the same level and strictness matches, however the levels
    /// were written (an override that restates a default changes nothing).
    public static func == (lhs: RuleConfiguration, rhs: RuleConfiguration) -> Bool {
        lhs.strict == rhs.strict && RuleID.allCases.allSatisfy { lhs.level(for: $0) == rhs.level(for: $0) }
    }

    /// Hashes the levels in force, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(strict)
        for rule in RuleID.allCases { hasher.combine(level(for: rule)) }
    }
}

/// A `--rule` value that could not be understood. The description names the valid choices.
public struct RuleConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case missingLevel(String)
        case unknownRule(String, String)
        case unknownLevel(String, String)
    }

    private let code: Code

    /// A value without `=`, such as `--rule link-resolves`.
    public static func missingLevel(_ specification: String) -> RuleConfigurationError {
        RuleConfigurationError(code: .missingLevel(specification))
    }

    /// A rule id that is not one of ``RuleID``.
    public static func unknownRule(_ id: String, in specification: String) -> RuleConfigurationError {
        RuleConfigurationError(code: .unknownRule(id, specification))
    }

    /// A level that is not `error`, `warning` or `off`.
    public static func unknownLevel(_ level: String, in specification: String) -> RuleConfigurationError {
        RuleConfigurationError(code: .unknownLevel(level, specification))
    }

    private static var validRules: String { RuleID.allCases.map(\.rawValue).joined(separator: ", ") }
    private static var validLevels: String { RuleLevel.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The message for the command line, naming the valid choices.
    public var description: String {
        switch code {
        case .missingLevel(let specification):
            "--rule '\(specification)' needs a level: write ID=LEVEL with LEVEL one of \(Self.validLevels)"
        case .unknownRule(let id, let specification):
            "--rule '\(specification)': unknown rule '\(id)'; valid rules: \(Self.validRules)"
        case .unknownLevel(let level, let specification):
            "--rule '\(specification)': unknown level '\(level)'; valid levels: \(Self.validLevels)"
        }
    }
}
