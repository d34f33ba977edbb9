import APICheckCrawler
import APICheckHypermedia
import APICheckJSON

/// `json`: ``JSONParser`` on arbitrary bytes.
///
/// Invariants: an error is located inside the input (line ≥ 1 and within its lines, column ≥ 1);
/// a parsed value, written compact and pretty, parses back to an equal value with an equal hash,
/// and writing that again gives the same text; positions of nodes are inside the input.
enum JSONFuzzer {
    static func run(_ data: [UInt8]) {
        let lines = FuzzCheck.lineBound(data)
        let node: JSONNode
        do {
            node = try JSONParser().parse(data)
        } catch {
            FuzzCheck.require(error.position.line >= 1 && error.position.line <= lines, "error line outside the input: \(error)")
            FuzzCheck.require(error.position.column >= 1 && error.position.column <= data.count + 1, "error column outside the input: \(error)")
            return
        }
        checkPositions(node, lines: lines, bytes: data.count, depth: 0)
        let value = node.value
        for style in [JSONWriter.Style.compact, .pretty] {
            let written = JSONWriter(style: style).bytes(value)
            let again: JSONValue
            do {
                again = try JSONParser().parseValue(written)
            } catch {
                FuzzCheck.fail("written JSON does not parse (\(style)): \(error)")
            }
            FuzzCheck.require(again == value, "written JSON parses to another value (\(style))")
            FuzzCheck.require(again.hashValue == value.hashValue, "equal values hash differently (\(style))")
            FuzzCheck.require(JSONWriter(style: style).bytes(again) == written, "writing is not stable (\(style))")
        }
        // Lookups by pointer reach every member of the top level.
        if case .object(let members) = value {
            for member in members.prefix(16) {
                let pointer = JSONPointer.pointer([member.key])
                FuzzCheck.require(value.value(at: pointer) != nil, "JSON pointer \(pointer) finds no member")
            }
        }
    }

    private static func checkPositions(_ node: JSONNode, lines: Int, bytes: Int, depth: Int) {
        FuzzCheck.require(node.position.line >= 1 && node.position.line <= lines, "node line outside the input")
        FuzzCheck.require(node.position.column >= 1 && node.position.column <= bytes, "node column outside the input")
        guard depth < 300 else { return }
        switch node.kind {
        case .array(let elements):
            for element in elements { checkPositions(element, lines: lines, bytes: bytes, depth: depth + 1) }
        case .object(let members):
            for member in members { checkPositions(member.value, lines: lines, bytes: bytes, depth: depth + 1) }
        default:
            break
        }
    }
}
