import APICheckModel
import Foundation

/// `path-match`: ``StubSet`` (its ``PathIndex`` trie and hash table, the compiled patterns)
/// against a reference matcher written plainly from FORMATS §3: the stub chosen, or none, and the
/// values a template binds must be the same.
///
/// Lines `S <METHOD|*> <pattern> [priority]` declare stubs (up to 32), lines `R <METHOD> <target>`
/// requests (up to 16); other lines are ignored.
enum PathMatchFuzzer {
    /// A pattern as the reference reads it.
    enum Step: Equatable {
        case literal([UInt8])
        case variable(name: String, prefix: [UInt8], suffix: [UInt8])
        case glob([UInt8])
        case globstar
    }

    struct Reference {
        let stub: Stub
        let steps: [Step]
        /// All steps literal: the whole path is compared, a decoded `%2F` included.
        let literalPath: [UInt8]?
    }

    static func run(_ data: [UInt8]) {
        var stubs: [Stub] = []
        var references: [Reference] = []
        var requests: [StubRequest] = []
        for line in FuzzInput.lines(data[...]) {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3 else { continue }
            if fields[0] == "S", stubs.count < 32, case .success(let pattern) = PathPattern.parse(fields[2]) {
                let priority = fields.count > 3 ? max(-100, min(100, Int(fields[3]) ?? 0)) : 0
                let method = fields[1] == "*" ? nil : fields[1]
                let stub = Stub(
                    id: "s\(stubs.count)", name: line, request: RequestPattern(method: method, path: pattern), response: StubResponse(),
                    priority: priority, source: SourceLocation(path: "fuzz"))
                stubs.append(stub)
                references.append(reference(stub))
            } else if fields[0] == "R", requests.count < 16 {
                requests.append(StubRequest(method: fields[1], target: fields.dropFirst(2).joined(separator: " ")))
            }
        }
        let set = StubSet(stubs)
        for request in requests {
            let expected = choose(request, references)
            switch set.match(request) {
            case .matched(let matched):
                guard let expected else { FuzzCheck.fail("\(request.summary): matched \(matched.stub.name), the reference matches nothing") }
                FuzzCheck.require(matched.stub.id == expected.stub.id, "\(request.summary): matched \(matched.stub.name), the reference \(expected.stub.name)")
                let bindings = bind(expected, request.path)
                FuzzCheck.require(matched.pathParameters == bindings, "\(request.summary): bound \(matched.pathParameters), the reference \(bindings)")
            case .unmatched(let report):
                if let expected { FuzzCheck.fail("\(request.summary): unmatched, the reference matches \(expected.stub.name)") }
                FuzzCheck.require(report.nearMisses.count <= min(StubSet.nearMissLimit, stubs.count), "\(report.nearMisses.count) near misses")
            }
        }
    }

