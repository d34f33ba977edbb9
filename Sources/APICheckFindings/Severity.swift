import APICheckModel
import APICheckSpool

/// How bad a finding is. `error` fails the crawl; `warning` fails it only under `--strict`.
///
/// Silencing a rule (`off`) is configuration, not a severity: see ``RuleLevel``. A finding that
/// exists always has one of these two.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Reported; fails the crawl only under `--strict`.
    case warning
    /// Fails the crawl (exit code 1).
    case error

    /// `warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }

    /// `error` or `warning`, as written in reports and on the command line.
    public var description: String { rawValue }
}

/// What a user may set a rule to with `--rule id=level`: a severity, or `off`.
public enum RuleLevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Findings are errors.
    case error
    /// Findings are warnings.
    case warning
    /// The rule reports nothing.
    case off

    /// The level that reports a finding with `severity`.
    public init(_ severity: Severity) {
        switch severity {
        case .error: self = .error
        case .warning: self = .warning
        }
    }

    /// The severity findings get at this level, or `nil` when the rule is off.
    public var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .off: nil
        }
    }

    /// `error`, `warning` or `off`.
    public var description: String { rawValue }
}
