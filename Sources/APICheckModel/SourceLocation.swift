/// Where something was written: a file and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int = 1, column: Int = 1) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, as compilers print it.
    public var description: String { "\(path):\(line):\(column)" }
}

/// A problem found in a stub file, located like a compiler diagnostic.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    /// What kind of problem, for tools that treat some warnings as errors (the test helpers
    /// fail on a name a stub file misspells); `nil` for the rest.
    public var code: Code?

    /// Kinds of problem tools single out.
    public enum Code: String, Sendable, Hashable, Codable {
        /// An element, attribute or key the format does not know: usually a typo, whose value is
        /// then silently not used.
        case unknownName = "unknown-name"
        /// An old spelling still accepted.
        case deprecatedSpelling = "deprecated-spelling"
    }

    public init(_ severity: Severity, _ message: String, at location: SourceLocation, code: Code? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.code = code
    }

    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `path:line:column: error: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// The order compilers print in: by file, then line, then column (then message, so the
    /// order never depends on which check ran first).
    public static func precedes(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        (lhs.location.path, lhs.location.line, lhs.location.column, lhs.message)
            < (rhs.location.path, rhs.location.line, rhs.location.column, rhs.message)
    }
}
