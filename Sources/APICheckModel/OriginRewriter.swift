import Foundation

/// Rewrites one origin (`http://localhost:3000`) to another (the server's own) in text bodies and
/// in link-bearing headers, so a stub set whose hrefs name a fixed origin works on any port.
///
/// Matching is byte-exact on the origin as given (scheme, host and port as written, lower-cased
/// scheme and host), only at origin boundaries: `http://localhost:3000` is not rewritten inside
/// `http://localhost:30001` or `http://localhost:3000.example`. The JSON-escaped form
/// (`http:\/\/localhost:3000`) is rewritten too. The search is linear in the text (KMP), so a
/// hostile body cannot make it quadratic.
///
/// ```swift
/// let rewriter = try OriginRewriter(from: "http://localhost:3000", to: "http://127.0.0.1:8080")
/// rewriter.rewrite(Array(#"{"href":"http://localhost:3000/movies"}"#.utf8))  // …127.0.0.1:8080/movies
/// ```
public struct OriginRewriter: Sendable, Hashable {
    /// The origin replaced, normalised (`scheme://host[:port]`).
    public let from: String
    /// The origin written instead.
    public let to: String
    private let plain: Pattern
    private let escaped: Pattern

    /// Headers whose values are links and are rewritten too.
    public static let linkHeaders = StubResponse.linkHeaderNames

    /// A rewriter of `from` into `to`; both must be origins (`http://host[:port]`, no path).
    public init(from: String, to: String) throws(OriginError) {
        self.from = try Self.normalizedOrigin(from)
        self.to = try Self.normalizedOrigin(to)
        plain = Pattern(Array(self.from.utf8), replacement: Array(self.to.utf8))
        escaped = Pattern(
            Array(self.from.replacingOccurrences(of: "/", with: "\\/").utf8),
            replacement: Array(self.to.replacingOccurrences(of: "/", with: "\\/").utf8)
        )
    }

    /// A rewriter of the origin `from` into `placeholder`, verbatim, in both the plain and the
    /// JSON-escaped form: a recorder writes `{{baseURL}}` where the upstream's origin was.
    public init(from: String, placeholder: String) throws(OriginError) {
        self.from = try Self.normalizedOrigin(from)
        self.to = placeholder
        plain = Pattern(Array(self.from.utf8), replacement: Array(placeholder.utf8))
        escaped = Pattern(Array(self.from.replacingOccurrences(of: "/", with: "\\/").utf8), replacement: Array(placeholder.utf8))
    }

    /// Why a text is not an origin.
    public struct OriginError: Error, Sendable, CustomStringConvertible {
        /// The text given as an origin.
        public let text: String
        /// What is wrong with it.
        public let reason: String
        /// The message for people, with the expected form.
        public var description: String { "'\(text)' is not an origin (\(reason)); write it as http://host:port" }
    }

