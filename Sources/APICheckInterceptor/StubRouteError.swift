import APICheckModel

/// A code stub whose route is not a stub path pattern, located at the call that added it:
/// `Tests/AppTests/CartTests.swift:14:1: error: stub(GET /items/{id): '/items/{id' is not a stub path pattern: …`.
///
/// A mistake in the test's own code, like an invalid regex literal; thrown rather than trapped, so
/// it fails that one test and not the whole test process.
public struct StubRouteError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case invalidPath(String)
    }

    private var code: Code
    /// The route as written.
    public var route: StubRoute
    /// The `#filePath:#line` of the call that added the stub.
    public var location: SourceLocation

    /// `route.path` is not a stub path pattern; `reason` says why.
    public static func invalidPath(_ route: StubRoute, reason: String, at location: SourceLocation) -> StubRouteError {
        StubRouteError(code: .invalidPath(reason), route: route, location: location)
    }

    public var description: String {
        switch code {
        case .invalidPath(let reason):
            "\(location): error: stub(\(route.method ?? "any method") \(route.path)): '\(route.path)' is not a stub path pattern: \(reason)"
        }
    }
}
