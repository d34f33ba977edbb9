import APICheckJSON
import Foundation

/// An immutable, indexed set of stubs that answers "which stub serves this request?".
///
/// Matching is deterministic (FORMATS §3): among stubs whose method and path match, the most
/// specific wins (literal path > template > glob; then more query/header/body/origin constraints;
/// then higher `priority`; then earlier in load order). Literal paths are found through a hash
/// table; templates and globs through a trie of their literal leading segments, so a request only
/// meets the patterns that share its prefix (`/api/v1/movies/{id}` is never tried for
/// `/api/v1/cart`). Lookup cost does not grow with the size of the set.
/// This is the one matcher: the interceptor, the server and the crawler all call it.
public struct StubSet: Sendable {
    public let stubs: [Stub]
    private let entries: [MatchEntry]
    private let literalIndex: [String: [Int32]]
    private let trie: PatternTrie

    public init(_ stubs: [Stub]) {
        self.stubs = stubs
        var entries: [MatchEntry] = []
        entries.reserveCapacity(stubs.count)
        var literalIndex: [String: [Int32]] = [:]
        var trie = PatternTrie()
        for (index, stub) in stubs.enumerated() {
            entries.append(MatchEntry(stub))
            if stub.request.path.kind == .literal {
                literalIndex[stub.request.path.literalPath, default: []].append(Int32(index))
            } else {
                trie.insert(Int32(index), prefix: stub.request.path.literalPrefix)
            }
        }
        self.entries = entries
        self.literalIndex = literalIndex
        self.trie = trie
    }

    public static let empty = StubSet([])

    public var count: Int { stubs.count }
    public var isEmpty: Bool { stubs.isEmpty }

    /// The stub that answers `request`, or why none does.
    public func match(_ request: StubRequest, scenarios: ScenarioSelection = [:]) -> StubMatch {
        var context = MatchContext(scenarios: scenarios)
        var best: Int?

        if let candidates = literalIndex[request.path] {
            for candidate in candidates {
                let index = Int(candidate)
                guard context.accepts(entries[index], request) else { continue }
                if best == nil || isMoreSpecific(index, than: best!) { best = index }
            }
        }
        if let best {
            return .matched(MatchedStub(stub: stubs[best], index: best, path: nil))
        }
        if !trie.isEmpty {
            let segments = PathPattern.split(request.path)
            trie.forEachCandidate(along: segments) { candidate in
                let index = Int(candidate)
                // `entries[index]` read in place each time: binding it to a constant would copy
                // the entry, a dozen reference counts per candidate.
                // A pattern can only beat the current best if it is at least as specific by kind.
                if let current = best, entries[current].kind > entries[index].kind { return }
                guard context.accepts(entries[index], request), entries[index].pattern.path.matches(segments: segments) else { return }
                if best == nil || isMoreSpecific(index, than: best!) { best = index }
            }
        }
        if let best {
            // The template's variables are bound when read (templates read them; static
            // responses never do).
            return .matched(MatchedStub(stub: stubs[best], index: best, path: request.path))
        }
        return .unmatched(nearMisses(for: request, scenarios: scenarios))
    }

    private func isMoreSpecific(_ candidate: Int, than current: Int) -> Bool {
        let a = entries[candidate]
        let b = entries[current]
        if a.kind != b.kind { return a.kind > b.kind }
        if a.constraintCount != b.constraintCount { return a.constraintCount > b.constraintCount }
        if a.priority != b.priority { return a.priority > b.priority }
        return candidate < current
    }

    // MARK: Near misses (the slow path: only for requests no stub answers)

    /// How many near misses a report lists.
    public static let nearMissLimit = 3
    /// How many stubs a near-miss search scores at most, so a 404 costs the same on any set size.
    public static let nearMissSearchLimit = 2048

    private func nearMisses(for request: StubRequest, scenarios: ScenarioSelection) -> NearMissReport {
        var context = MatchContext(scenarios: scenarios)
        let segments = PathPattern.split(request.path)
        var scored: [(score: Int, index: Int, differences: [MatchDifference])] = []
        for candidate in nearMissCandidates(for: request, segments: segments) {
            let index = Int(candidate)
            let entry = entries[index]
            let similarity = Self.pathSimilarity(entry.pattern.path, segments)
            let differences = context.differences(entry, request, segments: segments)
            // Fewer differences first; among equals, the more similar path.
            let score = differences.count * 1000 - similarity
            if scored.count < Self.nearMissLimit {
                scored.append((score, index, differences))
                scored.sort { ($0.score, $0.index) < ($1.score, $1.index) }
            } else if let last = scored.last, (score, index) < (last.score, last.index) {
                scored[scored.count - 1] = (score, index, differences)
                scored.sort { ($0.score, $0.index) < ($1.score, $1.index) }
            }
        }
        return NearMissReport(
            request: request,
            nearMisses: scored.map { NearMiss(stub: stubs[$0.index], differences: $0.differences) }
        )
    }

