/// A URL reference split into the five parts of RFC 3986 §3, nothing decoded, so that putting it
/// back together gives the same text. Enough for redaction and normalisation; resolution and
/// validation are the crawler's business.
package struct URLParts: Sendable, Hashable {
    /// Without the `:`; `nil` for a relative reference (or text that is not a URL).
    package var scheme: String?
    /// Without the leading `//`; `nil` when there is no authority.
    package var authority: String?
    package var path: String
    /// Without the `?`.
    package var query: String?
    /// Without the `#`.
    package var fragment: String?

    package init(_ string: String) {
        var rest = Substring(string)
        scheme = nil
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        fragment = nil
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        query = nil
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        authority = nil
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    /// The reference written back.
    package var string: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1).
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, isAlpha(first) else { return false }
        return text.utf8.allSatisfy { byte in
            isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// The authority split at its last `@` (user information may itself contain `@` only
    /// percent-encoded, but hostile input need not follow the rules).
    package var userInfoAndHost: (userInfo: String?, hostPort: String)? {
        guard let authority else { return nil }
        guard let at = authority.lastIndex(of: "@") else { return (nil, authority) }
        return (String(authority[..<at]), String(authority[authority.index(after: at)...]))
    }

    /// The URL in the form two spellings of the same resource share (RFC 3986 §6.2.2 plus
    /// scheme-based normalisation): lower-case scheme and host, no user information, no default
    /// port, `/` for an empty path, upper-case percent-escapes with unreserved characters
    /// decoded, no fragment. The query keeps its order: it can be meaningful.
    package var normalized: String {
        var parts = self
        parts.scheme = scheme?.lowercased()
        if let (_, hostPort) = userInfoAndHost {
            var host = Substring(hostPort)
            var port: Substring?
            // A port follows the last ':' unless that ':' is inside an IPv6 literal.
            if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].utf8.contains(UInt8(ascii: "]")) {
                host = hostPort[..<colon]
                port = hostPort[hostPort.index(after: colon)...]
            }
            var authority = host.lowercased()
            if let port, !port.isEmpty, port != Self.defaultPort(for: parts.scheme) {
                authority += ":" + port
            }
            parts.authority = authority
        }
        parts.path = Self.normalizePercentEncoding(path)
        if parts.authority != nil, parts.path.isEmpty { parts.path = "/" }
        parts.query = query.map(Self.normalizePercentEncoding)
        parts.fragment = nil
        return parts.string
    }

    private static func defaultPort(for scheme: String?) -> Substring? {
        switch scheme {
        case "http", "ws": "80"
        case "https", "wss": "443"
        default: nil
        }
    }

    /// Upper-cases the hex digits of percent-escapes and decodes escaped unreserved characters
    /// (`%7e` → `~`), in one linear pass.
    package static func normalizePercentEncoding(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let value = high << 4 | low
                if isUnreserved(value) {
                    output.append(value)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "%"), hexDigit(high), hexDigit(low)])
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes percent-escapes (and `+` as space, as in form data), for comparing parameter names.
    package static func formDecode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
}
