import APICheckJSON
import Foundation

/// An immutable, indexed set of stubs that answers "which stub serves this request?".
///
/// Matching is deterministic (FORMATS §3): among stubs whose method and path match, the most
/// specific wins (literal path > template > glob; then more query/header/body/origin constraints;
/// then higher `priority`; then earlier in load order). Lookup goes through an index by literal
/// path, or by first path segment for templates and globs, so its cost does not grow with the set.
/// This is the one matcher: the interceptor, the server and the crawler all call it.
public struct StubSet: Sendable {
    public let stubs: [Stub]
    private let literalIndex: [String: [Int]]
    private let segmentIndex: [String: [Int]]
    private let unindexed: [Int]

    public init(_ stubs: [Stub]) {
        self.stubs = stubs
        var literalIndex: [String: [Int]] = [:]
        var segmentIndex: [String: [Int]] = [:]
        var unindexed: [Int] = []
        for (index, stub) in stubs.enumerated() {
            if stub.request.path.kind == .literal {
                literalIndex[stub.request.path.text, default: []].append(index)
            } else if let segment = stub.request.path.indexSegment {
                segmentIndex[segment, default: []].append(index)
            } else {
                unindexed.append(index)
            }
        }
        self.literalIndex = literalIndex
        self.segmentIndex = segmentIndex
        self.unindexed = unindexed
    }

    public static let empty = StubSet([])

    public var count: Int { stubs.count }
    public var isEmpty: Bool { stubs.isEmpty }

    /// The stub that answers `request`, or why none does.
    public func match(_ request: StubRequest, scenarios: ScenarioSelection = [:]) -> StubMatch {
        var context = MatchContext(request: request, scenarios: scenarios)
        var best: (index: Int, parameters: [String: String])?

        if let candidates = literalIndex[request.path] {
            for index in candidates where context.accepts(stubs[index]) {
                if best == nil || isMoreSpecific(index, than: best!.index) { best = (index, [:]) }
            }
        }
        if best == nil {
            let buckets = [segmentIndex[String(Self.firstSegment(of: request.path))] ?? [], unindexed]
            var segments: [Substring]?
            for bucket in buckets {
                for index in bucket {
                    let stub = stubs[index]
                    guard context.acceptsIgnoringPath(stub) else { continue }
                    if segments == nil { segments = PathPattern.split(request.path) }
                    guard let parameters = stub.request.path.match(segments: segments!) else { continue }
                    if best == nil || isMoreSpecific(index, than: best!.index) { best = (index, parameters) }
                }
            }
        }
        if let best {
            return .matched(MatchedStub(stub: stubs[best.index], pathParameters: best.parameters))
        }
        return .unmatched(nearMisses(for: request, scenarios: scenarios))
    }

    private func isMoreSpecific(_ candidate: Int, than current: Int) -> Bool {
        let a = stubs[candidate]
        let b = stubs[current]
        if a.request.path.kind != b.request.path.kind { return a.request.path.kind > b.request.path.kind }
        if a.request.constraintCount != b.request.constraintCount { return a.request.constraintCount > b.request.constraintCount }
        if a.priority != b.priority { return a.priority > b.priority }
        return candidate < current
    }

    private static func firstSegment(of path: String) -> Substring {
        let rest = path.utf8.first == UInt8(ascii: "/") ? path.dropFirst() : Substring(path)
        return rest.firstIndex(of: "/").map { rest[..<$0] } ?? rest
    }

    // MARK: Near misses (the slow path: only for requests no stub answers)

    /// How many near misses a report lists.
    public static let nearMissLimit = 3

    private func nearMisses(for request: StubRequest, scenarios: ScenarioSelection) -> NearMissReport {
        var context = MatchContext(request: request, scenarios: scenarios)
        let segments = PathPattern.split(request.path)
        var scored: [(score: Int, index: Int, differences: [MatchDifference])] = []
        for (index, stub) in stubs.enumerated() {
            let similarity = Self.pathSimilarity(stub.request.path, segments)
            let differences = context.differences(stub, segments: segments)
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

/// The stub chosen for a request, with the values bound by its path template.
public struct MatchedStub: Sendable, Hashable {
    public var stub: Stub
    public var pathParameters: [String: String]

    public init(stub: Stub, pathParameters: [String: String] = [:]) {
        self.stub = stub
        self.pathParameters = pathParameters
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

/// Per-request state for matching: parses the body as JSON at most once.
private struct MatchContext {
    let request: StubRequest
    let scenarios: ScenarioSelection
    private var parsedBody: JSONValue??

    init(request: StubRequest, scenarios: ScenarioSelection) {
        self.request = request
        self.scenarios = scenarios
    }

    mutating func accepts(_ stub: Stub) -> Bool {
        acceptsIgnoringPath(stub)
    }

    mutating func acceptsIgnoringPath(_ stub: Stub) -> Bool {
        let pattern = stub.request
        if let method = pattern.method, method != request.method { return false }
        if let tag = stub.scenario, let active = scenarios[tag.useCase], active != tag.name { return false }
        for constraint in pattern.query where !queryMatches(constraint) { return false }
        for constraint in pattern.headers where !headerMatches(constraint) { return false }
        if let origin = pattern.origin, !originMatches(origin) { return false }
        for constraint in pattern.body where !bodyMatches(constraint) { return false }
        return true
    }

    mutating func differences(_ stub: Stub, segments: [Substring]) -> [MatchDifference] {
        let pattern = stub.request
        var differences: [MatchDifference] = []
        if let method = pattern.method, method != request.method {
            differences.append(.method(expected: method, actual: request.method))
        }
        let pathMatches = pattern.path.kind == .literal ? pattern.path.text == request.path : pattern.path.match(segments: segments) != nil
        if !pathMatches { differences.append(.path(expected: pattern.path.text, actual: request.path)) }
        for constraint in pattern.query where !queryMatches(constraint) {
            differences.append(.query(expected: constraint, actual: request.query.first { $0.name == constraint.name }?.value))
        }
        for constraint in pattern.headers where !headerMatches(constraint) {
            differences.append(.header(expected: constraint, actual: request.headers.value(named: constraint.name)))
        }
        if let origin = pattern.origin, !originMatches(origin) {
            let actual = OriginConstraint(scheme: request.scheme, host: request.host, port: request.port)
            differences.append(.origin(expected: origin, actual: actual))
        }
        for constraint in pattern.body where !bodyMatches(constraint) {
            differences.append(.body(expected: constraint))
        }
        if let tag = stub.scenario, let active = scenarios[tag.useCase], active != tag.name {
            differences.append(.scenario(tag: tag, active: active))
        }
        return differences
    }

    private func queryMatches(_ constraint: ValueConstraint) -> Bool {
        request.query.contains { item in
            item.name == constraint.name && (constraint.value == nil || item.value == constraint.value)
        }
    }

    private func headerMatches(_ constraint: ValueConstraint) -> Bool {
        request.headers.contains { header in
            header.name.caseInsensitiveEquals(constraint.name) && (constraint.value == nil || header.value == constraint.value)
        }
    }

    private func originMatches(_ origin: OriginConstraint) -> Bool {
        if let scheme = origin.scheme, scheme != request.scheme { return false }
        if let host = origin.host, host != request.host { return false }
        if let port = origin.port, port != request.port { return false }
        return true
    }

    private mutating func bodyMatches(_ constraint: BodyConstraint) -> Bool {
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
