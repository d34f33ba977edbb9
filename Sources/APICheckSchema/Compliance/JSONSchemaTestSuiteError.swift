/// Why the JSON-Schema-Test-Suite could not be read: a missing folder or file, or a file that is not
/// shaped like the suite's (an array of `{description, schema, tests: [{description, data, valid}]}`).
/// A failing test is never an error; it is counted in the `ComplianceReport`.
public struct JSONSchemaTestSuiteError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case unreadable(reason: String)
        case malformed(reason: String)
        case unsupportedDraft(JSONSchemaDraft)
    }

    private var code: Code
    /// The file or folder concerned.
    public var path: String

    static func unreadable(_ path: String, reason: String) -> Self { Self(code: .unreadable(reason: reason), path: path) }
    static func malformed(_ path: String, _ reason: String) -> Self { Self(code: .malformed(reason: reason), path: path) }
    static func unsupportedDraft(_ draft: JSONSchemaDraft) -> Self { Self(code: .unsupportedDraft(draft), path: "") }

    public var description: String {
        switch code {
        case .unreadable(let reason): return "\(path): error: cannot read: \(reason)"
        case .malformed(let reason): return "\(path): error: not a JSON-Schema-Test-Suite file: \(reason)"
        case .unsupportedDraft(let draft): return "error: the JSON-Schema-Test-Suite has no tests for \(draft.rawValue)"
        }
    }
}
