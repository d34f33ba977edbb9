/// One canned answer: a request pattern, a response, and where it was written.
public struct Stub: Sendable, Hashable, Identifiable {
    /// Stable within a load: the source path and the stub's index in its file (`movies/1.json#0`).
    public var id: String
    public var name: String
    public var description: String
    public var request: RequestPattern
    public var response: StubResponse
    /// Breaks ties between equally specific stubs; higher wins.
    public var priority: Int
    public var source: SourceLocation
    /// Set when the stub is one of several alternatives of a use case (PESimu-Select layout).
    public var scenario: ScenarioTag?
    /// Set when the stub answers successive requests with successive responses.
    public var sequence: StubSequence?

    public init(
        id: String, name: String, description: String = "", request: RequestPattern, response: StubResponse,
        priority: Int = 0, source: SourceLocation, scenario: ScenarioTag? = nil, sequence: StubSequence? = nil
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
