import APICheckJSON

/// A schema that cannot be compiled: where, and why.
///
/// Prints like a compiler diagnostic, `schema.json:12:5: error: "minLength" must be a
/// non-negative integer`, with the parts that are unknown left out.
public struct JSONSchemaError: Error, Sendable, CustomStringConvertible, Hashable {
    /// The file the schema was read from, when the caller said.
    public var file: String?
    /// 1-based line of the offending keyword, when the schema came with positions (`JSONNode`).
    public var line: Int?
    /// 1-based byte column of the offending keyword.
    public var column: Int?
    /// What is wrong, for a person.
    public var message: String
    /// A JSON pointer to the offending place in its document.
    public var keywordLocation: String
    /// The absolute URI of a `$ref` that no registered document and no `retrieve` could supply.
    public var unresolvedReference: String?

    /// An error at a place in a schema.
    public init(message: String, keywordLocation: String = "", file: String? = nil, line: Int? = nil, column: Int? = nil, unresolvedReference: String? = nil) {
        self.message = message
        self.keywordLocation = keywordLocation
        self.file = file
        self.line = line
        self.column = column
        self.unresolvedReference = unresolvedReference
    }

    /// `path:line:col: error: message`, or the available parts of it; the keyword location is
    /// added when there is no line to point at.
    public var description: String {
        var prefix = ""
        if let file { prefix += file + ":" }
        if let line {
            prefix += "\(line):"
            if let column { prefix += "\(column):" }
        }
        let place = line == nil && !keywordLocation.isEmpty ? " (at \(keywordLocation))" : ""
        return (prefix.isEmpty ? "" : prefix + " ") + "error: " + message + place
    }

    static func unresolved(_ reference: String, uri: String, at pointer: String) -> JSONSchemaError {
        JSONSchemaError(message: "cannot resolve \"\(reference)\" (\(uri))", keywordLocation: pointer, unresolvedReference: uri)
    }
}
