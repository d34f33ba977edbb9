/// A one-line shell command that sends a finding's request again, as Schemathesis prints for each
/// failure: `curl -i -X PUT -H "Authorization: $AUTHORIZATION" 'https://api.example.com/cart/1'`.
/// Headers the crawl sent appear with a shell variable named after them, never their values.
public enum Reproduction {
    /// The command for `method` on `url` (already redacted) with the crawl's `headers` (names).
    public static func curl(method: String, url: String, headers: [String] = []) -> String {
        var parts = ["curl", method == "HEAD" ? "-I" : "-i"]
        // Braces and brackets are curl's URL globbing unless turned off.
        if url.contains(where: { "{}[]".contains($0) }) { parts.append("-g") }
        if method != "GET" && method != "HEAD" { parts += ["-X", quoted(method)] }
        for name in headers { parts += ["-H", "\"\(name): $\(variableName(for: name))\""] }
        parts.append(quoted(url))
        return parts.joined(separator: " ")
    }

    /// `Authorization` → `AUTHORIZATION`, `X-Api-Key` → `X_API_KEY`.
    public static func variableName(for header: String) -> String {
        String(header.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    private static func quoted(_ text: String) -> String {
        let safe = Escaping.visibleControlCharacters(text)
        return "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
