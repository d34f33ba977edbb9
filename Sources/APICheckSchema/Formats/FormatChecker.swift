/// The checkers behind JSON Schema's `format` keyword when format assertion is on.
///
/// Each checker reads the string's UTF-8 bytes by hand: `format` runs in the validator's hot
/// loop, so no Foundation, no regular expressions and no allocation (a native Swift string hands
/// out its contiguous bytes directly).
///
/// Checked: `date-time`, `date`, `time`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uri`,
/// `uri-reference`, `uri-template`, `uuid`, `regex` (by the caller's closure) and `json-pointer`.
/// Also recognised, although this project leaves them out of scope, because a close check is
/// cheap: `relative-json-pointer` (exact), `iri`/`iri-reference` (RFC 3986's grammar with any
/// non-ASCII character allowed where RFC 3987 allows `ucschar`), `idn-hostname` (IDNA 2008 from
/// the standard library's Unicode properties; scripts, joining types and bidi classes read from
/// blocks and no NFC check, see FormatChecker+IDNA.swift) and `idn-email` (RFC 6531: non-ASCII
/// in the local part, an `idn-hostname` domain). Every other name is unknown: an annotation.
/// All of the JSON-Schema-Test-Suite's optional/format cases for these pass (FormatCheckerTests),
/// for the vendored suite and for its newer, stricter cases.
enum FormatChecker {
    /// A recognised format, resolved once when a schema is compiled so validation does not
    /// compare strings again for every instance.
    enum Kind: String, CaseIterable, Sendable, Hashable {
        case dateTime = "date-time"
        case date
        case time
        case duration
        case email
        case idnEmail = "idn-email"
        case hostname
        case idnHostname = "idn-hostname"
        case ipv4
        case ipv6
        case uri
        case uriReference = "uri-reference"
        case iri
        case iriReference = "iri-reference"
        case uriTemplate = "uri-template"
        case uuid
        case regex
        case jsonPointer = "json-pointer"
        case relativeJSONPointer = "relative-json-pointer"
    }

    /// Every format name `check` answers for; any other name is an annotation only.
    static let knownFormats: Set<String> = Set(Kind.allCases.map(\.rawValue))

    /// Whether `value` is valid for `format`; nil when the format is unknown (ignored).
    /// `regex` is checked by the caller-supplied `isRegex` (the engine's ECMA-262 parser).
    static func check(_ format: String, _ value: String, isRegex: (String) -> Bool) -> Bool? {
        guard let kind = Kind(rawValue: format) else { return nil }
        return check(kind, value, isRegex: isRegex)
    }

    /// Whether `value` is valid for the already-resolved format `kind`.
    static func check(_ kind: Kind, _ value: String, isRegex: (String) -> Bool) -> Bool {
        if kind == .regex { return isRegex(value) }
        return withBytes(value) { bytes in
            switch kind {
            case .dateTime: isDateTime(bytes)
            case .date: isDate(bytes)
            case .time: isTime(bytes)
            case .duration: isDuration(bytes)
            case .email: isEmail(bytes, international: false)
            case .idnEmail: isEmail(bytes, international: true)
            case .hostname: isHostname(bytes, 0, bytes.count)
            case .idnHostname: isIDNHostname(bytes, 0, bytes.count)
            case .ipv4: isIPv4(bytes, 0, bytes.count)
            case .ipv6: isIPv6(bytes, 0, bytes.count)
            case .uri: isURIReference(bytes, requiresScheme: true, international: false)
            case .uriReference: isURIReference(bytes, requiresScheme: false, international: false)
            case .iri: isURIReference(bytes, requiresScheme: true, international: true)
            case .iriReference: isURIReference(bytes, requiresScheme: false, international: true)
            case .uriTemplate: isURITemplate(bytes)
            case .uuid: isUUID(bytes)
            case .jsonPointer: isJSONPointer(bytes, from: 0)
            case .relativeJSONPointer: isRelativeJSONPointer(bytes)
            case .regex: false  // handled above
            }
        }
    }

    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The string's UTF-8 without copying it when it is native (the usual case).
    @inline(__always)
    private static func withBytes(_ value: String, _ body: (Bytes) -> Bool) -> Bool {
        if let result = value.utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = value
        return contiguous.withUTF8(body)
    }
}

// MARK: - Byte helpers shared by the checkers

extension FormatChecker {
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always) static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isAlpha(byte) }

    @inline(__always) static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- 0x61 < 6 }

    /// The decimal number written with exactly `count` ASCII digits at `start`, or nil.
    @inline(__always)
    static func decimal(_ bytes: Bytes, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            let byte = bytes[index]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return value
    }

    /// Whether `%` at `index` starts a valid percent-escape (`%` and two hex digits) before `end`.
    @inline(__always)
    static func isPercentEscape(_ bytes: Bytes, _ index: Int, _ end: Int) -> Bool {
        index + 2 < end && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
    }
}

/// A set of ASCII bytes as a 128-bit mask: membership is two shifts, no table lookups in memory
/// beyond the two words.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ members: String...) {
        for byte in members.joined().utf8 {
            precondition(byte < 128, "ASCIISet holds ASCII only")
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte &- 64)) != 0 }
        return false
    }

    static let digits = "0123456789"
    static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
}
