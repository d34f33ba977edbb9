import APICheckJSON
import Foundation

/// What matching reads of every stub, compiled once per set into arrays of plain values over one
/// byte pool: trying a candidate copies bits and borrows bytes, and retains no stub, string or
/// array.
///
/// Why: a server's event loops all match against one set. Reading a stub, a pattern or a
/// constraint string per request would retain and release its storage, and when two cores do that
/// to the same objects every reference count is an atomic write to a cache line the other core
/// owns (measured before this layout: 43% of a two-loop server's cycles). The stubs themselves
/// are read only for the stub chosen, and for near-miss reports.
final class MatchTables: Sendable {
    /// A run of bytes in ``pool``; a negative `count` is "absent" (a constraint without a value).
    struct Bytes: Sendable {
        var start: Int32
        var count: Int32

        static let absent = Bytes(start: 0, count: -1)
        var isAbsent: Bool { count < 0 }
    }

    /// How a stub ranks among candidates, and what it requires beyond method and path.
    struct Rank: Sendable {
        var kind: PathPattern.Kind
        var constraintCount: Int32
        var priority: Int
        /// The stub's scenario tag as numbers (``useCases``, ``scenarioNames``); -1 without one.
        var useCase: Int32
        var scenario: Int32
    }

    /// One constraint, in the order ``RequestPattern/constraintCount`` counts them: query items,
    /// headers, the origin, body constraints.
    struct Condition: Sendable {
        enum Kind: UInt8, Sendable { case query, header, origin, bodyContains, bodyJSONPointer }
        var kind: Kind
        /// Query or header name; the origin's scheme; the text a body contains; a JSON pointer.
        var name: Bytes
        /// Query or header value; the origin's host; the value at a JSON pointer.
        var value: Bytes
        /// The origin's port; -1 for any.
        var port: Int = -1
    }

    let pathIndex: PathIndex
    let ranks: [Rank]
    /// Upper-cased methods; `nil` matches any. Standard methods are small strings, stored inline.
    let methods: [String?]
    /// Per stub, its pattern's run of ``steps`` (empty for literal paths: the index compares those whole).
    let patterns: [Bytes]
    let steps: [PathPattern.Step]
    /// Stub `i`'s conditions are `conditions[conditionStarts[i]..<conditionStarts[i + 1]]`.
    let conditionStarts: [Int32]
    let conditions: [Condition]
    let pool: [UInt8]
    /// Use cases and scenario names as numbers, for ``ScenarioView``.
    let useCases: [String: Int32]
    let scenarioNames: [String: Int32]

    init(_ stubs: [Stub]) {
        pathIndex = PathIndex(stubs)
        var ranks: [Rank] = []
        var methods: [String?] = []
        var patterns: [Bytes] = []
        var steps: [PathPattern.Step] = []
        var conditionStarts: [Int32] = [0]
        var conditions: [Condition] = []
        var pool: [UInt8] = []
        var useCases: [String: Int32] = [:]
        var scenarioNames: [String: Int32] = [:]
        ranks.reserveCapacity(stubs.count)
        methods.reserveCapacity(stubs.count)
        patterns.reserveCapacity(stubs.count)
        conditionStarts.reserveCapacity(stubs.count + 1)

        func bytes(_ text: String?) -> Bytes {
            guard let text else { return .absent }
            let start = Int32(pool.count)
            pool += text.utf8
            return Bytes(start: start, count: Int32(pool.count) - start)
        }

        for stub in stubs {
            let request = stub.request
            var useCase: Int32 = -1
            var scenario: Int32 = -1
            if let tag = stub.scenario {
                useCase = useCases[tag.useCase] ?? Int32(useCases.count)
                useCases[tag.useCase] = useCase
                scenario = scenarioNames[tag.name] ?? Int32(scenarioNames.count)
                scenarioNames[tag.name] = scenario
            }
            ranks.append(Rank(kind: request.path.kind, constraintCount: Int32(request.constraintCount), priority: stub.priority, useCase: useCase, scenario: scenario))
            methods.append(request.method)
            if request.path.kind == .literal {
                patterns.append(Bytes(start: 0, count: 0))
            } else {
                let (start, count) = request.path.appendCompiled(steps: &steps, pool: &pool)
                patterns.append(Bytes(start: start, count: count))
            }
            for constraint in request.query {
                conditions.append(Condition(kind: .query, name: bytes(constraint.name), value: bytes(constraint.value)))
            }
            for constraint in request.headers {
                conditions.append(Condition(kind: .header, name: bytes(constraint.name), value: bytes(constraint.value)))
            }
            if let origin = request.origin {
                conditions.append(Condition(kind: .origin, name: bytes(origin.scheme), value: bytes(origin.host), port: origin.port ?? -1))
            }
            for constraint in request.body {
                switch constraint {
                case .contains(let text): conditions.append(Condition(kind: .bodyContains, name: bytes(text), value: .absent))
                case .jsonPointer(let path, let equals): conditions.append(Condition(kind: .bodyJSONPointer, name: bytes(path), value: bytes(equals)))
                }
            }
            conditionStarts.append(Int32(conditions.count))
        }
        self.ranks = ranks
        self.methods = methods
        self.patterns = patterns
        self.steps = steps
        self.conditionStarts = conditionStarts
        self.conditions = conditions
        self.pool = pool
        self.useCases = useCases
        self.scenarioNames = scenarioNames
    }

