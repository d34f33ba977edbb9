/// Why no stub answered a request, listing the nearest stubs and what each lacked.
///
/// Its `description` is what users read: the interceptor's error text and the stub server's 404.
public struct NearMissReport: Sendable, Hashable, CustomStringConvertible {
    public var request: StubRequest
    /// The nearest stubs, nearest first; empty only when the set is empty.
    public var nearMisses: [NearMiss]

    public init(request: StubRequest, nearMisses: [NearMiss]) {
        self.request = request
        self.nearMisses = nearMisses
    }

    public var description: String {
        guard !nearMisses.isEmpty else {
            return "No stub matches \(request.summary): the stub set is empty."
        }
        var lines = ["No stub matches \(request.summary). Nearest stubs:"]
        for miss in nearMisses {
            lines.append("  - \"\(miss.stub.name)\" (\(miss.stub.source)):")
            for difference in miss.differences {
                lines.append("      \(difference)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// One stub that came close, and the reasons it did not match.
public struct NearMiss: Sendable, Hashable {
    public var stub: Stub
    public var differences: [MatchDifference]

    public init(stub: Stub, differences: [MatchDifference]) {
        self.stub = stub
        self.differences = differences
    }
}

/// One reason a stub did not match a request.
public enum MatchDifference: Sendable, Hashable, CustomStringConvertible {
    case method(expected: String, actual: String)
    case path(expected: String, actual: String)
    case query(expected: ValueConstraint, actual: String?)
    case header(expected: ValueConstraint, actual: String?)
    case body(expected: BodyConstraint)
    case origin(expected: OriginConstraint, actual: OriginConstraint)
    case scenario(tag: ScenarioTag, active: String)
    /// A named condition of a stub written in code (`.matching("has token") { … }`) is not met.
    case condition(name: String)

    public var description: String {
        switch self {
        case .method(let expected, let actual):
            return "method: expected \(expected), got \(actual)"
        case .path(let expected, let actual):
            return "path: expected \(expected), got \(actual)"
        case .query(let expected, let actual):
            return "query: expected \(expected), " + (actual.map { "got \(expected.name)=\($0)" } ?? "\(expected.name) is missing")
        case .header(let expected, let actual):
            return "header: expected \(expected.name): \(expected.value ?? "(any)"), "
                + (actual.map { "got \"\($0)\"" } ?? "\(expected.name) is missing")
        case .body(let expected):
            return "body: expected \(expected)"
        case .origin(let expected, let actual):
            return "origin: expected \(expected), got \(actual)"
        case .scenario(let tag, let active):
            return "scenario: this is \(tag.name) of \(tag.useCase), but \(active) is active"
        case .condition(let name):
            return "condition: \"\(name)\" is not met"
        }
    }
}
