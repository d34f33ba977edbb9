/// A URI reference split into its five components (RFC 3986 §3, parsed as Appendix B does).
///
/// Splitting never fails: any string has a scheme-less path at least. Components are kept as
/// written, without decoding; `nil` means absent, which differs from empty (`http://a/b?` has
/// an empty query).
public struct URIReference: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, as written (`http`), without the colon.
    public var scheme: String?
    /// `userinfo@host:port`, as written, without the `//`.
    public var authority: String?
    /// The path, as written (may be empty).
    public var path: String
    /// The query, without the `?`.
    public var query: String?
    /// The fragment, without the `#`.
    public var fragment: String?

    /// A reference from its components.
    public init(scheme: String? = nil, authority: String? = nil, path: String = "", query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` at the first `:` (when what precedes it is a valid scheme), `//`, `?` and `#`.
    public init(parsing text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        var scheme: String?
        if let colon = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            bytes[colon] == UInt8(ascii: ":"), colon > 0, Self.isScheme(bytes[0..<colon])
        {
            scheme = String(decoding: bytes[0..<colon], as: UTF8.self)
            index = colon + 1
        }
        var authority: String?
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            let start = index + 2
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
                end += 1
            }
            authority = String(decoding: bytes[start..<end], as: UTF8.self)
            index = end
        }
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        let path = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        var query: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
            var queryEnd = index + 1
            while queryEnd < bytes.count, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
            query = String(decoding: bytes[(index + 1)..<queryEnd], as: UTF8.self)
            index = queryEnd
        }
        var fragment: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            fragment = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        }
        self.init(scheme: scheme, authority: authority, path: path, query: query, fragment: fragment)
    }

    /// The authority split at its last `@` (user information may contain `@` only
    /// percent-encoded, but hostile input need not follow the rules); `nil` without authority.
    public var userInfoAndHost: (userInfo: String?, hostPort: String)? {
        guard let authority else { return nil }
        guard let at = authority.lastIndex(of: "@") else { return (nil, authority) }
        return (String(authority[..<at]), String(authority[authority.index(after: at)...]))
    }

    /// Whether the reference has a scheme (an absolute URI or one with a fragment).
    public var isAbsolute: Bool { scheme != nil }

    /// The components recomposed (RFC 3986 §5.3).
    public var description: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, URICharacters.isAlpha(first) else { return false }
        return bytes.allSatisfy {
            URICharacters.isAlpha($0) || URICharacters.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }
}
