import APICheckModel
import APICheckResponder
import Foundation

/// Stubs written in code, next to the test that needs them. Tests add them through
/// `APICheckTesting`'s `withStubs { stubs in try stubs.stub(…) }`, which throws a
/// ``StubRouteError`` for a bad route; the interceptor's own entry points are below.
///
/// A stub added in code wins over every stub added before it (files and earlier code stubs), so a
/// test can override one answer mid-test. Unmatched requests get the near-miss report, which names
/// code stubs by their conditions and the `file:line` that added them.
extension StubInterceptor {
    /// An interceptor with no stub files, for stubs written in code.
    @available(*, deprecated, message: "use withStubs { stubs in try stubs.stub(…) } (APICheckTesting), or StubInterceptor(stubs: .empty)")
    public convenience init(options: Options = Options()) {
        self.init(stubs: StubSet([]), options: options)
    }

    /// Answers requests matching `route` and every condition with what `respond` returns (or
    /// throws: the client gets that error, as is).
    ///
    /// It cannot throw, so a route that is not a stub path pattern makes this interceptor refuse
    /// every request with the ``StubRouteError`` (and logs it) instead of stopping the process.
    @available(*, deprecated, message: "use withStubs { stubs in try stubs.stub(…) } (APICheckTesting): a bad route is then a thrown StubRouteError")
    @discardableResult
    public func stub(
        _ route: StubRoute, _ conditions: StubCondition..., name: String? = nil, filePath: StaticString = #filePath, line: UInt = #line,
        respond: @escaping @Sendable (StubbedRequest) throws -> StubResponse
    ) -> Stub {
        do {
            return try addCodeStub(route, conditions, name: name, filePath: filePath, line: line, respond: respond)
        } catch {
            logger.error("\(error)")
            refuse(error.description)
            return Stub(id: "\(error.location)", name: route.path, request: RequestPattern(method: route.method, path: .anything), response: StubResponse(), source: error.location)
        }
    }

    /// Adds a code stub (``stub(_:_:name:filePath:line:respond:)``'s work, throwing).
    package func addCodeStub(
        _ route: StubRoute, _ conditions: [StubCondition], name: String?, filePath: StaticString, line: UInt,
        respond: @escaping @Sendable (StubbedRequest) throws -> StubResponse
    ) throws(StubRouteError) -> Stub {
        let location = SourceLocation(path: "\(filePath)", line: Int(line), column: 1)
        let pattern: (path: PathPattern, query: [ValueConstraint])
        switch PathPattern.parseWithQuery(route.path) {
        case .success(let parsed): pattern = parsed
        case .failure(let error): throw .invalidPath(route, reason: error.description, at: location)
        }
        let stubName = name ?? (route.method.map { "\($0) \(route.path)" } ?? route.path) + (conditions.isEmpty ? "" : " where " + conditions.map(\.name).joined(separator: ", "))
        let stub = Stub(
            id: "\(location)#\(UUID().uuidString.prefix(8))", name: stubName,
            request: RequestPattern(method: route.method, path: pattern.path, query: pattern.query), response: StubResponse(), source: location
        )
        responder.add(CodeStub(
            stub: stub,
            unmetConditions: { request, parameters in
                let view = StubbedRequest(request, pathParams: parameters)
                return conditions.filter { !$0.test(view) }.map(\.name)
            },
            respond: { request, parameters in try respond(StubbedRequest(request, pathParams: parameters)) }
        ))
        return stub
    }

    /// Removes every stub written in code (the stub files stay).
    public func removeCodeStubs() { responder.removeCodeStubs() }
}

/// The method and path a code stub answers: `.get("/gists/{id}")`, `.any("/files/**")`. The path
/// is a stub path pattern: `{name}` binds a segment, `*` and `**` are globs, `?a=b` constrains the query.
public struct StubRoute: Sendable, Hashable {
    /// `nil`: any method.
    public var method: String?
    public var path: String