    /// `selection` in this set's numbers: use cases the set does not have are left out, a
    /// scenario name it does not have becomes -2 (no stub has it, so the use case answers nothing).
    func view(of selection: ScenarioSelection) -> ScenarioView {
        guard !selection.isEmpty else { return .none }
        var pairs: [ScenarioView.Pair] = []
        for (useCase, name) in selection {
            guard let number = useCases[useCase] else { continue }
            pairs.append(ScenarioView.Pair(useCase: number, scenario: scenarioNames[name] ?? -2))
        }
        return ScenarioView(pairs.sorted { $0.useCase < $1.useCase }, isSelecting: true)
    }
}

/// A scenario selection resolved against one set's use cases and scenario names: matching then
/// compares numbers instead of hashing strings. Make one with ``StubSet/scenarioView(of:)``;
/// valid for that set only.
package struct ScenarioView: Sendable {
    struct Pair: Sendable {
        var useCase: Int32
        var scenario: Int32
    }

    /// Sorted by use case.
    private let pairs: [Pair]
    /// Whether any scenario is selected (even of use cases the set lacks): stubs with a tag then
    /// go through the full check, as they did when the selection was a dictionary.
    let isSelecting: Bool

    init(_ pairs: [Pair], isSelecting: Bool) {
        self.pairs = pairs
        self.isSelecting = isSelecting
    }

    /// No selection: every scenario competes.
    package static let none = ScenarioView([], isSelecting: false)

    /// The scenario selected for `useCase`, if any.
    func selected(for useCase: Int32) -> Int32? {
        var low = 0
        var high = pairs.count
        while low < high {
            let middle = (low + high) / 2
            let pair = pairs[middle]
            if pair.useCase == useCase { return pair.scenario }
            if pair.useCase < useCase { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// Per-request state for checking conditions: the body parsed as JSON at most once. The request
/// is passed to each call (borrowed) rather than stored, which would copy it.
struct ConditionContext {
    let scenarios: ScenarioView
    private var parsedBody: JSONValue??

    init(scenarios: ScenarioView) {
        self.scenarios = scenarios
    }

    /// Whether the stub's scenario is not ruled out by the selection.
    func scenarioAllows(_ rank: MatchTables.Rank) -> Bool {
        guard rank.useCase >= 0, let selected = scenarios.selected(for: rank.useCase) else { return true }
        return selected == rank.scenario
    }

    /// The one check of each constraint: choosing a stub and explaining a near miss both call it.
    mutating func holds(_ condition: MatchTables.Condition, _ request: borrowing StubRequest, _ pool: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = condition.name
        let value = condition.value
        switch condition.kind {
        case .query:
            for item in request.query where Self.equals(item.name, pool, name) {
                if value.isAbsent { return true }
                if let actual = item.value, Self.equals(actual, pool, value) { return true }
            }
            return false
        case .header:
            for header in request.headers where Self.equalsIgnoringCase(header.name, pool, name) {
                if value.isAbsent || Self.equals(header.value, pool, value) { return true }
            }
            return false
        case .origin:
            if !name.isAbsent, !(request.scheme.map { Self.equals($0, pool, name) } ?? false) { return false }
            if !value.isAbsent, !(request.host.map { Self.equals($0, pool, value) } ?? false) { return false }
            if condition.port >= 0, request.port != condition.port { return false }
            return true
        case .bodyContains:
            guard name.count > 0 else { return true }
            return request.body.range(of: Data(pool.slice(name.start, name.count))) != nil
        case .bodyJSONPointer:
            if parsedBody == nil {
                parsedBody = .some(try? JSONParser(maximumDepth: 64).parseValue(Array(request.body)))
            }
            let path = String(decoding: pool.slice(name.start, name.count), as: UTF8.self)
            guard case .some(.some(let json)) = parsedBody, let found = json.value(at: path) else { return false }
            let expected = pool.slice(value.start, value.count)
            if case .string(let string) = found { return Self.equals(string, pool, value) }
            guard let parsed = try? JSONParser(maximumDepth: 64).parseValue(Array(expected)) else { return false }
            return parsed == found
        }
    }

    /// Whether `text` is exactly the bytes `bytes` of `pool`.
    private static func equals(_ text: String, _ pool: UnsafeBufferPointer<UInt8>, _ bytes: MatchTables.Bytes) -> Bool {
        let expected = pool.slice(bytes.start, bytes.count)
        return text.utf8.withContiguousStorageIfAvailable { $0.bytesEqual(expected) } ?? Array(text.utf8).withUnsafeBufferPointer { $0.bytesEqual(expected) }
    }

    /// ``Swift/String/caseInsensitiveEquals(_:)`` against pool bytes (ASCII letters only).
    private static func equalsIgnoringCase(_ text: String, _ pool: UnsafeBufferPointer<UInt8>, _ bytes: MatchTables.Bytes) -> Bool {
        let expected = pool.slice(bytes.start, bytes.count)
        func compare(_ actual: UnsafeBufferPointer<UInt8>) -> Bool {
            guard actual.count == expected.count else { return false }
            for index in 0..<actual.count where !asciiCaseInsensitiveEquals(actual[index], expected[index]) { return false }
            return true
        }
        return text.utf8.withContiguousStorageIfAvailable(compare) ?? Array(text.utf8).withUnsafeBufferPointer(compare)
    }
}
