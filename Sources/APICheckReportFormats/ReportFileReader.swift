import APICheckFindings
import APICheckSpool
import APICheckJSON
import APICheckModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CrawlReport {
    /// Reads a JSON report file a piece at a time, so a million-resource crawl's report (gigabytes
    /// of checks) can be merged: the checks stream through a temporary file, one at a time;
    /// everything else is read as ``init(decoding:path:maximumBytes:)`` reads it, and at most
    /// `maximumBytesBesideChecks` of it. Errors carry `path:line:column`.
    public init(readingFile path: String, maximumBytesBesideChecks: Int = 256 << 20, spoolDirectory: String? = nil) throws(ReportDecodingError) {
        let directory = SpoolDirectory(parent: spoolDirectory)
        let builder = CheckListBuilder(directory: directory, memoryLimit: 50_000)
        // Versions 1–3 listed every check and had no counts: they are counted as read.
        var tally = CheckTally()
        var previous: CheckedLink?
        let reader = ReportJSONReader(path: path)
        let rest: [UInt8]
        do {
            var scanner = try ReportFileScanner(path: path, reader: reader, maximumBytesBesideChecks: maximumBytesBesideChecks)
            // The writer puts `paths` before `checks`; a check naming a path of a table not read yet
            // is out of range, and says so.
            var paths = RelPathResolver()
            rest = try scanner.scan(
                paths: { table, line, column throws(ReportDecodingError) in
                    do throws(ReportDecodingError) {
                        paths = try RelPathResolver(try reader.parse(table, maximumBytes: table.count), reader: reader)
                    } catch {
                        throw error.shifted(line: line, column: column)
                    }
                },
                check: { element, line, column throws(ReportDecodingError) in
                    do throws(ReportDecodingError) {
                        let node = try reader.parse(element, maximumBytes: element.count)
                        let check = try CheckedLink(node, reader: reader, paths: paths)
                        // A merge reads reports as they stream by: their order is checked here.
                        if let previous, !CheckedLink.precedes(previous, check) {
                            throw reader.error(
                                "the checks are out of report order here (by \"index\", then url, method, rel); apicheck writes them in order, so the file was edited or reordered",
                                at: JSONPosition(line: 1, column: 1))
                        }
                        previous = check
                        builder.append(check)
                        tally.count(check)
                    } catch {
                        throw error.shifted(line: line, column: column)
                    }
                })
        }
        self = try CrawlReport(decoding: rest, path: path, maximumBytes: maximumBytesBesideChecks + 64)
        let counted = !listsEveryCheck || !checkCounts.isEmpty
        if let failure = builder.failure { throw reader.error("cannot read the checks back: \(failure)", at: JSONPosition(line: 1, column: 1)) }
        setSortedChecks(builder.finish(), counts: counted ? checkCounts : tally.counts, listsEveryCheck: listsEveryCheck)
    }
}

extension ReportDecodingError {
    /// The error of an element parsed on its own, placed where the element starts in its file.
    fileprivate func shifted(line: Int, column: Int) -> ReportDecodingError {
        var location = self.location
        if location.line == 1 { location.column += column - 1 }
        location.line += line - 1
        return ReportDecodingError(location: location, message: message)
    }
}

/// Reads a report's top-level object member by member from a file: each `checks` element is
/// handed over as bytes; the other members are collected into a smaller document.
struct ReportFileScanner {
    private let descriptor: Int32
    private let reader: ReportJSONReader
    private let maximumBytesBesideChecks: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var position = 0
    private var filled = 0
    private var atEnd = false
    private var line = 1
    private var column = 1
    /// Where consumed bytes go: the document beside the checks, the check being read, or nowhere.
    private enum Sink { case rest, element, none }
    private var sink = Sink.rest
    private var rest: [UInt8] = []
    private var element: [UInt8] = []
    /// Nesting allowed inside one value (the JSON parser's own limit applies after).
    private static let maximumDepth = 512
    /// One check's bytes at most.
    private static let maximumElementBytes = 16 << 20

