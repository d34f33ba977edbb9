import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool

/// Why a JSON report or baseline could not be read, located like a compiler diagnostic:
/// `reports/shard-2.json:14:7: error: expected a string for "url", found a number`.
public struct ReportDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or `<input>`) and the 1-based line and byte column.
    public var location: SourceLocation
    /// What is wrong there.
    public var message: String

    /// An error at `location`.
    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `path:line:column: error: message`.
    public var description: String { "\(location): error: \(message)" }
}

/// Typed, located reads from a parsed JSON document, shared by the report and baseline decoders.
/// Unknown members are ignored: a newer writer may add fields without a new schema version.
package struct ReportJSONReader {
    package let path: String

    package init(path: String?) {
        self.path = path ?? "<input>"
    }

    /// Parses `bytes`, refusing documents larger than `maximumBytes` or nested deeper than a
    /// report ever is.
    package func parse(_ bytes: [UInt8], maximumBytes: Int) throws(ReportDecodingError) -> JSONNode {
        guard bytes.count <= maximumBytes else {
            throw error("the file is \(bytes.count) bytes, more than the limit of \(maximumBytes)", at: JSONPosition(line: 1, column: 1))
        }
        do {
            return try JSONParser(maximumDepth: 32).parse(bytes)
        } catch {
            throw self.error(error.message, at: error.position)
        }
    }

    package func error(_ message: String, at position: JSONPosition) -> ReportDecodingError {
        ReportDecodingError(location: SourceLocation(path: path, line: position.line, column: position.column), message: message)
    }

    /// `node` itself, which must be an object.
    package func object(_ node: JSONNode, _ what: String) throws(ReportDecodingError) -> JSONNode {
        guard node.members != nil else { throw error("expected \(what) to be an object, found \(node.typeName)", at: node.position) }
        return node
    }

    package func member(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> JSONNode {
        guard let value = object[key] else { throw error("missing member \"\(key)\"", at: object.position) }
        return value
    }

    package func string(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> String {
        try stringValue(try member(object, key), key)
    }

    package func stringValue(_ node: JSONNode, _ key: String) throws(ReportDecodingError) -> String {
        guard case .string(let value) = node.kind else {
            throw error("expected a string for \"\(key)\", found \(node.typeName)", at: node.position)
        }
        return value
    }

    /// An optional member: absent and `null` both mean `nil`.
    package func optionalString(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> String? {
        guard let node = object[key] else { return nil }
        if case .null = node.kind { return nil }
        return try stringValue(node, key)
    }

    package func bool(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> Bool {
        let node = try member(object, key)
        guard case .bool(let value) = node.kind else {
            throw error("expected true or false for \"\(key)\", found \(node.typeName)", at: node.position)
        }
        return value
    }

    /// An optional member: absent and `null` both mean `nil`.
    package func optionalBool(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> Bool? {
        guard let node = object[key] else { return nil }
        if case .null = node.kind { return nil }
        return try bool(object, key)
    }

    /// A non-negative integer that fits the counters of a report.
    package func count(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> Int {
        try countValue(try member(object, key), key)
    }

    package func countValue(_ node: JSONNode, _ key: String) throws(ReportDecodingError) -> Int {
        guard case .number(let lexeme) = node.kind, let value = Int(lexeme), value >= 0, value <= 1_000_000_000_000 else {
            throw error("expected a non-negative integer for \"\(key)\", found \(describe(node))", at: node.position)
        }
        return value
    }

    package func optionalCount(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> Int? {
        guard let node = object[key] else { return nil }
        if case .null = node.kind { return nil }
        return try countValue(node, key)
    }

    /// A duration in seconds (`1.234`).
    package func duration(_ node: JSONNode, _ key: String) throws(ReportDecodingError) -> Duration {
        guard case .number(let lexeme) = node.kind, let duration = ReportTime.duration(seconds: lexeme) else {
            throw error("expected a non-negative number of seconds for \"\(key)\", found \(describe(node))", at: node.position)
        }
        return duration
    }

    package func optionalDuration(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> Duration? {
        guard let node = object[key] else { return nil }
        if case .null = node.kind { return nil }
        return try duration(node, key)
    }

    package func array(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> [JSONNode] {
        let node = try member(object, key)
        guard case .array(let elements) = node.kind else {
            throw error("expected an array for \"\(key)\", found \(node.typeName)", at: node.position)
        }
        return elements
    }

    package func optionalArray(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> [JSONNode] {
        guard let node = object[key] else { return [] }
        if case .null = node.kind { return [] }
        return try array(object, key)
    }

    package func strings(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> [String] {
        var result: [String] = []
        for element in try optionalArray(object, key) {
            result.append(try stringValue(element, key))
        }
        return result
    }

    /// A rule id, with the valid ones listed when it is unknown.
    package func rule(_ object: JSONNode, _ key: String) throws(ReportDecodingError) -> RuleID {
        let node = try member(object, key)
        let text = try stringValue(node, key)
        guard let rule = RuleID(rawValue: text) else {
            let valid = RuleID.allCases.map(\.rawValue).joined(separator: ", ")
            throw error("unknown rule \"\(text)\"; valid rules: \(valid)", at: node.position)
        }
        return rule
    }

    private func describe(_ node: JSONNode) -> String {
        if case .number(let lexeme) = node.kind { return lexeme.count > 24 ? String(lexeme.prefix(24)) + "…" : lexeme }
        return node.typeName
    }
}
