import APICheckModel

/// A check in front of matching: given a request, either nothing (the stubs answer as usual) or
/// a stub that answers instead, such as a problem document for a request the API's contract
/// refuses. `serve --openapi --validate-requests` passes one that checks each request against
/// an OpenAPI document (`APICheckOpenAPI`'s `OpenAPIRequestGate`), so the server and the
/// interceptor gain no second matcher and no knowledge of OpenAPI: the responder asks the gate,
/// then matches as always.
///
/// Called for every request, on the transport's thread (a server's event loop): keep it cheap
/// and never block.
///
/// ```swift
/// struct NoDeletes: RequestGate {
///     func answer(for request: StubRequest) -> Stub? {
///         request.method == "DELETE" ? refusal : nil   // a Stub answering 405
///     }
/// }
/// let responder = StubResponder(stubs: stubs, gate: NoDeletes())
/// ```
public protocol RequestGate: Sendable {
    /// The stub that answers `request` in place of the stub set (journaled under its name), or
    /// `nil` to let the set answer.
    func answer(for request: StubRequest) -> Stub?
}
