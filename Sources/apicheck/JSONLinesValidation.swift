import APICheckJSON
import APICheckModel
import APICheckSchema
import Dispatch
import Foundation
import Synchronization

/// `schema check --jsonl`: one JSON value per line, read in blocks (the input is held a block at
/// a time, and a line at most `--max-instance` long), each block's lines validated on `jobs`
/// threads with the one compiled schema, results written in line order as each block ends.
/// Blank lines are skipped.
struct JSONLinesValidation {
    let schema: JSONSchema
    let jobs: Int
    let maximumLineBytes: Int
    /// Bytes read at a time; a line longer than a block is carried over until it ends.
    var blockBytes = 4 << 20

    enum Outcome: Sendable {
        case valid
        case invalid(JSONSchemaOutput)
        case notJSON(JSONParseError)
        case tooLong(Int)
    }

    func run(path: String, report: InstanceReport) throws -> InstanceTally {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            report.unreadable(SourceLocation(path: path), "cannot read: \(String(cString: strerror(errno)))")
            return InstanceTally(unreadable: 1)
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let name = path == "-" ? "<stdin>" : path
        var tally = InstanceTally()
        var pending: [UInt8] = []
        // How much of `pending` is known to hold no newline: a long line is scanned once, not per block.
        var scanned = 0
        var lineNumber = 1
        var chunk = [UInt8](repeating: 0, count: blockBytes)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, blockBytes) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                report.unreadable(SourceLocation(path: path), "read failed: \(String(cString: strerror(errno)))")
                tally.unreadable += 1
                break
            }
            let atEnd = count == 0
            pending.append(contentsOf: chunk[0..<count])
            // Complete lines only, unless the input ended.
            let cut = atEnd ? pending.count : (pending[scanned...].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
            if cut > 0 {
                let firstLine = lineNumber
                lineNumber += validateBlock(pending[0..<cut], firstLine: firstLine, name: name, report: report, tally: &tally)
                pending.removeFirst(cut)
            }
            scanned = pending.count
            if pending.count > maximumLineBytes {
                report.unreadable(SourceLocation(path: name, line: lineNumber), "a line longer than \(maximumLineBytes) bytes (--max-instance)")
                tally.unreadable += 1
                return tally
            }
            if atEnd { break }
        }
        return tally
    }

    /// Validates the lines of `block` and reports them in order; returns how many lines it held.
    private func validateBlock(_ block: ArraySlice<UInt8>, firstLine: Int, name: String, report: InstanceReport, tally: inout InstanceTally) -> Int {
        var found: [Range<Int>] = []
        var start = block.startIndex
        for index in block.indices where block[index] == UInt8(ascii: "\n") {
            found.append(start..<index)
            start = index + 1
        }
        if start < block.endIndex { found.append(start..<block.endIndex) }
        let bytes = Array(block)
        let offset = block.startIndex
        let stripes = min(max(1, jobs), max(1, found.count / 256))
        let results = Mutex<[[Outcome?]]>(Array(repeating: [], count: stripes))
        let (schema, maximumLineBytes, lines) = (schema, maximumLineBytes, found)
        DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
            let range = Self.stripe(stripe, of: stripes, count: lines.count)
            var outcomes: [Outcome?] = []
            outcomes.reserveCapacity(range.count)
            for index in range {
                let line = lines[index]
                var slice = bytes[(line.lowerBound - offset)..<(line.upperBound - offset)]
                if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
                guard slice.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
                    outcomes.append(nil)
                    continue
                }
                guard slice.count <= maximumLineBytes else {
                    outcomes.append(.tooLong(slice.count))
                    continue
                }
                do throws(JSONParseError) {
                    let value = try JSONParser().parseValue(slice)
                    outcomes.append(schema.isValid(value) ? .valid : .invalid(schema.validate(value)))
                } catch {
                    outcomes.append(.notJSON(error))
                }
            }
            results.withLock { $0[stripe] = outcomes }
        }
        var lineNumber = firstLine
        for outcome in results.withLock({ $0 }).joined() {
            defer { lineNumber += 1 }
            switch outcome {
            case nil: continue
            case .valid?: tally.valid += 1
            case .invalid(let output)?:
                tally.invalid += 1
                report.line(output, name: name, line: lineNumber)
            case .notJSON(let error)?:
                tally.unreadable += 1
                report.unreadable(SourceLocation(path: name, line: lineNumber, column: error.position.column), "not valid JSON: \(error.message)")
            case .tooLong(let count)?:
                tally.unreadable += 1
                report.unreadable(SourceLocation(path: name, line: lineNumber), "a \(count)-byte line is over --max-instance")
            }
        }
        return lines.count
    }

    private static func stripe(_ index: Int, of count: Int, count total: Int) -> Range<Int> {
        let size = total / count
        let extra = total % count
        let start = index * size + min(index, extra)
        return start..<(start + size + (index < extra ? 1 : 0))
    }
}

extension InstanceReport {
    /// One invalid line: its first problem and how many more (text), or the basic output (json).
    func line(_ result: JSONSchemaOutput, name: String, line: Int) {
        switch format {
        case .json:
            guard case .object(let members) = result.json else { return }
            output.write(JSONWriter().string(.object([JSONMember("instance", .string(name)), JSONMember("line", .number(String(line)))] + members)))
        case .text:
            let relevant = result.relevantErrors
            guard let first = relevant.first else { return }
            let field = first.instanceLocation.isEmpty ? "(the whole value)" : first.instanceLocation
            let more = relevant.count > 1 ? " (+\(relevant.count - 1) more)" : ""
            output.write(output.format(Diagnostic(.error, "\(field): \(first.error) [\(first.keywordLocation)]\(more)", at: SourceLocation(path: name, line: line))))
        }
    }
}