    /// `scheme://host[:port]` with scheme and host lower-cased and no trailing slash.
    /// `scheme://host[:port]` of `url` (lower-cased, default ports left out): the `baseURL`
    /// templates see, and what two URLs must share to be of the same origin. Equal to
    /// ``normalizedOrigin(_:)`` of the same origin written as text.
    public static func origin(of url: URL) -> String {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return "" }
        return origin(scheme: scheme, host: host, port: url.port)
    }

    /// The origin of a URL whose scheme and host are already lowercased.
    package static func origin(scheme: String, host: String, port: Int?) -> String {
        let defaultPort = scheme == "https" ? 443 : 80
        let port = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(port)"
    }

    public static func normalizedOrigin(_ text: String) throws(OriginError) -> String {
        var rest = Substring(text)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let separator = rest.range(of: "://") else { throw OriginError(text: text, reason: "no scheme") }
        let scheme = rest[..<separator.lowerBound].lowercased()
        let authority = rest[separator.upperBound...]
        guard scheme == "http" || scheme == "https" else { throw OriginError(text: text, reason: "the scheme must be http or https") }
        guard !authority.isEmpty else { throw OriginError(text: text, reason: "no host") }
        guard !authority.contains(where: { "/?#@ \t\r\n\"'<>\\".contains($0) }) else {
            throw OriginError(text: text, reason: "an origin has no path, query, user or spaces")
        }
        var normalized = authority.lowercased()
        // As `origin(of:)` writes it: `http://x:80` and `http://x` are one origin.
        for (defaultScheme, suffix) in [("http", ":80"), ("https", ":443")] where scheme == defaultScheme && normalized.hasSuffix(suffix) {
            normalized.removeLast(suffix.count)
        }
        return "\(scheme)://\(normalized)"
    }

    // MARK: Rewriting

    /// The text with every occurrence of ``from`` rewritten, or `nil` when there is none (so
    /// callers keep their bytes without copying).
    public func rewrite(_ bytes: [UInt8]) -> [UInt8]? {
        let first = plain.replace(in: bytes)
        let second = escaped.replace(in: first ?? bytes)
        return second ?? first
    }

    /// The string with every occurrence of ``from`` rewritten.
    public func rewrite(_ text: String) -> String {
        guard let rewritten = rewrite(Array(text.utf8)) else { return text }
        return String(decoding: rewritten, as: UTF8.self)
    }

    /// Whether a body of this `Content-Type` is text worth rewriting: `text/*`, JSON and XML
    /// (including `+json` and `+xml` types), JavaScript and forms. Without a type, a body is
    /// rewritten only when it is valid UTF-8 (`isUTF8`).
    public static func isText(contentType: String?, isUTF8: @autoclosure () -> Bool) -> Bool {
        guard let contentType else { return isUTF8() }
        let essence = ContentTypeHeader.essence(of: contentType)
        if essence.hasPrefix("text/") || essence.hasSuffix("+json") || essence.hasSuffix("+xml") { return true }
        switch essence {
        case "application/json", "application/xml", "application/javascript", "application/x-www-form-urlencoded",
            "application/hal+json", "application/xhtml+xml", "application/ld+json":
            return true
        default:
            return false
        }
    }

    /// A needle, its replacement and its KMP failure table.
    private struct Pattern: Sendable, Hashable {
        let needle: [UInt8]
        let replacement: [UInt8]
        let failure: [Int]

        init(_ needle: [UInt8], replacement: [UInt8]) {
            self.needle = needle
            self.replacement = replacement
            var failure = [Int](repeating: 0, count: needle.count)
            var length = 0
            var index = 1
            while index < needle.count {
                if needle[index] == needle[length] {
                    length += 1
                    failure[index] = length
                    index += 1
                } else if length > 0 {
                    length = failure[length - 1]
                } else {
                    index += 1
                }
            }
            self.failure = failure
        }

        /// Bytes that may continue a host or port: after them the origin would be another one.
        private static func continuesAuthority(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }

        /// Bytes that may precede a scheme inside a longer scheme (`xhttp://`).
        private static func continuesScheme(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        func replace(in text: [UInt8]) -> [UInt8]? {
            guard !needle.isEmpty, text.count >= needle.count else { return nil }
            var output: [UInt8] = []
            var copied = 0
            var matched = 0
            var index = 0
            while index < text.count {
                let byte = text[index]
                while matched > 0 && byte != needle[matched] { matched = failure[matched - 1] }
                if byte == needle[matched] { matched += 1 }
                if matched == needle.count {
                    let start = index + 1 - needle.count
                    let end = index + 1
                    let clean = (end == text.count || !Self.continuesAuthority(text[end])) && (start == 0 || !Self.continuesScheme(text[start - 1]))
                    if clean {
                        if output.isEmpty { output.reserveCapacity(text.count + 64) }
                        output.append(contentsOf: text[copied..<start])
                        output.append(contentsOf: replacement)
                        copied = end
                        matched = 0
                    } else {
                        matched = failure[matched - 1]
                    }
                }
                index += 1
            }
            guard copied > 0 else { return nil }
            output.append(contentsOf: text[copied...])
            return output
        }
    }
}
