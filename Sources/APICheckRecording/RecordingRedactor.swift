import APICheckJSON
import APICheckModel
import Foundation

/// Replaces secrets before anything is written: values of credential headers and cookies, of
/// token-like query parameters, of chosen JSON pointers, and any known secret value (a credential
/// seen in a request) wherever it reappears in a response. Each replacement is noted so that the
/// recording's report can say what was redacted.
struct RecordingRedactor: Sendable {
    private(set) var redaction: Redaction
    let jsonPointers: [[String]]

    init(options: RecordingOptions) {
        redaction = Redaction(
            sensitiveHeaderNames: options.redactedHeaders, sensitiveQueryParameters: options.redactedQueryParameters,
            secrets: options.secrets)
        jsonPointers = options.redactedJSONPointers.map(Self.segments)
    }

    /// Learns the credentials a request carries, so that an answer echoing them is masked too.
    mutating func learn(from request: StubRequest) {
        for header in request.headers {
            redaction.registerHeader(name: header.name, value: header.value)
            if header.name.caseInsensitiveEquals("Cookie") {
                for pair in header.value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { redaction.addSecret(String(pair[pair.index(after: equals)...])) }
                }
            }
        }
        for item in request.query where redaction.sensitiveQueryParameters.contains(item.name.lowercased()) {
            if let value = item.value { redaction.addSecret(value) }
        }
    }

    func isSensitive(header name: String) -> Bool { redaction.isSensitive(headerName: name) }

    func isSensitive(queryParameter name: String) -> Bool { redaction.sensitiveQueryParameters.contains(name.lowercased()) }

    /// A response header as it may be written: a cookie keeps its name and attributes, other
    /// credentials keep their auth scheme (`Bearer REDACTED`), secrets in any value are masked.
    func header(_ header: HTTPHeader, notes: inout Set<String>) -> HTTPHeader {
        if header.name.caseInsensitiveEquals("Set-Cookie") {
            notes.insert("Set-Cookie values")
            return HTTPHeader(name: header.name, value: Self.maskedCookie(header.value))
        }
        let value = redaction.headerValue(header.value, name: header.name)
        if value != header.value { notes.insert(isSensitive(header: header.name) ? "header \(header.name)" : "secrets in header \(header.name)") }
        return HTTPHeader(name: header.name, value: value)
    }

    /// `name=value; Path=/` → `name=REDACTED; Path=/`. Foundation joins repeated `Set-Cookie`
    /// fields with `, ` (`sid=a; Path=/, csrf=b`): every cookie in such a value is masked. A
    /// cookie starts after `, ` with `token=`; an `Expires` date's `, ` is followed by a day.
    static func maskedCookie(_ value: String) -> String {
        var pieces: [Substring] = []
        var start = value.startIndex
        var search = value.startIndex
        while let comma = value.range(of: ", ", range: search..<value.endIndex) {
            let next = value[comma.upperBound...]
            if let equals = next.firstIndex(of: "="), equals != next.startIndex, next[..<equals].allSatisfy(isTokenCharacter) {
                pieces.append(value[start..<comma.lowerBound])
                start = comma.upperBound
            }
            search = comma.upperBound
        }
        pieces.append(value[start...])
        return pieces.map(maskedSingleCookie).joined(separator: ", ")
    }

    private static func maskedSingleCookie(_ value: Substring) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return Redaction.mask }
        let masked = first[...equals] + Redaction.mask
        return ([String(masked)] + parts.dropFirst().map(String.init)).joined(separator: ";")
    }

    /// RFC 9110 `tchar`: what a cookie name is made of.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character))
    }

    /// A text body with known secrets and credential-bearing URL parameters masked, and the
    /// chosen JSON pointers replaced; binary bodies come back unchanged.
    func body(_ body: Data, isJSON: Bool, notes: inout Set<String>) -> Data {
        guard let text = String(data: body, encoding: .utf8) else { return body }
        var result = Data(redaction.text(text).utf8)
        if result != body { notes.insert("secrets in bodies") }
        if isJSON, !jsonPointers.isEmpty, var value = try? JSONParser().parseValue([UInt8](result)) {
            var changed = false
            for pointer in jsonPointers { Self.mask(&value, at: pointer[...], changed: &changed) }
            if changed {
                notes.insert("JSON values at \(jsonPointers.map { "/" + $0.joined(separator: "/") }.joined(separator: ", "))")
                result = Data(JSONWriter().bytes(value))
            }
        }
        return result
    }

    /// Replaces the value(s) at `pointer` (a `*` segment stands for every member or element).
    static func mask(_ value: inout JSONValue, at pointer: ArraySlice<String>, changed: inout Bool) {
        guard let segment = pointer.first else {
            if value != .string(Redaction.mask) {
                value = .string(Redaction.mask)
                changed = true
            }
            return
        }
        let rest = pointer.dropFirst()
        switch value {
        case .object(var members):
            for index in members.indices where segment == "*" || members[index].key == segment {
                mask(&members[index].value, at: rest, changed: &changed)
            }
            value = .object(members)
        case .array(var elements):
            for index in elements.indices where segment == "*" || String(index) == segment {
                mask(&elements[index], at: rest, changed: &changed)
            }
            value = .array(elements)
        default:
            break
        }
    }

    /// RFC 6901: `/a~1b/c` → `["a/b", "c"]`.
    static func segments(_ pointer: String) -> [String] {
        JSONPointer.tokens(of: pointer)
    }
}
