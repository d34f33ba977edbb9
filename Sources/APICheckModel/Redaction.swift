
/// Removes credentials from everything a report shows: user information in URLs, values of
/// sensitive query parameters and headers, and known secret values wherever they appear.
///
/// The crawler redacts URLs before it builds findings (so fingerprints never depend on a
/// token), and the CLI may pass the finished report through ``report(_:)`` as a last line of
/// defence:
/// ```swift
/// var redaction = Redaction()
/// for (name, value) in headerOptions { redaction.registerHeader(name: name, value: value) }
/// redaction.url("https://bob:pw@api.example.com/a?token=abc&page=2")
/// // "https://api.example.com/a?token=REDACTED&page=2"
/// ```
///
/// Names compare case-insensitively; query parameter names are compared percent-decoded.
public struct Redaction: Sendable, Hashable {
    /// What replaces a secret.
    public static let mask = "REDACTED"

    /// Headers whose values are credentials unless configured otherwise.
    public static let defaultSensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token",
    ]

    /// Query (and fragment) parameters whose values are credentials unless configured otherwise.
    public static let defaultSensitiveQueryParameters: Set<String> = [
        "token", "access_token", "api_key", "key", "password", "secret", "signature",
        // Common spellings of the same things:
        "apikey", "api-key", "client_secret", "refresh_token", "id_token", "passwd", "sig", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
    ]

    /// Secrets shorter than this are masked in headers and queries but not searched for in free
    /// text, where they would mangle ordinary words.
    public static let minimumSecretLength = 4

    /// Lower-cased header names whose values are masked.
    public private(set) var sensitiveHeaderNames: Set<String>
    /// Lower-cased query parameter names whose values are masked.
    public private(set) var sensitiveQueryParameters: Set<String>
    /// Literal values masked wherever they appear in text, longest first.
    public private(set) var secrets: [String]

    /// The defaults plus `sensitiveHeaderNames`, `sensitiveQueryParameters` and `secrets`.
    public init(sensitiveHeaderNames: [String] = [], sensitiveQueryParameters: [String] = [], secrets: [String] = []) {
        self.sensitiveHeaderNames = Self.defaultSensitiveHeaderNames.union(sensitiveHeaderNames.map { $0.lowercased() })
        self.sensitiveQueryParameters = Self.defaultSensitiveQueryParameters.union(sensitiveQueryParameters.map { $0.lowercased() })
        self.secrets = []
        for secret in secrets { addSecret(secret) }
    }

    /// Masks the values of another header name.
    public mutating func addSensitiveHeaderName(_ name: String) {
        sensitiveHeaderNames.insert(name.lowercased())
    }

    /// Masks the values of another query parameter.
    public mutating func addSensitiveQueryParameter(_ name: String) {
        sensitiveQueryParameters.insert(name.lowercased())
    }

    /// Masks `value` wherever it appears in text.
    public mutating func addSecret(_ value: String) {
        let value = value.trimmedASCIIWhitespace
        guard value.count >= Self.minimumSecretLength, !secrets.contains(value) else { return }
        secrets.append(value)
        secrets.sort { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }

    /// Tells the redaction about a header the crawler sends (`--header K:V`): when the name is
    /// sensitive, its value, and the credential after an auth scheme (`Bearer abc` → `abc`),
    /// become secrets.
    public mutating func registerHeader(name: String, value: String) {
        guard isSensitive(headerName: name) else { return }
        addSecret(value)
        if let space = value.trimmedASCIIWhitespace.firstIndex(of: " ") {
            addSecret(String(value.trimmedASCIIWhitespace[space...]))
        }
    }

    /// Whether values of the header `name` are masked.
    public func isSensitive(headerName name: String) -> Bool {
        sensitiveHeaderNames.contains(name.lowercased())
    }

    /// The header value as a report may show it: masked for sensitive names, keeping the auth
    /// scheme of `Authorization` values (`Bearer REDACTED`).
    public func headerValue(_ value: String, name: String) -> String {
        guard isSensitive(headerName: name) else { return text(value) }
        let lowered = name.lowercased()
        if lowered == "authorization" || lowered == "proxy-authorization" {
            let trimmed = value.trimmedASCIIWhitespace
            if let space = trimmed.firstIndex(of: " ") {
                return String(trimmed[..<space]) + " " + Self.mask
            }
        }
        return Self.mask
    }

    /// Headers with sensitive values masked.
    public func headers(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.map { HTTPHeader(name: $0.name, value: headerValue($0.value, name: $0.name)) }
    }

    /// The URL without user information, with sensitive query and fragment parameter values
    /// masked and known secrets masked anywhere in it.
    public func url(_ url: String) -> String {
        // Most URLs have nothing to redact: no user information, query or fragment.
        if !url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }), !containsSecret(url) {
            return url
        }
        var parts = URIReference(parsing: masked(url))
        if let (userInfo, hostPort) = parts.userInfoAndHost, userInfo != nil {
            parts.authority = hostPort
        }
        parts.query = parts.query.map(maskedParameters)
        if let fragment = parts.fragment, fragment.contains("=") {
            parts.fragment = maskedParameters(fragment)
        }
        let redacted = parts.description
        // The caller's string when nothing changed, so a report shares its storage.
        return redacted == url ? url : redacted
    }

    /// Free text (messages, reasons) with known secrets masked and every `scheme://…` URL in it
    /// redacted like ``url(_:)``.
    public func text(_ text: String) -> String {
        redactEmbeddedURLs(masked(text))
    }

    // MARK: Internals

    private func containsSecret(_ text: String) -> Bool {
        secrets.contains { text.contains($0) }
    }

    private func masked(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }

    /// `a=1&token=x;b` → `a=1&token=REDACTED;b`: pairs split at `&` and `;`, separators kept.
    private func maskedParameters(_ query: String) -> String {
        var output = ""
        var rest = Substring(query)
        while !rest.isEmpty {
            let end = rest.firstIndex { $0 == "&" || $0 == ";" } ?? rest.endIndex
            let pair = rest[..<end]
            if let equals = pair.firstIndex(of: "="),
                sensitiveQueryParameters.contains(Self.formDecode(pair[..<equals]).lowercased())
            {
                output += String(pair[...equals]) + Self.mask
            } else {
                output += String(pair)
            }
            if end < rest.endIndex {
                output.append(rest[end])
                rest = rest[rest.index(after: end)...]
            } else {
                rest = rest[end...]
            }
        }
        return output
    }

    /// Decodes percent-escapes (and `+` as space, as in form data), for comparing parameter names.
    private static func formDecode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if URICharacters.isPercentTriplet(bytes, at: index) {
                output.append(URICharacters.hexValue(bytes[index + 1]) << 4 | URICharacters.hexValue(bytes[index + 2]))
                index += 3
            } else {
                output.append(bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Finds `scheme://…` runs in text and redacts each; linear in the text's length.
    private func redactEmbeddedURLs(_ text: String) -> String {
        guard Self.containsSchemeSeparator(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var copied = 0
        var index = 0
        while index + 2 < scalars.count {
            guard scalars[index] == ":", scalars[index + 1] == "/", scalars[index + 2] == "/" else {
                index += 1
                continue
            }
            var start = index
            while start > copied, isSchemeCharacter(scalars[start - 1]) { start -= 1 }
            while start < index, !isLetter(scalars[start]) { start += 1 }
            guard start < index else {
                index += 3
                continue
            }
            var end = index + 3
            while end < scalars.count, !isURLDelimiter(scalars[end]) { end += 1 }
            // Sentence punctuation after a URL is not part of it.
            while end > index + 3, ".,;:!?)]}".unicodeScalars.contains(scalars[end - 1]) { end -= 1 }
            output.append(contentsOf: scalars[copied..<start])
            var candidate = String.UnicodeScalarView()
            candidate.append(contentsOf: scalars[start..<end])
            output.append(contentsOf: url(String(candidate)).unicodeScalars)
            copied = end
            index = max(end, index + 3)
        }
        output.append(contentsOf: scalars[copied...])
        return String(output)
    }

    /// Whether `text` contains `://`; a byte scan, as every message and pointer of a report passes here.
    private static func containsSchemeSeparator(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var run = 0
        while let byte = utf8.next() {
            switch (run, byte) {
            case (_, UInt8(ascii: ":")): run = 1
            case (1, UInt8(ascii: "/")): run = 2
            case (2, UInt8(ascii: "/")): return true
            default: run = 0
            }
        }
        return false
    }

    private func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    private func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-" || scalar == "."
    }

    private func isURLDelimiter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || scalar == "\"" || scalar == "'" || scalar == "<" || scalar == ">"
            || scalar == "`"
    }
}
