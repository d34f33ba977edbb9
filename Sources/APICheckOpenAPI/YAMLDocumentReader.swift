import APICheckJSON
import Foundation
import Yams

/// YAML → ``JSONNode`` with each node's line and column, by walking Yams' composed node tree
/// under a budget (``OpenAPIReadLimits``): nodes with aliases counted at every use, depth,
/// and duplicate keys rejected (YAML 1.2 forbids them; Yams' composer keeps both).
///
/// Only what JSON can hold is accepted: scalars become strings, numbers, booleans and null by
/// their resolved tag; keys are read as the text they are written with (`200:` is the key `"200"`).
struct YAMLDocumentReader {
    var limits: OpenAPIReadLimits
    var file: String

    func read(_ text: String) throws(OpenAPIError) -> JSONNode {
        if let problem = YAMLAliasKeys.problem(in: text) {
            throw .limit(problem.message, file: file, line: problem.line, column: problem.column)
        }
        let composed: Node?
        do {
            composed = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw located(error, in: text)
        } catch {
            throw .syntax("\(error)", file: file, line: 1, column: 1)
        }
        guard let composed else { throw .structure("the document is empty", file: file, line: 1, column: 1) }
        var sizes: [NodePlace: Int] = [:]
        _ = try measure(composed, depth: 0, sizes: &sizes)
        return try convert(composed, depth: 0)
    }

    /// A node's place in the text and its kind: composed aliases are the anchored node itself, so
    /// every use of an anchor has the anchor's place.
    private struct NodePlace: Hashable {
        var line: Int
        var column: Int
        var kind: UInt8
    }

    /// The nodes `node` stands for once its aliases are expanded (keys counted), checked against
    /// the budget and the depth limit before anything is built. Each anchored node is measured
    /// once and its total reused at every alias, so a billion-laughs bomb is refused after a few
    /// hundred steps instead of after walking two million nodes.
    private func measure(_ node: Node, depth: Int, sizes: inout [NodePlace: Int]) throws(OpenAPIError) -> Int {
        let at = position(node)
        if depth > limits.maximumDepth {
            throw .limit("the document nests deeper than \(limits.maximumDepth) levels", file: file, line: at.line, column: at.column)
        }
        let place: NodePlace
        switch node {
        case .scalar, .alias: return 1
        case .sequence: place = NodePlace(line: at.line, column: at.column, kind: 1)
        case .mapping: place = NodePlace(line: at.line, column: at.column, kind: 2)
        }
        if let known = sizes[place] { return known }
        var total = 1
        func add(_ count: Int) throws(OpenAPIError) {
            total += count
            if total > limits.maximumNodes {
                throw .limit(
                    "the document has more than \(limits.maximumNodes) nodes once its aliases are expanded (a YAML alias bomb?)",
                    file: file, line: at.line, column: at.column)
            }
        }
        switch node {
        case .sequence(let sequence):
            for element in sequence { try add(try measure(element, depth: depth + 1, sizes: &sizes)) }
        case .mapping(let mapping):
            for (_, value) in mapping { try add(1 + (try measure(value, depth: depth + 1, sizes: &sizes))) }
        case .scalar, .alias:
            break
        }
        sizes[place] = total
        return total
    }

    private func position(_ node: Node) -> JSONPosition {
        guard let mark = node.mark else { return JSONPosition(line: 1, column: 1) }
        return JSONPosition(line: mark.line, column: mark.column)
    }

