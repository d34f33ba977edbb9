/// RFC 6901 JSON Pointers: the one place their tokens are escaped, unescaped and split.
///
/// Pointers are read by Unicode scalars, as the RFC says, not by `Character`s: a `/` followed by a
/// combining mark is still a separator (`/\u{301}x` names the key `\u{301}x`).
///
/// ```swift
/// JSONPointer.pointer(["_links", "a/b", "0"])   // "/_links/a~1b/0"
/// JSONPointer.tokens(of: "/_links/a~1b/0")      // ["_links", "a/b", "0"]
/// ```
public enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1` (RFC 6901 §3).
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(token.utf8.count + 8)
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Unescapes one reference token: `~1` is `/` and `~0` is `~` (RFC 6901 §4), in that order, so
    /// `~01` is `~1`. A `~` followed by anything else is kept as it is.
    public static func unescape<Token: StringProtocol>(_ token: Token) -> String {
        unescape(Substring(token).unicodeScalars)
    }

    /// The pointer for `tokens`, each escaped: `["_links", "a/b", "0"]` → `/_links/a~1b/0`.
    public static func pointer(_ tokens: some Sequence<String>) -> String {
        var result = ""
        for token in tokens {
            result += "/" + escape(token)
        }
        return result
    }

    /// The unescaped tokens of `pointer`: `""` (the whole document) has none; a pointer that does
    /// not start with `/` is read as if it did.
    public static func tokens(of pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        let scalars = pointer.unicodeScalars
        let body = scalars.first == "/" ? scalars.dropFirst() : scalars[...]
        return body.split(separator: "/", omittingEmptySubsequences: false).map { unescape($0) }
    }

    private static func unescape(_ token: Substring.UnicodeScalarView) -> String {
        guard token.contains("~") else { return String(token) }
        var result = String.UnicodeScalarView()
        var iterator = token.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "~" else { result.append(scalar); continue }
            switch iterator.next() {
            case "1": result.append("/")
            case "0": result.append("~")
            case let other?: result.append("~"); result.append(other)
            case nil: result.append("~")
            }
        }
        return String(result)
    }
}