    static func reference(_ stub: Stub) -> Reference {
        let text = stub.request.path.text
        if text == "*" { return Reference(stub: stub, steps: [.globstar], literalPath: nil) }
        var steps: [Step] = []
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let segment = String(raw)
            if segment == "**" {
                if steps.last != .globstar { steps.append(.globstar) }
            } else if let open = segment.firstIndex(of: "{"), let close = segment.firstIndex(of: "}") {
                let name = String(segment[segment.index(after: open)..<close])
                steps.append(.variable(name: name, prefix: decoded(segment[..<open]), suffix: decoded(segment[segment.index(after: close)...])))
            } else if segment.contains("*") {
                steps.append(.glob(Array(segment.utf8)))
            } else {
                steps.append(.literal(decoded(raw)))
            }
        }
        var literalPath: [UInt8]? = nil
        if steps.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            literalPath = Array(("/" + steps.map { step in
                if case .literal(let bytes) = step { return String(decoding: bytes, as: UTF8.self) }
                return ""
            }.joined(separator: "/")).utf8)
        }
        return Reference(stub: stub, steps: steps, literalPath: literalPath)
    }

    static func decoded(_ text: Substring) -> [UInt8] {
        Array((String(text).removingPercentEncoding ?? String(text)).utf8)
    }

    /// Segments after the path's first `/` (none without one), as ``StubSet`` reads a path.
    static func segments(_ path: String) -> [[UInt8]] {
        let bytes = Array(path.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: "/")) else { return [] }
        return bytes[(first + 1)...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// The most specific matching stub: literal > template > glob, then priority, then the earlier.
    static func choose(_ request: StubRequest, _ references: [Reference]) -> Reference? {
        var best: Reference?
        for reference in references where matches(reference, request) {
            guard let current = best else { best = reference; continue }
            let (a, b) = (reference.stub, current.stub)
            if a.request.path.kind != b.request.path.kind {
                if a.request.path.kind > b.request.path.kind { best = reference }
            } else if a.priority > b.priority {
                best = reference
            }
        }
        return best
    }

    static func matches(_ reference: Reference, _ request: StubRequest) -> Bool {
        if let method = reference.stub.request.method, method != request.method { return false }
        if let literal = reference.literalPath { return literal == Array(request.path.utf8) }
        return table(reference.steps, segments(request.path))[0][0]
    }

    /// `result[i][j]`: steps `i…` match segments `j…`.
    static func table(_ steps: [Step], _ path: [[UInt8]]) -> [[Bool]] {
        var result = [[Bool]](repeating: [Bool](repeating: false, count: path.count + 1), count: steps.count + 1)
        result[steps.count][path.count] = true
        for i in stride(from: steps.count - 1, through: 0, by: -1) {
            for j in stride(from: path.count, through: 0, by: -1) {
                switch steps[i] {
                case .globstar:
                    result[i][j] = result[i + 1][j] || (j < path.count && result[i][j + 1])
                default:
                    result[i][j] = j < path.count && stepMatches(steps[i], path[j]) && result[i + 1][j + 1]
                }
            }
        }
        return result
    }

    static func stepMatches(_ step: Step, _ segment: [UInt8]) -> Bool {
        switch step {
        case .literal(let bytes): return bytes == segment
        case .variable(_, let prefix, let suffix):
            return segment.count > prefix.count + suffix.count && segment.starts(with: prefix) && segment.reversed().starts(with: suffix.reversed())
        case .glob(let glob): return globMatches(glob[...], segment[...])
        case .globstar: return true
        }
    }

    /// `*` matches any run of bytes, by plain recursion over a memo table.
    static func globMatches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var memo = [[Bool?]](repeating: [Bool?](repeating: nil, count: text.count + 1), count: pattern.count + 1)
        let p = Array(pattern), t = Array(text)
        func match(_ i: Int, _ j: Int) -> Bool {
            if let known = memo[i][j] { return known }
            let result: Bool
            if i == p.count {
                result = j == t.count
            } else if p[i] == UInt8(ascii: "*") {
                result = match(i + 1, j) || (j < t.count && match(i, j + 1))
            } else {
                result = j < t.count && p[i] == t[j] && match(i + 1, j + 1)
            }
            memo[i][j] = result
            return result
        }
        return match(0, 0)
    }

    /// The values bound on the match that tries the fewest segments for each `**` first.
    static func bind(_ reference: Reference, _ path: String) -> [String: String] {
        guard reference.literalPath == nil else { return [:] }
        let segments = segments(path)
        let possible = table(reference.steps, segments)
        var bindings: [String: String] = [:]
        var j = 0
        for (i, step) in reference.steps.enumerated() {
            switch step {
            case .globstar:
                j = (j...segments.count).first { possible[i + 1][$0] } ?? j
            case .variable(let name, let prefix, let suffix):
                bindings[name] = String(decoding: segments[j][prefix.count..<(segments[j].count - suffix.count)], as: UTF8.self)
                j += 1
            default:
                j += 1
            }
        }
        return bindings
    }
}
