/// Reference resolution (RFC 3986 §5.2) and the normal form used to deduplicate a crawl (§6.2.2).
///
/// Works on strings, not Foundation `URL`, so that what a document wrote is resolved exactly as
/// the RFC says (Foundation re-encodes and differs across platforms).
public enum URLResolution {
    /// Resolves `reference` against `base` (RFC 3986 §5.2.2, strict: `http:g` stays `http:g`).
    ///
    /// - Returns: the target URI, or `nil` when `base` is not absolute (has no scheme) and
    ///   `reference` is relative, so there is nothing to resolve against.
    public static func resolve(_ reference: String, against base: String) -> String? {
        let reference = URIReference(parsing: reference)
        if reference.scheme != nil {
            var target = reference
            target.path = removeDotSegments(reference.path)
            return target.description
        }
        let base = URIReference(parsing: base)
        guard base.scheme != nil else { return nil }
        var target = URIReference(scheme: base.scheme, fragment: reference.fragment)
        if reference.authority != nil {
            target.authority = reference.authority
            target.path = removeDotSegments(reference.path)
            target.query = reference.query
        } else {
            target.authority = base.authority
            if reference.path.isEmpty {
                target.path = base.path
                target.query = reference.query ?? base.query
            } else {
                if reference.path.hasPrefix("/") {
                    target.path = removeDotSegments(reference.path)
                } else {
                    target.path = removeDotSegments(merge(base: base, path: reference.path))
                }
                target.query = reference.query
            }
        }
        return target.description
    }

    /// §5.2.3: the reference's path appended to the base path without its last segment.
    private static func merge(base: URIReference, path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(base.path[...slash]) + path
    }