    public init(method: String?, path: String) {
        self.method = method?.uppercased()
        self.path = path
    }

    public static func get(_ path: String) -> StubRoute { StubRoute(method: "GET", path: path) }
    public static func head(_ path: String) -> StubRoute { StubRoute(method: "HEAD", path: path) }
    public static func post(_ path: String) -> StubRoute { StubRoute(method: "POST", path: path) }
    public static func put(_ path: String) -> StubRoute { StubRoute(method: "PUT", path: path) }
    public static func patch(_ path: String) -> StubRoute { StubRoute(method: "PATCH", path: path) }
    public static func delete(_ path: String) -> StubRoute { StubRoute(method: "DELETE", path: path) }
    public static func any(_ path: String) -> StubRoute { StubRoute(method: nil, path: path) }
}

/// A named test a request must pass, for a code stub: `.matching("has a token") { $0.headers["Authorization"] != nil }`.
/// The name is what a near-miss report says when it is not met.
public struct StubCondition: Sendable {
    public let name: String
    let test: @Sendable (StubbedRequest) -> Bool

    public static func matching(_ name: String, _ test: @escaping @Sendable (StubbedRequest) -> Bool) -> StubCondition {
        StubCondition(name: name, test: test)
    }
}

/// The request a code stub sees.
public struct StubbedRequest: Sendable {
    public let request: StubRequest
    /// What the route's `{name}` segments bound.
    public let pathParams: [String: String]

    init(_ request: StubRequest, pathParams: [String: String]) {
        self.request = request
        self.pathParams = pathParams
    }

    public var method: String { request.method }
    /// The percent-decoded path.
    public var path: String { request.path }
    public var body: Data { request.body }
    /// Header values by name, case-insensitively (the first of repeated fields).
    public var headers: Fields { Fields(pairs: request.headers.map { ($0.name, $0.value) }, caseInsensitive: true) }
    /// Query values by name (the first of repeated ones; `""` for a name without a value).
    public var query: Fields { Fields(pairs: request.query.map { ($0.name, $0.value ?? "") }, caseInsensitive: false) }

    /// The body decoded as JSON.
    public func json<T: Decodable>(_ type: T.Type = T.self) throws -> T { try JSONDecoder().decode(type, from: request.body) }

    public struct Fields: Sendable {
        let pairs: [(String, String)]
        let caseInsensitive: Bool

        public subscript(name: String) -> String? {
            pairs.first { caseInsensitive ? $0.0.caseInsensitiveCompare(name) == .orderedSame : $0.0 == name }?.1
        }
    }
}

extension StubResponse {
    /// `value` encoded as JSON (`Content-Type: application/json`).
    public static func json<T: Encodable>(_ value: T, status: Int = 200, headers: [String: String] = [:], encoder: JSONEncoder = JSONEncoder()) throws -> StubResponse {
        data(try encoder.encode(value), status: status, contentType: "application/json", headers: headers)
    }

    /// `text` as UTF-8 (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8", headers: [String: String] = [:]) -> StubResponse {
        data(Data(text.utf8), status: status, contentType: contentType, headers: headers)
    }

    /// Bytes as they are.
    public static func data(_ data: Data, status: Int = 200, contentType: String? = nil, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: fields(contentType, headers), body: .bytes(data))
    }

    /// The contents of the file at `url`, read when the request is answered.
    public static func file(_ url: URL, status: Int = 200, contentType: String? = nil, headers: [String: String] = [:]) -> StubResponse {
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        return StubResponse(status: status, headers: fields(contentType, headers), body: .file(StubFile(declaredPath: url.path, url: url, byteCount: size)))
    }

    /// A status and headers, no body.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: fields(nil, headers))
    }

    private static func fields(_ contentType: String?, _ headers: [String: String]) -> [HTTPHeader] {
        (contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []) + headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
    }
}
