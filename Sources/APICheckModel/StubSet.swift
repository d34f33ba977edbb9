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
    private let tables: MatchTables

    public init(_ stubs: [Stub]) {
        self.stubs = stubs
        tables = MatchTables(stubs)
    }

    public static let empty = StubSet([])

    public var count: Int { stubs.count }
    public var isEmpty: Bool { stubs.isEmpty }

    /// The stub that answers `request`, or why none does.
    public func match(_ request: StubRequest, scenarios: ScenarioSelection = [:]) -> StubMatch {
        let view = tables.view(of: scenarios)
        guard let chosen = choose(request, scenarios: view) else {
            return .unmatched(nearMisses(for: request, selection: scenarios, view: view))
        }
        return .matched(matched(chosen, for: request))
    }

    /// `selection` resolved against this set, for ``choose(_:scenarios:)``.
    package func scenarioView(of selection: ScenarioSelection) -> ScenarioView {
        tables.view(of: selection)
    }

    /// The position of the stub that answers `request`, reading only the set's match tables: no
    /// stub is copied and nothing the set holds is retained, so any number of threads can match
    /// against one set without sharing a reference count (``match(_:scenarios:)`` is this, then
    /// a copy of the stub chosen).
    package func choose(_ request: borrowing StubRequest, scenarios: ScenarioView) -> ChosenStub? {
        var context = ConditionContext(scenarios: scenarios)
        return tables.choose(request, &context)
    }

    /// The stub `chosen` names, as a match for `request`.
    package func matched(_ chosen: ChosenStub, for request: borrowing StubRequest) -> MatchedStub {
        // A template's variables are bound when read (templates read them; static responses never do).
        MatchedStub(stub: stubs[chosen.index], index: chosen.index, path: chosen.literal ? nil : request.path)
    }

    // MARK: Near misses (the slow path: only for requests no stub answers)

    /// How many near misses a report lists.
    public static let nearMissLimit = 3
    /// How many stubs a near-miss search scores at most, so a 404 costs the same on any set size.
    public static let nearMissSearchLimit = 2048

    private func nearMisses(for request: StubRequest, selection: ScenarioSelection, view: ScenarioView) -> NearMissReport {
        PathSegments.withSegments(of: request.path) { segments in
            var context = ConditionContext(scenarios: view)
            var scored: [(score: Int, distance: Int, index: Int, differences: [MatchDifference])] = []
            for candidate in nearMissCandidates(for: request, segments: segments) {
                let index = Int(candidate)
                let stub = stubs[index]
                let similarity = stub.request.path.similarity(to: segments)
                let differences = tables.differences(index, stub, request, segments: segments, selection: selection, &context)
                // Fewer differences first; among equals, the more similar path, then the fewer edits
                // (NearMissRanking), counted only for a stub that can still make the list.
                let score = differences.count * 1000 - similarity
                if scored.count == Self.nearMissLimit, let last = scored.last, score > last.score { continue }
                let distance = NearMissRanking.distance(stub.request.path, request.path)
                if scored.count < Self.nearMissLimit {
                    scored.append((score, distance, index, differences))
                } else if let last = scored.last, (score, distance, index) < (last.score, last.distance, last.index) {
                    scored[scored.count - 1] = (score, distance, index, differences)
                } else {
                    continue
                }
                scored.sort { ($0.score, $0.distance, $0.index) < ($1.score, $1.distance, $1.index) }
            }
            return NearMissReport(request: request, nearMisses: scored.map { NearMiss(stub: stubs[$0.index], differences: $0.differences) })
        }
    }

    /// The stubs worth explaining: same path (other methods or constraints), patterns along the
    /// request's prefix, literal stubs at its ancestor paths; the whole set only when it is small,
    /// else the first ``nearMissSearchLimit`` stubs as a last resort.
    private func nearMissCandidates(for request: StubRequest, segments: PathSegments) -> [Int32] {
        if stubs.count <= Self.nearMissSearchLimit { return (0..<Int32(stubs.count)).map { $0 } }
        var candidates: [Int32] = []
        let pathIndex = tables.pathIndex
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

/// A stub chosen by ``StubSet/choose(_:scenarios:)``: its position, and whether its path is literal
/// (nothing to bind).
package struct ChosenStub: Sendable, Hashable {
    package let index: Int
    package let literal: Bool
}

extension MatchTables {
    /// The position of the stub that answers `request`, and whether its path is literal.
    func choose(_ request: borrowing StubRequest, _ context: inout ConditionContext) -> ChosenStub? {
        // The closures read the request through a pointer: capturing it would copy it (a dozen
        // reference counts) into their contexts.
        withUnsafePointer(to: request) { request in
            pool.withUnsafeBufferPointer { pool in
                PathSegments.withBytes(of: request.pointee.path) { bytes in
                    var best: Int?
                    pathIndex.forEachLiteral(at: bytes) { candidate in
                        let index = Int(candidate)
                        guard accepts(index, request, &context, pool) else { return }
                        if best == nil || isMoreSpecific(index, than: best!) { best = index }
                    }
                    if let best { return ChosenStub(index: best, literal: true) }
                    guard pathIndex.hasPatterns else { return nil }
                    return PathSegments.withSegments(of: bytes) { path in
                        steps.withUnsafeBufferPointer { steps in
                            pathIndex.forEachPattern(along: path) { candidate in
                                let index = Int(candidate)
                                // A pattern can only beat the current best if it is at least as specific by kind.
                                if let current = best, ranks[current].kind > ranks[index].kind { return }
                                guard accepts(index, request, &context, pool), matchesPattern(index, path, steps, pool) else { return }
                                if best == nil || isMoreSpecific(index, than: best!) { best = index }
                            }
                        }
                        return best.map { ChosenStub(index: $0, literal: false) }
                    }
                }
            }
        }
    }

    private func matchesPattern(_ index: Int, _ path: PathSegments, _ steps: UnsafeBufferPointer<PathPattern.Step>, _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = patterns[index]
        var bindings: [String: String]? = nil
        return PathPattern.run(UnsafeBufferPointer(rebasing: steps[Int(span.start)..<Int(span.start + span.count)]), pool, [], path, &bindings)
    }

    /// Everything but the path, which the caller has checked (literal) or checks next (patterns).
    private func accepts(_ index: Int, _ request: UnsafePointer<StubRequest>, _ context: inout ConditionContext, _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        if let method = methods[index], method != request.pointee.method { return false }
        // Loaded stubs all carry a scenario tag; it only narrows anything while one is selected.
        let rank = ranks[index]
        guard rank.constraintCount > 0 || (rank.useCase >= 0 && context.scenarios.isSelecting) else { return true }
        guard context.scenarioAllows(rank) else { return false }
        return conditions.withUnsafeBufferPointer { conditions in
            for position in Int(conditionStarts[index])..<Int(conditionStarts[index + 1]) where !context.holds(conditions[position], request.pointee, pool) {
                return false
            }
            return true
        }
    }

    private func isMoreSpecific(_ candidate: Int, than current: Int) -> Bool {
        let a = ranks[candidate]
        let b = ranks[current]
        if a.kind != b.kind { return a.kind > b.kind }
        if a.constraintCount != b.constraintCount { return a.constraintCount > b.constraintCount }
        if a.priority != b.priority { return a.priority > b.priority }
        return candidate < current
    }

    /// Why stub `index` (`stub`) does not answer `request`: each constraint decided by the same
    /// check that choosing uses, described with the stub's own values.
    func differences(
        _ index: Int, _ stub: Stub, _ request: StubRequest, segments: PathSegments, selection: ScenarioSelection, _ context: inout ConditionContext
    ) -> [MatchDifference] {
        let pattern = stub.request
        var differences: [MatchDifference] = []
        if let method = pattern.method, method != request.method {
            differences.append(.method(expected: method, actual: request.method))
        }
        if !pattern.path.matches(segments) { differences.append(.path(expected: pattern.path.text, actual: request.path)) }
        let first = Int(conditionStarts[index])
        let queries = pattern.query.count
        let headers = pattern.headers.count
        let origins = pattern.origin == nil ? 0 : 1
        pool.withUnsafeBufferPointer { pool in
            for position in first..<Int(conditionStarts[index + 1]) where !context.holds(conditions[position], request, pool) {
                // Conditions are compiled in the pattern's order: query, headers, origin, body.
                let offset = position - first
                if offset < queries {
                    let constraint = pattern.query[offset]
                    differences.append(.query(expected: constraint, actual: request.query.first { $0.name == constraint.name }?.value))
                } else if offset < queries + headers {
                    let constraint = pattern.headers[offset - queries]
                    differences.append(.header(expected: constraint, actual: request.headers.value(named: constraint.name)))
                } else if offset < queries + headers + origins, let origin = pattern.origin {
                    differences.append(.origin(expected: origin, actual: OriginConstraint(scheme: request.scheme, host: request.host, port: request.port)))
                } else {
                    differences.append(.body(expected: pattern.body[offset - queries - headers - origins]))
                }
            }
        }
        if let tag = stub.scenario, !context.scenarioAllows(ranks[index]) {
            differences.append(.scenario(tag: tag, active: selection[tag.useCase] ?? ""))
        }
        return differences
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
