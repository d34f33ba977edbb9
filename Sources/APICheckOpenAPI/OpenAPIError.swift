/// Why an OpenAPI document cannot be used, located like a compiler diagnostic:
/// `openapi.yaml:41:7: error: expected a string at paths./movies.get.responses.200.description`.
///
/// A document that does not load is bad input (the CLI exits 2), never a crash.
public struct OpenAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case syntax
        case structure
        case limit
        case unsupportedVersion
        case reference
    }

    private var code: Code
    /// The file the problem is in, as the user named it.
    public var file: String
    /// 1-based; `0` when the place is the whole file.
    public var line: Int
    public var column: Int
    /// What is wrong and, where there is one, what to do.
    public var message: String

    private init(_ code: Code, file: String, line: Int, column: Int, _ message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// The text is not valid YAML or JSON.
    public static func syntax(_ message: String, file: String, line: Int, column: Int) -> OpenAPIError {
        OpenAPIError(.syntax, file: file, line: line, column: column, message)
    }

    /// Valid YAML/JSON that is not a valid OpenAPI document (a missing field, a wrong type).
    public static func structure(_ message: String, file: String, line: Int, column: Int) -> OpenAPIError {
        OpenAPIError(.structure, file: file, line: line, column: column, message)
    }

    /// A reading limit was reached (size, nodes with aliases, depth, external files).
    public static func limit(_ message: String, file: String, line: Int = 0, column: Int = 0) -> OpenAPIError {
        OpenAPIError(.limit, file: file, line: line, column: column, message)
    }

    /// Swagger 2.0 or an OpenAPI version this reader does not know.
    public static func unsupportedVersion(_ message: String, file: String, line: Int, column: Int) -> OpenAPIError {
        OpenAPIError(.unsupportedVersion, file: file, line: line, column: column, message)
    }

    /// A `$ref` that cannot be followed (remote, outside the document's folder, missing).
    public static func reference(_ message: String, file: String, line: Int, column: Int) -> OpenAPIError {
        OpenAPIError(.reference, file: file, line: line, column: column, message)
    }

    /// Whether a reading limit stopped the document (tests and the fuzz target tell limits from bugs).
    public var isLimit: Bool { code == .limit }

    /// `file:line:column: error: message` (`file: error: message` without a place).
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
    }
}

/// Something in a document that loads but is left unchecked, located:
/// `openapi.json:172:13: warning: the pattern "^(?:…" is not an ECMA-262 regular expression, …`.
public struct OpenAPIWarning: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// 1-based; `0` when the place is the whole file.
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String {
        line > 0 ? "\(file):\(line):\(column): warning: \(message)" : "\(file): warning: \(message)"
    }

    /// One warning per message: the same pattern in many schemas (DRF writes its URL pattern into
    /// every hyperlinked field) is said once, at its first place, with the others counted.
    static func collapsed(_ warnings: [OpenAPIWarning]) -> [OpenAPIWarning] {
        var order: [String] = []
        var places: [String: [OpenAPIWarning]] = [:]
        for warning in warnings {
            if places[warning.message] == nil { order.append(warning.message) }
            places[warning.message, default: []].append(warning)
        }
        return order.map { message in
            let all = places[message]!
            var first = all[0]
            if all.count > 1 {
                let others = all.dropFirst().prefix(5).map { "\($0.line):\($0.column)" }.joined(separator: ", ")
                first.message += " (the same at \(all.count - 1) more place\(all.count == 2 ? "" : "s"): \(others)\(all.count > 6 ? ", …" : ""))"
            }
            return first
        }
    }
}
