import APICheckJSON
import APICheckModel

/// Everything a template can see (FORMATS §4).
///
/// A template reads these names:
///
/// | name | value |
/// |---|---|
/// | `request.method` | the upper-cased method |
/// | `request.path` | the percent-decoded path |
/// | `request.pathParams.<name>` | a `{name}` bound by the stub's path template |
/// | `request.query.<name>` | the first value of a query parameter (`""` when it has no value) |
/// | `request.headers.<name>` | the first value of a header, name compared case-insensitively |
/// | `request.json.<path…>` | the body parsed as JSON (objects, arrays for sections, numbers as written, `true`/`false`; `null` is absent) |
/// | `request.body` | the body as text, when it is UTF-8 |
/// | `baseURL` | the origin that serves the stub, without a trailing slash |
/// | `<variable>` | each of the stub's variables |
///
/// A name the context does not have renders as nothing.
///
/// ```swift
/// let context = TemplateContext(
///     request: StubRequest(method: "GET", target: "/movies/42?lang=en"),
///     pathParameters: ["id": "42"],
///     baseURL: "http://127.0.0.1:8080"
/// )
/// ```
public struct TemplateContext: Sendable {
    /// The request being answered.
    public var request: StubRequest
    /// The values the stub's path template bound, by name (`/movies/{id}` binds `id`).
    public var pathParameters: [String: String]
    /// The origin that serves the stub, for example `http://127.0.0.1:8080`, without a trailing slash.
    public var baseURL: String
    /// The stub's own variables. They are added to the ``APICheckModel/StubTemplate/variables`` of the
    /// template being rendered, and win over them when both define a name.
    public var variables: [String: JSONValue]

    /// A context for one request.
    public init(request: StubRequest, pathParameters: [String: String] = [:], baseURL: String, variables: [String: JSONValue] = [:]) {
        self.request = request
        self.pathParameters = pathParameters
        self.baseURL = baseURL
        self.variables = variables
    }
}
