import Foundation

/// A request to be matched against stubs, transport-neutral.
public struct StubRequest: Sendable, Hashable {
    /// Upper-cased method.
    public var method: String
    /// The percent-decoded path, starting with `/`.
    public var path: String
    /// Query items in order, percent-decoded.
    public var query: [QueryItem]
    public var headers: [HTTPHeader]
    public var body: Data
    public var scheme: String?
    public var host: String?
    public var port: Int?

    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [HTTPHeader] = [], body: Data = Data(),
        scheme: String? = nil, host: String? = nil, port: Int? = nil
    ) {
        self.method = method.uppercased()
        self.path = path.isEmpty ? "/" : path
        self.query = query
        self.headers = headers
        self.body = body
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// A request for `url` (absolute, or a path with an optional query).
    public init(method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: Data = Data()) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        self.init(
            method: method,
            path: components?.path ?? url.path,
            query: (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) },
            headers: headers,
            body: body,
            scheme: components?.scheme?.lowercased(),
            host: components?.host?.lowercased(),
            port: components?.port ?? components?.scheme.flatMap(Self.defaultPort)
        )
    }

    /// A request for a target such as `/movies/1?x=y`, as a server receives it.
    public init(method: String, target: String, headers: [HTTPHeader] = [], body: Data = Data()) {
        let components = URLComponents(string: target)
        self.init(
            method: method,
            path: components?.path ?? (target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"),
            query: (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) },
            headers: headers,
            body: body
        )
    }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// `GET /path?query`, for messages.
    public var summary: String {
        var text = "\(method) \(path)"
        if !query.isEmpty {
            text += "?" + query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
        }
        return text
    }
}
