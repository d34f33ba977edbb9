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
        self.method = Self.uppercased(method)
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
        let scheme = url.scheme?.lowercased()
        self.init(
            method: method,
            path: url.path(percentEncoded: false),
            query: Self.queryItems(url.query(percentEncoded: true)),
            headers: headers,
            body: body,
            scheme: scheme,
            host: url.host(percentEncoded: false)?.lowercased(),
            port: url.port ?? scheme.flatMap(Self.defaultPort)
        )
    }

    /// `a=1&b&c=%20` → items, percent-decoded (`+` stays `+`: this is a URL query, not a form).
    static func queryItems(_ query: String?) -> [QueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(String(parts[0]))
            let value = parts.count == 2 ? percentDecoded(String(parts[1])) : nil
            return QueryItem(name: name, value: value)
        }
    }

    /// A request for an origin-form target such as `/movies/1?x=y`, as a server receives it.
    /// Parsed by hand: `URLComponents` would read `//movies/1` as a host.
    public init(
        method: String, target: String, headers: [HTTPHeader] = [], body: Data = Data(), scheme: String? = nil, host: String? = nil, port: Int? = nil
    ) {
        // One pass over the bytes for `?`, `#` and `%` (this runs for every request a stub server
        // answers); slices of the UTF-8 view, as String slices would round to Character boundaries.
        let utf8 = target.utf8
        var question: Int?
        var end = utf8.count
        var percentInPath = false
        let scanned: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            for offset in 0..<bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "#"):
                    end = offset
                    return
                case UInt8(ascii: "?") where question == nil:
                    question = offset
                case UInt8(ascii: "%") where question == nil:
                    percentInPath = true
                default:
                    break
                }
            }
        }
        if scanned == nil {
            end = utf8.firstIndex(of: UInt8(ascii: "#")).map { utf8.distance(from: utf8.startIndex, to: $0) } ?? utf8.count
            question = utf8.prefix(end).firstIndex(of: UInt8(ascii: "?")).map { utf8.distance(from: utf8.startIndex, to: $0) }
            percentInPath = utf8.prefix(question ?? end).contains(UInt8(ascii: "%"))
        }
        let pathEnd = question ?? end
        // The common target is all path: keep its storage instead of copying it.
        let rawPath = pathEnd == utf8.count ? target : String(Substring(utf8.prefix(pathEnd)))
        let query = question.map { String(Substring(utf8.dropFirst($0 + 1).prefix(end - $0 - 1))) }
        // Assigned field by field, not through `self.init(…)`: delegating copies the whole
        // request once more, and this runs for every request a server answers.
        self.method = Self.uppercased(method)
        let path = percentInPath ? (rawPath.removingPercentEncoding ?? rawPath) : rawPath
        self.path = path.isEmpty ? "/" : path
        self.query = Self.queryItems(query)
        self.headers = headers
        self.body = body
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    private static func uppercased(_ method: String) -> String {
        method.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } ? method.uppercased() : method
    }

    /// Percent-decoded, or as is when it has no escapes or invalid ones. Skips Foundation's
    /// decoder (the costliest step of a stub server's request) when there is nothing to decode.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.removingPercentEncoding ?? text
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
