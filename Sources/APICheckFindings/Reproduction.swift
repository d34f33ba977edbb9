import APICheckModel
import APICheckSpool

/// A one-line shell command that sends a finding's request again, as Schemathesis prints for each
/// failure: `curl -i -X PUT -H "Authorization: $AUTHORIZATION" 'https://api.example.com/cart/1'`.
/// Headers the crawl sent appear with a shell variable named after them, never their values.
///
/// A reproduction sends exactly what the crawl sent, and nothing it did not (``of(_:headers:)``):
/// without `--unsafe` an unsafe link was only asked about with `OPTIONS`, so that is the command,
/// never the `DELETE` itself; a link the crawl never requested (its href is not a valid template,
/// its method not an HTTP method, its declared type not a media type) is reproduced by fetching
/// the resource that advertises it; and where nothing was sent at all (an in-memory crawl that
/// found no stub for an unsafe link) the reproduction is a shell comment that says so.
public enum Reproduction {
    /// The command that sends again what the crawl sent for `finding`, with the crawl's `headers`
    /// (names); a shell comment (`# …`) when the crawl sent nothing for it.
    public static func of(_ finding: Finding, headers: [String] = []) -> String {
        switch request(for: finding) {
        case .sent(let method, let url) where finding.probe != nil:
            repeated(curl(method: method, url: url, headers: headers, contentType: finding.probe?.contentType, body: finding.probe?.body), finding.probe?.sends ?? 1)
        case .sent(let method, let url): curl(method: method, url: url, headers: headers)
        case .nothing(let reason): "# nothing was sent: \(Escaping.visibleControlCharacters(reason))"
        }
    }

    /// What the crawl sent for a finding.
    enum Request: Equatable {
        case sent(method: String, url: String)
        case nothing(String)
    }

    static func request(for finding: Finding) -> Request {
        let method = finding.method
        switch finding.rule {
        case .methodValid:
            switch finding.expected {
            case let expected? where expected.hasPrefix("Allow to list "):
                // Without --unsafe the crawl asked which methods the target allows.
                return .sent(method: "OPTIONS", url: finding.url)
            case let expected? where expected.hasPrefix("a stub answering "):
                return .nothing("the crawl ran in memory (--stubs), and no stub answers \(expected.dropFirst("a stub answering ".count))")
            case "a 2xx response"?, "a response"?:
                // Sent with --unsafe.
                return .sent(method: method, url: finding.url)
            default:
                // The method is not one to send: the link is seen where it is written.
                return advertised(finding)
            }
        case .templateValid:
            return advertised(finding)
        case .linkResolves where finding.expected == "a URL":
            return advertised(finding)
        case .typeSyntax where finding.declaredType != nil && finding.declaredType == finding.actual:
            // A declared type is written in the link, not served by its target.
            return advertised(finding)
        case .typeMatches, .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader, .bodySchema,
            .openAPIStatus, .openAPIContentType, .openAPIBody, .openAPIHeader, .openAPIOperation,
            .probeServerError, .probeResponseType, .probeAcceptsInvalid, .probeCreatedResolves:
            // Only sent requests have answers to compare.
            return .sent(method: method, url: finding.url)
        default:
            guard safeMethods.contains(method) else { return advertised(finding) }
            return .sent(method: method, url: finding.url)
        }
    }

    /// Methods a crawl requests without `--unsafe` (RFC 9110 §9.2.1).
    private static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// The `GET` of the resource that advertises the finding's link, which the crawl fetched.
    private static func advertised(_ finding: Finding) -> Request {
        guard let referrer = finding.referrer, referrer.hasPrefix("http://") || referrer.hasPrefix("https://") else {
            return .nothing("the crawl did not request the \(finding.rel.map { "\($0) " } ?? "")link")
        }
        return .sent(method: "GET", url: referrer)
    }

    /// The command for `method` on `url` (already redacted) with the crawl's `headers` (names).
    /// With `body`, sent as is (`--data-binary`); `contentType` as its header (none when `nil`:
    /// curl's default form type is turned off then, as the probe sent none).
    public static func curl(method: String, url: String, headers: [String] = [], contentType: String? = nil, body: String? = nil) -> String {
        var parts = ["curl", method == "HEAD" ? "-I" : "-i"]
        // Braces and brackets are curl's URL globbing unless turned off.
        if url.contains(where: { "{}[]".contains($0) }) { parts.append("-g") }
        // curl squashes `/../` and `/./` unless told not to; the probe sent them as written.
        if hasDotSegment(url) { parts.append("--path-as-is") }
        if method != "GET" && method != "HEAD" { parts += ["-X", quoted(method)] }
        for name in headers { parts += ["-H", "\"\(name): $\(variableName(for: name))\""] }
        if let body {
            parts += ["-H", quoted("Content-Type:" + (contentType.map { " " + $0 } ?? ""))]
            parts += ["--data-binary", quoted(body)]
        }
        parts.append(quoted(url))
        return parts.joined(separator: " ")
    }

    /// Whether the URL's path has a `.` or `..` segment.
    static func hasDotSegment(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3).contains { $0 == "." || $0 == ".." }
    }

    /// `command` sent `times` times in a row (a duplicate create fails on the second).
    static func repeated(_ command: String, _ times: Int) -> String {
        times > 1 ? "for i in $(seq \(times)); do \(command); done" : command
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
