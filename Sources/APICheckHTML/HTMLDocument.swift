import Crypto
import Foundation

/// A whole, self-contained HTML page: `<meta charset="utf-8">`, a Content-Security-Policy made from
/// the page's own inline scripts and styles, the title, the styles, the body, then the scripts.
///
/// Script and style text come only from `StaticString`s, that is from our source; crawled data
/// reaches the script through ``HTMLNode/json(id:_:)``. The policy allows exactly those scripts
/// and styles by hash (`default-src 'none'`), so even markup that slipped through could run
/// nothing.
///
/// ```swift
/// let page = HTMLDocument(language: "en", title: "Crawl of \(root)", styles: [reportCSS],
///                         scripts: [reportJS], body: [summary, .json(id: HTMLToken("data"), json)])
/// var file = FileOutputStream(…)   // any TextOutputStream
/// page.render(into: &file)
/// ```
public struct HTMLDocument: Sendable {
    /// The `lang` of `<html>` (plain text), or none.
    public var language: String?
    /// The `<title>`, plain text.
    public var title: String
    /// Inline `<style>` blocks in `<head>`, in order.
    public var styles: [StaticString]
    /// Inline `<script>` blocks at the end of `<body>`, after the content they read.
    public var scripts: [StaticString]
    /// The content of `<body>`.
    public var body: [HTMLNode]
    /// Whether the page's script may fetch from the page's own origin (`connect-src 'self'`): a
    /// live page served by its API does; a report opened from a file does not.
    public var connectsToOwnOrigin = false

    /// Traps when a script holds `</script` or `<!--`, or a style `</style`: the HTML parser would
    /// end or confuse the block early, and that is a bug in our code.
    public init(language: String? = nil, title: String, styles: [StaticString] = [], scripts: [StaticString] = [], body: [HTMLNode]) {
        for script in scripts {
            let text = script.description.lowercased()
            precondition(!text.contains("</script") && !text.contains("<!--"), "HTMLDocument: a script may not contain '</script' or '<!--'")
        }
        for style in styles {
            precondition(!style.description.lowercased().contains("</style"), "HTMLDocument: a style may not contain '</style'")
        }
        self.language = language
        self.title = title
        self.styles = styles
        self.scripts = scripts
        self.body = body
    }

    /// The policy written into the page: nothing is allowed but the page's own inline scripts and
    /// styles (by the SHA-256 of their exact text) and `data:` images; no `<base>`, no form posts.
    public var contentSecurityPolicy: String {
        "default-src 'none'; script-src \(Self.sources(hashing: scripts)); style-src \(Self.sources(hashing: styles)); "
            + "img-src data:; " + (connectsToOwnOrigin ? "connect-src 'self'; " : "") + "base-uri 'none'; form-action 'none'"
    }

    /// Streams the page into `output`, so a large report is never held twice.
    public func render<Output: TextOutputStream>(into output: inout Output) {
        output.write("<!DOCTYPE html>\n<html")
        if let language { HTMLAttribute.text(.lang, language).render(into: &output) }
        output.write("><head><meta charset=\"utf-8\">")
        // Before any script or style: a policy met after them would not cover them.
        output.write("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        HTMLEscaping.writeAttributeValue(contentSecurityPolicy, into: &output)
        output.write("\"><title>")
        HTMLEscaping.writeText(title, into: &output)
        output.write("</title>")
        for style in styles {
            output.write("<style>")
            output.write(style.description)
            output.write("</style>")
        }
        output.write("</head><body>")
        for node in body { node.render(into: &output) }
        for script in scripts {
            output.write("<script>")
            output.write(script.description)
            output.write("</script>")
        }
        output.write("</body></html>\n")
    }

    /// The page as a string.
    public func render() -> String {
        var output = ""
        render(into: &output)
        return output
    }

    /// `'sha256-…'` for each block (duplicates once), or `'none'` when there are none.
    private static func sources(hashing blocks: [StaticString]) -> String {
        var seen = Set<String>()
        let hashes = blocks.map { "'sha256-\(sha256Base64($0.description))'" }.filter { seen.insert($0).inserted }
        return hashes.isEmpty ? "'none'" : hashes.joined(separator: " ")
    }

    /// Base64 of the SHA-256 of the text's UTF-8 bytes: the form CSP hash sources take.
    static func sha256Base64(_ text: String) -> String {
        Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
    }
}