    /// The stubs worth explaining: same path (other methods or constraints), patterns along the
    /// request's prefix, literal stubs at its ancestor paths; the whole set only when it is small,
    /// else the first ``nearMissSearchLimit`` stubs as a last resort.
    private func nearMissCandidates(for request: StubRequest, segments: [Substring]) -> [Int32] {
        if stubs.count <= Self.nearMissSearchLimit { return (0..<Int32(stubs.count)).map { $0 } }
        var candidates = literalIndex[request.path] ?? []
        trie.forEachCandidate(along: segments) { candidates.append($0) }
        var parent = segments
        while candidates.count < Self.nearMissLimit, !parent.isEmpty {
            parent.removeLast()
            let prefix = "/" + parent.joined(separator: "/")
            if let siblings = literalIndex[prefix] { candidates += siblings }
            if parent.isEmpty { break }
        }
        if candidates.count < Self.nearMissLimit {
            candidates += (0..<Int32(min(stubs.count, Self.nearMissSearchLimit))).map { $0 }
        }
        var seen = Set<Int32>()
        var unique: [Int32] = []
        for candidate in candidates where seen.insert(candidate).inserted {
            unique.append(candidate)
            if unique.count == Self.nearMissSearchLimit { break }
        }
        return unique
    }

    /// Leading segments the pattern shares with the path, plus one when the segment counts agree.
    private static func pathSimilarity(_ pattern: PathPattern, _ path: [Substring]) -> Int {
        var shared = 0
        for (segment, actual) in zip(pattern.segments, path) {
            switch segment {
            case .literal(let literal) where literal == actual: shared += 2
            case .variable, .glob, .globstar: shared += 1
            default: return shared
            }
        }
        return shared + (pattern.segments.count == path.count ? 1 : 0)
    }
}

/// What matching needs of a stub, held by reference so that trying a candidate costs one retain
/// instead of copying the whole stub (headers, cookies, body…).
private final class MatchEntry: Sendable {
    let pattern: RequestPattern
    let kind: PathPattern.Kind
    let constraintCount: Int
    let priority: Int
    let scenario: ScenarioTag?

    init(_ stub: Stub) {
        pattern = stub.request
        kind = stub.request.path.kind
        constraintCount = stub.request.constraintCount
        priority = stub.priority
        scenario = stub.scenario
    }
}

/// A trie over literal path segments. Each non-literal pattern sits at the node of its literal
/// prefix; a request visits only the nodes along its own segments.
private struct PatternTrie: Sendable {
    private struct Node: Sendable {
        var children: [Substring: Int32] = [:]
        var patterns: [Int32] = []
    }

    private var nodes = [Node()]

    var isEmpty: Bool { nodes.count == 1 && nodes[0].patterns.isEmpty }

    mutating func insert(_ stub: Int32, prefix: ArraySlice<String>) {
        var node = 0
        for segment in prefix {
            if let child = nodes[node].children[Substring(segment)] {
                node = Int(child)
            } else {
                nodes.append(Node())
                let child = nodes.count - 1
                nodes[node].children[Substring(segment)] = Int32(child)
                node = child
            }
        }
        nodes[node].patterns.append(stub)
    }

    /// Calls `body` with every pattern whose literal prefix is a prefix of `segments`.
    func forEachCandidate(along segments: [Substring], _ body: (Int32) -> Void) {
        var node = 0
        var depth = 0
        while true {
            for stub in nodes[node].patterns { body(stub) }
            guard depth < segments.count, let child = nodes[node].children[segments[depth]] else { return }
            node = Int(child)
            depth += 1
        }
    }
}

/// The stub chosen for a request, with the values bound by its path template.
public struct MatchedStub: Sendable, Hashable {
    public var stub: Stub {
        didSet { indexInSet = nil }
    }

    /// The stub's position in the set that matched it, while `stub` is unchanged: transports
    /// that keep per-stub data (a server's wire-ready responses) find it without hashing the id.
    package private(set) var indexInSet: Int?

    /// The values the stub's path template bound (`/movies/{id}` for `/movies/42`: `id` → `42`).
    public var pathParameters: [String: String] {
        get {
            switch bindings {
            case .values(let values): values
            case .matched(let pattern, let path): pattern.match(segments: PathPattern.split(path)) ?? [:]
            }
        }
        set { bindings = .values(newValue) }
    }

    private enum Bindings: Sendable {
        case values([String: String])
        /// Bound from the pattern that matched (kept: `stub` may change) when read.
        case matched(PathPattern, path: String)
    }

    private var bindings: Bindings

    public init(stub: Stub, pathParameters: [String: String] = [:]) {
        self.stub = stub
        self.bindings = .values(pathParameters)
    }

