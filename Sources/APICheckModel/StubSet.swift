import APICheckJSON
import Foundation

/// An immutable, indexed set of stubs that answers "which stub serves this request?".
///
/// Matching is deterministic (FORMATS §3): among stubs whose method and path match, the most
/// specific wins (literal path > template > glob; then more query/header/body/origin constraints;
/// then higher `priority`; then earlier in load order). Paths compare by their percent-decoded
/// UTF-8 bytes, as HTTP sends them. A ``PathIndex`` finds the candidates, so lookup cost does not
/// grow with the size of the set, and choosing a stub borrows the request's bytes (no copies).
/// This is the one matcher: the interceptor, the server and the crawler all call it.
public struct StubSet: Sendable {
    public let stubs: [Stub]
    private let matcher: Matcher

    public init(_ stubs: [Stub]) {
        self.stubs = stubs
        matcher = Matcher(stubs)
    }

    public static let empty = StubSet([])

    public var count: Int { stubs.count }
    public var isEmpty: Bool { stubs.isEmpty }

    /// The stub that answers `request`, or why none does.
    public func match(_ request: StubRequest, scenarios: ScenarioSelection = [:]) -> StubMatch {
        var context = MatchContext(scenarios: scenarios)
        guard let chosen = matcher.choose(request, &context) else {
            return .unmatched(nearMisses(for: request, scenarios: scenarios))
        }
        // A template's variables are bound when read (templates read them; static responses never do).
        return .matched(MatchedStub(stub: stubs[chosen.index], index: chosen.index, path: chosen.literal ? nil : request.path))
    }

    // MARK: Near misses (the slow path: only for requests no stub answers)

    /// How many near misses a report lists.
    public static let nearMissLimit = 3
    /// How many stubs a near-miss search scores at most, so a 404 costs the same on any set size.
    public static let nearMissSearchLimit = 2048

    private func nearMisses(for request: StubRequest, scenarios: ScenarioSelection) -> NearMissReport {
        PathSegments.withSegments(of: request.path) { segments in
            nearMisses(for: request, segments: segments, scenarios: scenarios)
        }
    }

    private func nearMisses(for request: StubRequest, segments: PathSegments, scenarios: ScenarioSelection) -> NearMissReport {
        var context = MatchContext(scenarios: scenarios)
        var scored: [(score: Int, distance: Int, index: Int, differences: [MatchDifference])] = []
        let entries = matcher.entries
        for candidate in nearMissCandidates(for: request, segments: segments) {
            let index = Int(candidate)
            let entry = entries[index]
            let similarity = entry.pattern.path.similarity(to: segments)
            let differences = context.differences(entry, request, segments: segments)
            // Fewer differences first; among equals, the more similar path, then the fewer edits
            // (NearMissRanking), counted only for a stub that can still make the list.
            let score = differences.count * 1000 - similarity
            if scored.count == Self.nearMissLimit, let last = scored.last, score > last.score { continue }
            let distance = NearMissRanking.distance(entry.pattern.path, request.path)
            if scored.count < Self.nearMissLimit {
                scored.append((score, distance, index, differences))
            } else if let last = scored.last, (score, distance, index) < (last.score, last.distance, last.index) {
                scored[scored.count - 1] = (score, distance, index, differences)
            } else {
                continue
            }
            scored.sort { ($0.score, $0.distance, $0.index) < ($1.score, $1.distance, $1.index) }
        }
        return NearMissReport(
            request: request,
            nearMisses: scored.map { NearMiss(stub: stubs[$0.index], differences: $0.differences) }
        )
    }

