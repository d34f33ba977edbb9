import APICheckModel
import Foundation

/// A stub written in code: a request pattern (method, path, query, headers) like any stub's, named
/// conditions checked by closures, and a closure that makes the response from the request.
///
/// A responder checks code stubs before its stub set, newest first: a stub added at run time wins
/// over every stub added before it (files and earlier code stubs), whatever their specificity, as
/// OHHTTPStubs and Mocker users expect. A code stub that does not match takes part in near-miss
/// reports like any other, its unmet conditions named. Built by the interceptor's
/// `stub(_:_:respond:)`; the stub server only serves files.
public struct CodeStub: Sendable {
    /// The pattern, name and source location (`#filePath:#line` of the call that added it).
    public let stub: Stub
    /// The names of the conditions `request` does not meet (none: it matches).
    let unmetConditions: @Sendable (StubRequest, [String: String]) -> [String]
    /// The response; a thrown error is what the client gets (in-process).
    let respond: @Sendable (StubRequest, [String: String]) throws -> StubResponse
    /// `stub` alone, for matching its pattern.
    let pattern: StubSet

    public init(
        stub: Stub, unmetConditions: @escaping @Sendable (StubRequest, [String: String]) -> [String],
        respond: @escaping @Sendable (StubRequest, [String: String]) throws -> StubResponse
    ) {
        self.stub = stub
        self.unmetConditions = unmetConditions
        self.respond = respond
        self.pattern = StubSet([stub])
    }

    /// What the code stub does with `request`.
    enum Outcome {
        case answers(MatchedStub, Result<StubResponse, any Error>)
        case misses(NearMiss)
    }

    func answer(_ request: StubRequest, scenarios: ScenarioSelection) -> Outcome {
        switch pattern.match(request, scenarios: scenarios) {
        case .unmatched(let report):
            return .misses(report.nearMisses.first ?? NearMiss(stub: stub, differences: []))
        case .matched(let matched):
            let unmet = unmetConditions(request, matched.pathParameters)
            guard unmet.isEmpty else { return .misses(NearMiss(stub: stub, differences: unmet.map { .condition(name: $0) })) }
            return .answers(matched, Result { try respond(request, matched.pathParameters) })
        }
    }
}