    /// `stub`, the `index`-th of its set; its path pattern matched `path` (`nil`: a literal path).
    init(stub: Stub, index: Int, path: String?) {
        self.bindings = path.map { .matched(stub.request.path, path: $0) } ?? .values([:])
        self.stub = stub
        self.indexInSet = index
    }

    public static func == (lhs: MatchedStub, rhs: MatchedStub) -> Bool {
        lhs.stub == rhs.stub && lhs.pathParameters == rhs.pathParameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(stub)
        hasher.combine(pathParameters)
    }
}

/// The outcome of ``StubSet/match(_:scenarios:)``.
public enum StubMatch: Sendable {
    case matched(MatchedStub)
    case unmatched(NearMissReport)

    public var matched: MatchedStub? {
        if case .matched(let matched) = self { return matched }
        return nil
    }
}

/// Per-request state for matching: parses the body as JSON at most once. The request is passed
/// to each call (borrowed) rather than stored, which would copy it.
private struct MatchContext {
    let scenarios: ScenarioSelection
    private var parsedBody: JSONValue??

    init(scenarios: ScenarioSelection) {
        self.scenarios = scenarios
    }

    /// Everything but the path, which the caller has checked (literal) or checks next (patterns).
    mutating func accepts(_ entry: MatchEntry, _ request: StubRequest) -> Bool {
        // Fields read in place (no copy of the whole pattern): this runs for every candidate.
        if let method = entry.pattern.method, method != request.method { return false }
        if !scenarios.isEmpty, let tag = entry.scenario, let active = scenarios[tag.useCase], active != tag.name { return false }
        guard entry.constraintCount > 0 else { return true }
        for constraint in entry.pattern.query where !queryMatches(constraint, request) { return false }
        for constraint in entry.pattern.headers where !headerMatches(constraint, request) { return false }
        if let origin = entry.pattern.origin, !originMatches(origin, request) { return false }
        for constraint in entry.pattern.body where !bodyMatches(constraint, request) { return false }
        return true
    }

    mutating func differences(_ entry: MatchEntry, _ request: StubRequest, segments: [Substring]) -> [MatchDifference] {
        let pattern = entry.pattern
        var differences: [MatchDifference] = []
        if let method = pattern.method, method != request.method {
            differences.append(.method(expected: method, actual: request.method))
        }
        let pathMatches = pattern.path.kind == .literal ? pattern.path.literalPath == request.path : pattern.path.matches(segments: segments)
        if !pathMatches { differences.append(.path(expected: pattern.path.text, actual: request.path)) }
        for constraint in pattern.query where !queryMatches(constraint, request) {
            differences.append(.query(expected: constraint, actual: request.query.first { $0.name == constraint.name }?.value))
        }
        for constraint in pattern.headers where !headerMatches(constraint, request) {
            differences.append(.header(expected: constraint, actual: request.headers.value(named: constraint.name)))
        }
        if let origin = pattern.origin, !originMatches(origin, request) {
            let actual = OriginConstraint(scheme: request.scheme, host: request.host, port: request.port)
            differences.append(.origin(expected: origin, actual: actual))
        }
        for constraint in pattern.body where !bodyMatches(constraint, request) {
            differences.append(.body(expected: constraint))
        }
        if let tag = entry.scenario, let active = scenarios[tag.useCase], active != tag.name {
            differences.append(.scenario(tag: tag, active: active))
        }
        return differences
    }

    private func queryMatches(_ constraint: ValueConstraint, _ request: StubRequest) -> Bool {
        request.query.contains { item in
            item.name == constraint.name && (constraint.value == nil || item.value == constraint.value)
        }
    }

    private func headerMatches(_ constraint: ValueConstraint, _ request: StubRequest) -> Bool {
        request.headers.contains { header in
            header.name.caseInsensitiveEquals(constraint.name) && (constraint.value == nil || header.value == constraint.value)
        }
    }

    private func originMatches(_ origin: OriginConstraint, _ request: StubRequest) -> Bool {
        if let scheme = origin.scheme, scheme != request.scheme { return false }
        if let host = origin.host, host != request.host { return false }
        if let port = origin.port, port != request.port { return false }
        return true
    }

    private mutating func bodyMatches(_ constraint: BodyConstraint, _ request: StubRequest) -> Bool {
        switch constraint {
        case .contains(let text):
            guard !text.isEmpty else { return true }
            return request.body.range(of: Data(text.utf8)) != nil
        case .jsonPointer(let path, let equals):
            if parsedBody == nil {
                parsedBody = .some(try? JSONParser(maximumDepth: 64).parseValue(Array(request.body)))
            }
            guard case .some(.some(let json)) = parsedBody, let found = json.value(at: path) else { return false }
            if case .string(let string) = found { return string == equals }
            guard let expected = try? JSONParser(maximumDepth: 64).parseValue(Array(equals.utf8)) else { return false }
            return expected == found
        }
    }
}