    init(path: String, reader: ReportJSONReader, maximumBytesBesideChecks: Int) throws(ReportDecodingError) {
        self.reader = reader
        self.maximumBytesBesideChecks = maximumBytesBesideChecks
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw reader.error("cannot read the report: \(String(cString: strerror(errno)))", at: JSONPosition(line: 1, column: 1))
        }
    }

    /// Scans the file; returns the document without its checks: every other byte where it was,
    /// so errors in it have the file's line and column, and an empty `checks` array (the lines the
    /// checks took kept as newlines, up to a million, so what follows keeps its lines too).
    mutating func scan(
        paths: (_ table: [UInt8], _ line: Int, _ column: Int) throws(ReportDecodingError) -> Void,
        check: (_ element: [UInt8], _ line: Int, _ column: Int) throws(ReportDecodingError) -> Void
    ) throws(ReportDecodingError) -> [UInt8] {
        defer { close(descriptor) }
        // A byte-order mark (a report re-saved on Windows) is skipped, as the JSON parser does.
        sink = .none
        for byte in [0xEF, 0xBB, 0xBF] as [UInt8] where peek() == byte { advance() }
        column = 1
        sink = .rest
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var first = true
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw error("the report ends before its closing '}'") }
            if byte == UInt8(ascii: "}") {
                advance()
                break
            }
            if !first {
                try expect(UInt8(ascii: ","))
                skipWhitespace()
            }
            first = false
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let keyStart = rest.count
            try captureString()
            let isChecks = rest[keyStart...].elementsEqual("\"checks\"".utf8)
            let isPaths = rest[keyStart...].elementsEqual("\"paths\"".utf8)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if isChecks, peek() == UInt8(ascii: "[") {
                advance()
                try scanChecks(check)
            } else {
                let (valueStart, valueLine, valueColumn) = (rest.count, line, column)
                try captureValue(depth: 0)
                if isPaths { try paths(Array(rest[valueStart...]), valueLine, valueColumn) }
            }
            guard rest.count <= maximumBytesBesideChecks else { throw error("more than \(maximumBytesBesideChecks) bytes beside the checks") }
        }
        skipWhitespace()
        guard peek() == nil else { throw error("unexpected text after the report's closing '}'") }
        return rest
    }

    private mutating func scanChecks(_ check: (_ element: [UInt8], _ line: Int, _ column: Int) throws(ReportDecodingError) -> Void) throws(ReportDecodingError) {
        let firstLine = line
        defer {
            let skipped = min(line - firstLine, 1_000_000)
            rest += repeatElement(0x0A, count: max(0, skipped))
            rest.append(UInt8(ascii: "]"))
            sink = .rest
        }
        sink = .none
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            advance()
            return
        }
        while true {
            skipWhitespace()
            let (startLine, startColumn) = (line, column)
            element.removeAll(keepingCapacity: true)
            sink = .element
            try captureValue(depth: 0)
            sink = .none
            try check(element, startLine, startColumn)
            skipWhitespace()
            guard let byte = peek() else { throw error("the report ends inside \"checks\"") }
            advance()
            if byte == UInt8(ascii: "]") { return }
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or ']' in \"checks\"", back: 1) }
        }
    }

    /// Reads one JSON value (strings, containers, literals), checking only its structure; its
    /// bytes go where ``sink`` says.
    private mutating func captureValue(depth: Int) throws(ReportDecodingError) {
        guard let byte = peek() else { throw error("the report ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "\""):
            try captureString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error("the report nests deeper than \(Self.maximumDepth) levels") }
            let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            advance()
            while true {
                skipWhitespace()
                guard let next = peek() else { throw error("the report ends inside a value") }
                if next == closing {
                    advance()
                    return
                }
                if next == UInt8(ascii: ",") || next == UInt8(ascii: ":") {
                    advance()
                    continue
                }
                try captureValue(depth: depth + 1)
                try checkSizes()
            }
        default:
            // A number or a literal: up to the next delimiter; the JSON parser judges it.
            var count = 0
            while let next = peek(), !Self.isDelimiter(next) {
                advance()
                count += 1
                if count > Self.maximumElementBytes { throw error("a value of more than \(Self.maximumElementBytes) bytes") }
            }
            if count == 0 { throw error("unexpected '\(Character(Unicode.Scalar(byte)))'") }
        }
    }

    /// What was read so far stays within the bounds: one check, and the rest of the report.
    private func checkSizes() throws(ReportDecodingError) {
        guard element.count <= Self.maximumElementBytes else { throw error("a check of more than \(Self.maximumElementBytes) bytes") }
        guard rest.count <= maximumBytesBesideChecks else { throw error("more than \(maximumBytesBesideChecks) bytes beside the checks") }
    }

    private mutating func captureString() throws(ReportDecodingError) {
        advance()
        var escaped = false
        var length = 0
        while let byte = peek() {
            advance()
            length += 1
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return
            }
            if length > Self.maximumElementBytes { throw error("a string of more than \(Self.maximumElementBytes) bytes") }
            if length & 0xFFFF == 0 { try checkSizes() }
        }
        throw error("the report ends inside a string")
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A || byte == 0x0D
            || byte == 0x09 || byte == UInt8(ascii: ":")
    }

    // MARK: Bytes

    private mutating func peek() -> UInt8? {
        if position == filled, !atEnd { refill() }
        return position < filled ? buffer[position] : nil
    }

    private mutating func advance() {
        switch sink {
        case .rest: rest.append(buffer[position])
        case .element: element.append(buffer[position])
        case .none: break
        }
        // Columns count bytes, as the JSON parser's do.
        if buffer[position] == 0x0A {
            line += 1
            column = 1
        } else {
            column += 1
        }
        position += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private mutating func expect(_ byte: UInt8) throws(ReportDecodingError) {
        guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        advance()
    }

    private mutating func refill() {
        position = 0
        filled = 0
        var got = 0
        repeat {
            got = buffer.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress!, raw.count) }
        } while got < 0 && errno == EINTR
        if got <= 0 { atEnd = true } else { filled = got }
    }

    private func error(_ message: String, back: Int = 0) -> ReportDecodingError {
        reader.error(message, at: JSONPosition(line: line, column: max(1, column - back)))
    }
}
