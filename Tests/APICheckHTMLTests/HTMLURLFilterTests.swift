import APICheckHTML
import Testing

@Suite struct HTMLURLFilterTests {
    @Test(arguments: [
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", "JaVaScRiPt:alert(1)", "   javascript:alert(1)", "\t\tjavascript:alert(1)",
        "\u{0}javascript:alert(1)", "\u{1}\u{1F} javascript:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)",
        "java\r\nscript:alert(1)", "javascript:alert(1)\n", "data:text/html,<script>alert(1)</script>",
        "DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "vbscript:msgbox(1)", "VBScript:msgbox(1)",
        "file:///etc/passwd", "blob:https://a/1", "x-unknown+scheme.1:foo",
    ])
    func dangerousURLsAreReplaced(url: String) {
        #expect(HTMLURLFilter.sanitized(url) == "#")
        #expect(!HTMLURLFilter.isAllowed(url))
        #expect(HTMLNode.element(.a, [.href(url)]).render() == "<a href=\"#\"></a>")
    }

    @Test(arguments: [
        ("http://example.com/a?b=1&c=2", "http://example.com/a?b=1&amp;c=2"),
        ("HTTPS://example.com/", "HTTPS://example.com/"),
        ("mailto:api@example.com", "mailto:api@example.com"),
        ("/movies/1", "/movies/1"),
        ("movies/1?x=\"y\"", "movies/1?x=&quot;y&quot;"),
        ("//cdn.example.com/x", "//cdn.example.com/x"),
        ("#defect-3", "#defect-3"),
        ("?page=2", "?page=2"),
        ("  /padded\t", "/padded"),
        // Not a scheme: '&' cannot be in one, so this is a relative path, written with a literal '&'.
        ("javascript&#58;alert(1)", "javascript&amp;#58;alert(1)"),
        ("./javascript:alert(1)", "./javascript:alert(1)"),
        ("1javascript:alert(1)", "1javascript:alert(1)"),
        ("", ""),
    ])
    func safeURLsPassEscaped(url: String, written: String) {
        #expect(HTMLURLFilter.isAllowed(url))
        #expect(HTMLNode.element(.a, [.href(url)]).render() == "<a href=\"\(written)\"></a>")
    }
}