    /// Builds the value `measure` has checked (size and depth).
    private func convert(_ node: Node, depth: Int) throws(OpenAPIError) -> JSONNode {
        let at = position(node)
        switch node {
        case .scalar(let scalar):
            return JSONNode(kind: try scalarKind(scalar, node: node, at: at), position: at)
        case .sequence(let sequence):
            var elements: [JSONNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try convert(element, depth: depth + 1)) }
            return JSONNode(kind: .array(elements), position: at)
        case .mapping(let mapping):
            var members: [JSONNode.Member] = []
            members.reserveCapacity(mapping.count)
            var seen: [String: JSONPosition] = [:]
            for (keyNode, valueNode) in mapping {
                let keyAt = position(keyNode)
                guard case .scalar(let keyScalar) = keyNode else {
                    throw .structure("a key must be a plain value, not a list or a mapping", file: file, line: keyAt.line, column: keyAt.column)
                }
                let key = keyScalar.string
                if let first = seen[key] {
                    throw .structure(
                        "duplicate key '\(key)' (first at line \(first.line), column \(first.column)): keep one",
                        file: file, line: keyAt.line, column: keyAt.column)
                }
                seen[key] = keyAt
                members.append(JSONNode.Member(key: key, keyPosition: keyAt, value: try convert(valueNode, depth: depth + 1)))
            }
            return JSONNode(kind: .object(members), position: at)
        case .alias:
            // Compose resolves aliases to their anchored nodes; an unresolved one is an error.
            throw .syntax("an alias that names no anchor", file: file, line: at.line, column: at.column)
        }
    }

    private func scalarKind(_ scalar: Node.Scalar, node: Node, at: JSONPosition) throws(OpenAPIError) -> JSONNode.Kind {
        switch node.tag.rawValue {
        case Tag.Name.null.rawValue:
            return .null
        case Tag.Name.bool.rawValue:
            guard let value = node.bool else { return .string(scalar.string) }
            return .bool(value)
        case Tag.Name.int.rawValue:
            if Self.isJSONNumber(scalar.string) { return .number(scalar.string) }
            guard let value = node.int else { return .string(scalar.string) }
            return .number(String(value))
        case Tag.Name.float.rawValue:
            if Self.isJSONNumber(scalar.string) { return .number(scalar.string) }
            guard let value = node.float, value.isFinite else {
                throw .structure("'\(scalar.string)' is not a number JSON can hold (quote it to make it a string)", file: file, line: at.line, column: at.column)
            }
            return .number(String(value))
        default:
            // Strings, and tags JSON has no type for (timestamps, binary): their text.
            return .string(scalar.string)
        }
    }

    /// Whether `text` is a JSON number lexeme (`-1`, `2.5e3`; not `+1`, `0x1F`, `.5`, `1.`).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 48 && $0 <= 57 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard let first = bytes.first, first >= 48, first <= 57 else { return false }
        if first == 48 { bytes = bytes.dropFirst() } else { _ = digits() }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    private func located(_ error: YamlError, in input: String) -> OpenAPIError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let text = context.map { "\(problem) \($0.text)" } ?? problem
            let (line, column) = Self.clamped(line: mark.line, column: mark.column, in: input)
            return .syntax("not valid YAML: \(text)", file: file, line: line, column: column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return .structure("duplicate key \(keys) in one mapping: keep one", file: file, line: context.mark.line, column: context.mark.column)
        case .reader(let problem, let offset, _, _):
            return .syntax("not valid YAML text: \(problem)\(offset.map { " at byte \($0)" } ?? "")", file: file, line: 1, column: 1)
        default:
            return .syntax("not valid YAML: \(error)", file: file, line: 1, column: 1)
        }
    }

    /// Yams places an error found at the end of the input on the line after the last one when the
    /// text does not end with a line break; a location points inside the input (its end).
    static func clamped(line: Int, column: Int, in input: String) -> (line: Int, column: Int) {
        var lines = 1
        var lastLineLength = 0
        for byte in input.utf8 {
            if byte == UInt8(ascii: "\n") {
                lines += 1
                lastLineLength = 0
            } else if byte & 0xC0 != 0x80 {
                lastLineLength += 1  // one column per character's first byte
            }
        }
        guard line > lines else { return (max(line, 1), max(column, 1)) }
        return (lines, lastLineLength + 1)
    }
}