    /// Removes `.` and `..` segments (RFC 3986 §5.2.4), in one pass.
    public static func removeDotSegments(_ path: String) -> String {
        let input = Array(path.utf8)
        guard input.contains(UInt8(ascii: ".")) else { return path }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0

        func rest(is text: StaticString) -> Bool {
            input.count - index == text.utf8CodeUnitCount && hasPrefix(text)
        }
        func hasPrefix(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard input.count - index >= count else { return false }
            return text.withUTF8Buffer { input[index..<(index + count)].elementsEqual($0) }
        }
        func removeLastSegment() {
            if let slash = output.lastIndex(of: UInt8(ascii: "/")) {
                output.removeSubrange(slash...)
            } else {
                output.removeAll()
            }
        }

        while index < input.count {
            if hasPrefix("../") {
                index += 3  // A
            } else if hasPrefix("./") {
                index += 2  // A
            } else if hasPrefix("/./") {
                index += 2  // B: "/./" becomes "/"
            } else if rest(is: "/.") {
                output.append(UInt8(ascii: "/"))  // B, then E on the "/" left
                index = input.count
            } else if hasPrefix("/../") {
                index += 3  // C
                removeLastSegment()
            } else if rest(is: "/..") {
                removeLastSegment()  // C, then E on the "/" left
                output.append(UInt8(ascii: "/"))
                index = input.count
            } else if rest(is: ".") || rest(is: "..") {
                index = input.count  // D
            } else {
                var end = index + 1  // E: the first segment, with its leading "/" if any
                while end < input.count, input[end] != UInt8(ascii: "/") { end += 1 }
                output.append(contentsOf: input[index..<end])
                index = end
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A key under which equivalent URLs meet (RFC 3986 §6.2.2): scheme and host lower-cased,
    /// the scheme's default port dropped, percent-encoding normalised (hex upper-cased, encoded
    /// unreserved characters decoded), dot segments removed, an empty path with an authority
    /// made `/`, the fragment dropped. The query is kept as written, in order.
    public static func normalisedKey(_ url: String) -> String {
        // A crawl computes a key for every link it sees; most are already normal.
        if isAlreadyNormal(url) { return url }
        return normalisedKeyByParsing(url)
    }

    /// ``normalisedKey(_:)`` without user information: how reports identify a resource
    /// (finding fingerprints, shards, merged roots) whatever credentials its URL carried.
    public static func identityKey(_ url: String) -> String {
        guard url.utf8.contains(UInt8(ascii: "@")) else { return normalisedKey(url) }
        var reference = URIReference(parsing: url)
        if let (userInfo, hostPort) = reference.userInfoAndHost, userInfo != nil { reference.authority = hostPort }
        return normalisedKey(reference.description)
    }

    package static func normalisedKeyByParsing(_ url: String) -> String {
        var reference = URIReference(parsing: url)
        reference.fragment = nil
        if let scheme = reference.scheme { reference.scheme = scheme.lowercased() }
        if let authority = reference.authority {
            reference.authority = normaliseAuthority(authority, scheme: reference.scheme)
        }
        reference.path = normalisePercentEncoding(reference.path)
        if reference.scheme != nil || reference.authority != nil {
            reference.path = removeDotSegments(reference.path)
        }
        if reference.authority != nil && reference.path.isEmpty { reference.path = "/" }
        reference.query = reference.query.map(normalisePercentEncoding)
        return reference.description
    }

    /// Whether `url` is `scheme://host[:port]/path[?query]` with nothing that normalising would
    /// change: a lower-case scheme and host, no user information, no default or empty port, a
    /// non-empty path without dot segments, no percent-encoding, no fragment, printable ASCII
    /// only. Conservative: `false` only costs the full normalisation.
    package static func isAlreadyNormal(_ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        // Scheme: a lower-case letter, then lower-case letters, digits, '+', '-', '.'.
        var scheme: [UInt8] = []
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") { break }
            let isLetter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            let isOther = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (!scheme.isEmpty && isOther), scheme.count < 16 else { return false }
            scheme.append(byte)
        }
        guard !scheme.isEmpty, bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else { return false }
        // Authority: host characters, then an optional non-default port; ends at the path's '/'.
        var hostLength = 0
        var port: [UInt8]?
        var reachedPath = false
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "/") {
                reachedPath = true
                break
            }
            if byte == UInt8(ascii: ":") {
                guard port == nil else { return false }
                port = []
                continue
            }
            if port != nil {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), port!.count < 5 else { return false }
                port!.append(byte)
                continue
            }
            let isHostByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isHostByte else { return false }
            hostLength += 1
        }
        guard reachedPath, hostLength > 0 else { return false }
        if let port {
            guard !port.isEmpty, defaultPorts[String(decoding: scheme, as: UTF8.self)] != String(decoding: port, as: UTF8.self) else { return false }
        }
        // Path and query: printable ASCII, no '%', no '#', no dot segment ('/.' is refused outright).
        var previous = UInt8(ascii: "/")
        while let byte = bytes.next() {
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "#") else { return false }
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return true
    }

    private static let defaultPorts: [String: String] = ["http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"]

    private static func normaliseAuthority(_ authority: String, scheme: String?) -> String {
        var userinfo: Substring?
        var hostAndPort = Substring(authority)
        if let at = authority.lastIndex(of: "@") {
            userinfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
        }
        var host = hostAndPort
        var port: Substring?
        // The port follows the last ':' unless that ':' is inside an IPv6 literal.
        if let colon = hostAndPort.lastIndex(of: ":"), !hostAndPort[colon...].utf8.contains(UInt8(ascii: "]")) {
            host = hostAndPort[..<colon]
            port = hostAndPort[hostAndPort.index(after: colon)...]
            // Another ':' outside an IP literal: no `host:port` (`a::`, `a:80:`, `[::1]x::`). Kept
            // whole, with no port to drop, so that normalising the key again changes nothing.
            if (host.lastIndex(of: "]").map { host[host.index(after: $0)...] } ?? host).contains(":") {
                host = hostAndPort
                port = nil
            }
        }
        var result = ""
        if let userinfo { result += normalisePercentEncoding(String(userinfo)) + "@" }
        // Letters decoded from triplets are lower-cased too (`%44` is `D`, in a host `d`), so that
        // normalising the key again changes nothing.
        result += normalisePercentEncoding(host.lowercased(), lowercasingDecodedLetters: true)
        let defaultPort = scheme.flatMap { defaultPorts[$0] }
        if let port, !port.isEmpty, String(port) != defaultPort {
            result += ":" + port
        }
        return result
    }

    /// Upper-cases the hex of `%xx` triplets and decodes those that encode unreserved characters
    /// (RFC 3986 §6.2.2.1, §6.2.2.2).
    public static func normalisePercentEncoding(_ text: String) -> String {
        normalisePercentEncoding(text, lowercasingDecodedLetters: false)
    }

    private static func normalisePercentEncoding(_ text: String, lowercasingDecodedLetters: Bool) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if URICharacters.isPercentTriplet(bytes, at: index) {
                let decoded = URICharacters.hexValue(bytes[index + 1]) << 4 | URICharacters.hexValue(bytes[index + 2])
                if URICharacters.isUnreserved(decoded) {
                    let isUpper = decoded >= UInt8(ascii: "A") && decoded <= UInt8(ascii: "Z")
                    output.append(lowercasingDecodedLetters && isUpper ? decoded + 0x20 : decoded)
                } else {
                    URICharacters.appendPercentEncoded(decoded, to: &output)
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Why `reference` is not a valid URI reference (RFC 3986 §4.1), or `nil` when it is.
    ///
    /// Characters outside ASCII are accepted (an IRI, see ``encodingNonASCII(_:)``); spaces,
    /// controls, `"<>\^`{|}` and `%` not followed by two hex digits are not.
    public static func problem(in reference: String) -> String? {
        let bytes = Array(reference.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 || URICharacters.isUnreserved(byte) || URICharacters.isReserved(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%") {
                guard URICharacters.isPercentTriplet(bytes, at: index) else {
                    return "'%' at offset \(index) is not followed by two hexadecimal digits"
                }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: " "): return "it contains a space at offset \(index) (write %20)"
            case 0..<0x20, 0x7F: return "it contains the control character 0x\(String(byte, radix: 16, uppercase: true)) at offset \(index)"
            default:
                return "'\(Character(Unicode.Scalar(byte)))' at offset \(index) is not allowed in a URI (write %\(String(byte, radix: 16, uppercase: true)))"
            }
        }
        return nil
    }

    /// Maps an IRI to a URI (RFC 3987 §3.1): every byte of a non-ASCII character is percent-encoded.
    public static func encodingNonASCII(_ reference: String) -> String {
        guard reference.utf8.contains(where: { $0 >= 0x80 }) else { return reference }
        var output: [UInt8] = []
        for byte in reference.utf8 {
            if byte >= 0x80 {
                URICharacters.appendPercentEncoded(byte, to: &output)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