    /// The stubs worth explaining: same path (other methods or constraints), patterns along the
    /// request's prefix, literal stubs at its ancestor paths; the whole set only when it is small,
    /// else the first ``nearMissSearchLimit`` stubs as a last resort.
    private func nearMissCandidates(for request: StubRequest, segments: PathSegments) -> [Int32] {
        if stubs.count <= Self.nearMissSearchLimit { return (0..<Int32(stubs.count)).map { $0 } }
        var candidates: [Int32] = []
        let pathIndex = matcher.pathIndex
        pathIndex.forEachLiteral(at: segments.bytes) { candidates.append($0) }
        pathIndex.forEachPattern(along: segments) { candidates.append($0) }
        var parentCount = segments.count
        while candidates.count < Self.nearMissLimit, parentCount > 0 {
            parentCount -= 1
            let parent = "/" + (0..<parentCount).map(segments.string).joined(separator: "/")
            candidates += pathIndex.literalStubs(at: parent)
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
}

/// The set's matching state, held by reference: the closures that borrow a request's bytes
/// capture one pointer instead of copying every index array.
private final class Matcher: Sendable {
    let entries: [MatchEntry]
    let pathIndex: PathIndex
    /// Per stub, what every candidate is checked for, in arrays of plain values: reading them
    /// copies bits, where reading an entry would retain and release it.
    private let ranks: [MatchRank]
    private let methods: [String?]
    private let paths: [PathPattern]

    init(_ stubs: [Stub]) {
        entries = stubs.map(MatchEntry.init)
        pathIndex = PathIndex(stubs)
        ranks = stubs.map(MatchRank.init)
        methods = stubs.map(\.request.method)
        paths = stubs.map(\.request.path)
    }

    /// The position of the stub that answers `request`, and whether its path is literal.
    func choose(_ request: StubRequest, _ context: inout MatchContext) -> (index: Int, literal: Bool)? {
        // The closures read the request through a pointer: capturing it would copy it (a dozen
        // reference counts) into their contexts.
        withUnsafePointer(to: request) { request in
            PathSegments.withBytes(of: request.pointee.path) { bytes in
                var best: Int?
                pathIndex.forEachLiteral(at: bytes) { candidate in
                    let index = Int(candidate)
                    guard accepts(index, request, &context) else { return }
                    if best == nil || isMoreSpecific(index, than: best!) { best = index }
                }
                if let best { return (best, true) }
                guard pathIndex.hasPatterns else { return nil }
                return PathSegments.withSegments(of: bytes) { path in
                    pathIndex.forEachPattern(along: path) { candidate in
                        let index = Int(candidate)
                        // A pattern can only beat the current best if it is at least as specific by kind.
                        if let current = best, ranks[current].kind > ranks[index].kind { return }
                        guard accepts(index, request, &context), paths[index].matches(path) else { return }
                        if best == nil || isMoreSpecific(index, than: best!) { best = index }
                    }
                    return best.map { ($0, false) }
                }
            }
        }
    }

    /// Everything but the path, which the caller has checked (literal) or checks next (patterns).
    private func accepts(_ index: Int, _ request: UnsafePointer<StubRequest>, _ context: inout MatchContext) -> Bool {
        if let method = methods[index], method != request.pointee.method { return false }
        // Loaded stubs all carry a scenario tag; it only narrows anything while one is selected.
        let rank = ranks[index]
        guard rank.constraintCount > 0 || (rank.hasScenario && !context.scenarios.isEmpty) else { return true }
        return context.acceptsConditions(entries[index], request.pointee)
    }

    private func isMoreSpecific(_ candidate: Int, than current: Int) -> Bool {
        let a = ranks[candidate]
        let b = ranks[current]
        if a.kind != b.kind { return a.kind > b.kind }
        if a.constraintCount != b.constraintCount { return a.constraintCount > b.constraintCount }
        if a.priority != b.priority { return a.priority > b.priority }
        return candidate < current
    }
}

/// How a stub ranks among candidates, and whether it has conditions beyond method and path
/// (constraints or a scenario, checked on its ``MatchEntry``).
private struct MatchRank {
    let kind: PathPattern.Kind
    let constraintCount: Int
    let priority: Int
    let hasScenario: Bool

    init(_ stub: Stub) {
        kind = stub.request.path.kind
        constraintCount = stub.request.constraintCount
        priority = stub.priority
        hasScenario = stub.scenario != nil
    }
}

/// What matching needs of a stub, held by reference so that trying a candidate costs one retain
/// instead of copying the whole stub (headers, cookies, body…).
private final class MatchEntry: Sendable {
    let pattern: RequestPattern
    let scenario: ScenarioTag?

    init(_ stub: Stub) {
        pattern = stub.request
        scenario = stub.scenario
    }
}

/// The stub chosen for a request, with the values bound by its path template.
public struct MatchedStub: Sendable, Hashable {
    public var stub: Stub {
        didSet {
            indexInSet = nil
            // The variables are those of the pattern that matched, not of a replacement's.
            if case .matched(let path) = bindings { bindings = .values(Self.bind(oldValue.request.path, path)) }
        }
    }

    /// The stub's position in the set that matched it, while `stub` is unchanged: transports
    /// that keep per-stub data (a server's wire-ready responses) find it without hashing the id.
    package private(set) var indexInSet: Int?

    /// The values the stub's path template bound (`/movies/{id}` for `/movies/42`: `id` → `42`).
    public var pathParameters: [String: String] {
        get {
            switch bindings {
            case .values(let values): values
            case .matched(let path): Self.bind(stub.request.path, path)
            }
        }
        set { bindings = .values(newValue) }
    }

    private enum Bindings: Sendable {
        case values([String: String])
        /// Bound from the stub's pattern, which matched `path`, when read.
        case matched(path: String)
    }

    private var bindings: Bindings

    private static func bind(_ pattern: PathPattern, _ path: String) -> [String: String] {
        PathSegments.withSegments(of: path) { pattern.match($0) } ?? [:]
    }

    public init(stub: Stub, pathParameters: [String: String] = [:]) {
        self.stub = stub
        self.bindings = .values(pathParameters)
    }

    /// `stub`, the `index`-th of its set; its path pattern matched `path` (`nil`: a literal path).
    init(stub: Stub, index: Int, path: String?) {
        self.bindings = path.map { .matched(path: $0) } ?? .values([:])
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

    /// The stub's scenario and constraints (its method and path are checked before).
    mutating func acceptsConditions(_ entry: MatchEntry, _ request: StubRequest) -> Bool {
        // Fields read in place (no copy of the whole pattern).
        if !scenarios.isEmpty, let tag = entry.scenario, let active = scenarios[tag.useCase], active != tag.name { return false }
        for constraint in entry.pattern.query where !queryMatches(constraint, request) { return false }
        for constraint in entry.pattern.headers where !headerMatches(constraint, request) { return false }
        if let origin = entry.pattern.origin, !originMatches(origin, request) { return false }
        for constraint in entry.pattern.body where !bodyMatches(constraint, request) { return false }
        return true
    }

    mutating func differences(_ entry: MatchEntry, _ request: StubRequest, segments: PathSegments) -> [MatchDifference] {
        let pattern = entry.pattern
        var differences: [MatchDifference] = []
        if let method = pattern.method, method != request.method {
            differences.append(.method(expected: method, actual: request.method))
        }
        if !pattern.path.matches(segments) { differences.append(.path(expected: pattern.path.text, actual: request.path)) }
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
