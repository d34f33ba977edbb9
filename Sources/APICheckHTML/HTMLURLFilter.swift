/// Which URLs may be written into a URL attribute.
///
/// Allowed: `http:`, `https:`, `mailto:`, and references without a scheme (relative paths,
/// `//host/…`, `?query`, `#fragment`). Anything else, `javascript:`, `data:`, `vbscript:`,
/// `file:` and every scheme we do not know, becomes ``blockedReplacement``.
///
/// The scheme is read the way browsers read it (WHATWG URL): leading and trailing C0 controls and
/// spaces are dropped and tabs and newlines removed everywhere first, so `" \tJaVa\nScript:"` is
/// seen as `javascript:`, and the scheme is compared case-insensitively. Character references
/// cannot smuggle a scheme in: the value is escaped afterwards, so `javascript&#58;…` reaches
/// the browser as a relative path with a literal `&`.
public enum HTMLURLFilter {
    /// What a refused URL is written as: a link to the top of the same page, which runs nothing
    /// and goes nowhere. Show the original as text (``HTMLNode/isolated(_:)``) if the reader needs it.
    public static let blockedReplacement = "#"

    private static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The URL as it will be written (cleaned of what browsers ignore), or ``blockedReplacement``.
    public static func sanitized(_ url: String) -> String {
        let cleaned = cleanedAsBrowsersDo(url)
        return isAllowed(cleanedURL: cleaned) ? cleaned : blockedReplacement
    }

    /// Whether ``sanitized(_:)`` keeps the URL.
    public static func isAllowed(_ url: String) -> Bool {
        isAllowed(cleanedURL: cleanedAsBrowsersDo(url))
    }

    private static func isAllowed(cleanedURL: String) -> Bool {
        guard let scheme = scheme(of: cleanedURL) else { return true }
        return allowedSchemes.contains(scheme)
    }

    /// Leading and trailing C0 controls and spaces stripped, ASCII tabs and newlines removed.
    private static func cleanedAsBrowsersDo(_ url: String) -> String {
        var scalars = Substring(url).unicodeScalars
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        var cleaned = String.UnicodeScalarView()
        for scalar in scalars where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            cleaned.append(scalar)
        }
        return String(cleaned)
    }

    /// The lowercased scheme: an ASCII letter, then letters, digits, `+`, `-` or `.`, then `:`.
    /// `nil` when the URL has none (a relative reference).
    private static func scheme(of url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            let isSchemeCharacter = isLetter || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-" || scalar == "."
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            if scheme.isEmpty ? !isLetter : !isSchemeCharacter { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }
}
