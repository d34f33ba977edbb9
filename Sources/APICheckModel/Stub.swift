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

    public init(
        id: String, name: String, description: String = "", request: RequestPattern, response: StubResponse,
        priority: Int = 0, source: SourceLocation, scenario: ScenarioTag? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.request = request
        self.response = response
        self.priority = priority
        self.source = source
        self.scenario = scenario
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
