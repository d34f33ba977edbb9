/// A URI reference split into its RFC 3986 components, resolved against a base per §5.2.
///
/// Written here rather than taken from Foundation's `URL`, which percent-encodes, drops empty
/// fragments and refuses `urn:` forms in ways a schema's `$id` and `$ref` must not be changed.
/// Nothing is normalised beyond what §5.2 asks (dot segments), so a reference comes back the way
/// its author wrote it and two spellings of one resource differ only where RFC 3986 says they may.
struct URIReference: Sendable, Hashable {
    var scheme: String?
    /// The authority without `//` (`nil` when there is none; `""` for `file:///x`).
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits a reference as in RFC 3986 appendix B (never fails: every string is some reference).
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, isLetter(first) else { return false }
        return text.utf8.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// True when the reference has a scheme (an absolute URI, possibly with a fragment).
    var isAbsolute: Bool { scheme != nil }

    /// The reference written back (RFC 3986 §5.3).
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The same reference without its fragment.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// Resolves `self` against `base` (RFC 3986 §5.2.2, strict).
    func resolved(against base: URIReference) -> URIReference {
        var target = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: fragment)
        if let scheme {
            target.scheme = scheme
            target.authority = authority
            target.path = Self.removeDotSegments(path)
            target.query = query
            return target
        }
        target.scheme = base.scheme
        if let authority {
            target.authority = authority
            target.path = Self.removeDotSegments(path)
            target.query = query
            return target
        }
        target.authority = base.authority
        if path.isEmpty {
            target.path = base.path
            target.query = query ?? base.query
        } else {
            if path.hasPrefix("/") {
                target.path = Self.removeDotSegments(path)
            } else {
                target.path = Self.removeDotSegments(merge(base))
            }
            target.query = query
        }
        return target
    }

    /// §5.2.3: a relative path appended to the base's directory.
    private func merge(_ base: URIReference) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// §5.2.4: `.` and `..` segments taken out of a path.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        let absolute = path.hasPrefix("/")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var result: [Substring] = []
        for (index, segment) in segments.enumerated() {
            if index == 0 && absolute { continue }
            let isLast = index == segments.count - 1
            if segment == "." {
                if isLast { result.append("") }
                continue
            }
            if segment == ".." {
                if !result.isEmpty { result.removeLast() }
                if isLast { result.append("") }
                continue
            }
            result.append(segment)
        }
        return (absolute ? "/" : "") + result.joined(separator: "/")
    }

    /// Resolves the string `reference` against the string `base` (`""` = no base: the reference
    /// stays as written, dot segments removed).
    static func resolve(_ reference: String, against base: String) -> String {
        let ref = URIReference(reference)
        if base.isEmpty {
            var copy = ref
            if ref.scheme != nil || ref.authority != nil || ref.path.hasPrefix("/") { copy.path = removeDotSegments(ref.path) }
            return copy.text
        }
        return ref.resolved(against: URIReference(base)).text
    }

    /// `text` without its fragment (`http://x/y#z` → `http://x/y`, `#a` → ``).
    static func stripFragment(_ text: String) -> String {
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }

    /// The fragment of `text` (`nil` without `#`).
    static func fragment(of text: String) -> String? {
        guard let hash = text.firstIndex(of: "#") else { return nil }
        return String(text[text.index(after: hash)...])
    }

    /// Decodes `%XX` escapes (invalid escapes are kept as written); UTF-8 sequences are rebuilt.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count, let high = hexValue(utf8[i + 1]), let low = hexValue(utf8[i + 2]) {
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
