/// One canned answer: a request pattern, a response, and where it was written.
///
/// A value with copy-on-write storage: every match hands out a copy of the stub, and a copy is
/// one reference count instead of one per string and array it holds.
public struct Stub: Sendable, Hashable, Identifiable {
    /// Stable within a load: the source path and the stub's index in its file (`movies/1.json#0`).
    public var id: String {
        get { storage.id }
        set { unique().id = newValue }
    }
    public var name: String {
        get { storage.name }
        set { unique().name = newValue }
    }
    public var description: String {
        get { storage.description }
        set { unique().description = newValue }
    }
    public var request: RequestPattern {
        get { storage.request }
        set { unique().request = newValue }
    }
    public var response: StubResponse {
        get { storage.response }
        set { unique().response = newValue }
    }
    /// Breaks ties between equally specific stubs; higher wins.
    public var priority: Int {
        get { storage.priority }
        set { unique().priority = newValue }
    }
    public var source: SourceLocation {
        get { storage.source }
        set { unique().source = newValue }
    }
    /// Set when the stub is one of several alternatives of a use case (PESimu-Select layout).
    public var scenario: ScenarioTag? {
        get { storage.scenario }
        set { unique().scenario = newValue }
    }
    /// Set when the stub answers successive requests with successive responses.
    public var sequence: StubSequence? {
        get { storage.sequence }
        set { unique().sequence = newValue }
    }

    /// Mutable only through `unique()`, that is while no other `Stub` shares it, which is what
    /// makes the unchecked `Sendable` sound.
    private final class Storage: @unchecked Sendable {
        var id: String
        var name: String
        var description: String
        var request: RequestPattern
        var response: StubResponse
        var priority: Int
        var source: SourceLocation
        var scenario: ScenarioTag?
        var sequence: StubSequence?

        init(
            id: String, name: String, description: String, request: RequestPattern, response: StubResponse, priority: Int,
            source: SourceLocation, scenario: ScenarioTag?, sequence: StubSequence?
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.request = request
            self.response = response
            self.priority = priority
            self.source = source
            self.scenario = scenario
            self.sequence = sequence
        }

        func copy() -> Storage {
            Storage(
                id: id, name: name, description: description, request: request, response: response, priority: priority, source: source,
                scenario: scenario, sequence: sequence
            )
        }
    }

    private var storage: Storage

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public init(
        id: String, name: String, description: String = "", request: RequestPattern, response: StubResponse,
        priority: Int = 0, source: SourceLocation, scenario: ScenarioTag? = nil, sequence: StubSequence? = nil
    ) {
        storage = Storage(
            id: id, name: name, description: description, request: request, response: response, priority: priority, source: source,
            scenario: scenario, sequence: sequence
        )
    }

    public static func == (lhs: Stub, rhs: Stub) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let a = lhs.storage
        let b = rhs.storage
        return a.id == b.id && a.name == b.name && a.description == b.description && a.request == b.request && a.response == b.response
            && a.priority == b.priority && a.source == b.source && a.scenario == b.scenario && a.sequence == b.sequence
    }

    public func hash(into hasher: inout Hasher) {
        let s = storage
        hasher.combine(s.id)
        hasher.combine(s.name)
        hasher.combine(s.description)
        hasher.combine(s.request)
        hasher.combine(s.response)
        hasher.combine(s.priority)
        hasher.combine(s.source)
        hasher.combine(s.scenario)
        hasher.combine(s.sequence)
    }

    /// The response for the `call`-th request this stub answers (0-based); `nil` once a sequence
    /// that fails after its last response is exhausted.
    public func response(forCall call: Int) -> StubResponse? {
        guard let sequence, !sequence.responses.isEmpty else { return response }
        if call < sequence.responses.count { return sequence.responses[call] }
        switch sequence.afterLast {
        case .repeatLast: return sequence.responses.last
        case .fail: return nil
        }
    }
}

/// Responses a stub gives in order, one per request, and what happens after the last.
public struct StubSequence: Sendable, Hashable {
    public enum AfterLast: String, Sendable, Hashable, CaseIterable {
        /// Keep answering with the last response.
        case repeatLast = "repeat-last"
        /// Answer no more: the request is unmatched, as if the stub were gone.
        case fail
    }

    /// Every response in order; the stub's `response` is the first.
    public var responses: [StubResponse]
    public var afterLast: AfterLast

    public init(responses: [StubResponse], afterLast: AfterLast = .repeatLast) {
        self.responses = responses
        self.afterLast = afterLast
    }
}

/// Names a stub as scenario `name` of use case `useCase` (the folder `screen/use-case`).
public struct ScenarioTag: Sendable, Hashable, CustomStringConvertible {
    public var useCase: String
    public var name: String

    public init(useCase: String, name: String) {
        self.useCase = useCase
        self.name = name
    }

    public var description: String { "\(useCase)=\(name)" }
}

/// The active scenario per use case. Use cases not named here let every scenario compete,
/// and the usual order decides (so the first scenario in file order is the default).
public typealias ScenarioSelection = [String: String]
