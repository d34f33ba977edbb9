import APICheckHTML
import Crypto
import Foundation
import Testing

@Suite struct HTMLDocumentTests {
    static let style: StaticString = "body{font:14px system-ui}"
    static let script: StaticString = #"document.body.dataset.ready="yes";"#

    @Test func aSmallDocumentExactly() {
        let page = HTMLDocument(language: "en", title: "Crawl <&> report", styles: [Self.style], scripts: [Self.script], body: [.text("hi")])
        let policy =
            "default-src 'none'; script-src 'sha256-VJ2kXXIiNPS0KlWz5dqw0bXIWTqJxrY3cWQTr09Gsck='; "
            + "style-src 'sha256-hukU5ZgcMHwreQwNilRDnjVwlo/ijxrYiVZ3AbvW8sU='; img-src data:; base-uri 'none'; form-action 'none'"
        #expect(page.contentSecurityPolicy == policy)
        let expected =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy.replacingOccurrences(of: "'", with: "&#39;"))\">"
            + "<title>Crawl &lt;&amp;&gt; report</title><style>body{font:14px system-ui}</style></head>"
            + "<body>hi<script>document.body.dataset.ready=\"yes\";</script></body></html>\n"
        #expect(page.render() == expected)
    }

    /// The hashes were computed with `printf '%s' 'body{font:14px system-ui}' | openssl dgst -sha256 -binary | base64`.
    @Test func policyHashesAreTheSHA256OfTheExactInlineText() {
        let second: StaticString = "p{margin:0}\n"
        let page = HTMLDocument(title: "t", styles: [Self.style, second, Self.style], body: [])
        let secondHash = Data(SHA256.hash(data: Array("p{margin:0}\n".utf8))).base64EncodedString()
        #expect(
            page.contentSecurityPolicy
                == "default-src 'none'; script-src 'none'; style-src 'sha256-hukU5ZgcMHwreQwNilRDnjVwlo/ijxrYiVZ3AbvW8sU=' "
                + "'sha256-\(secondHash)'; img-src data:; base-uri 'none'; form-action 'none'"
        )
    }

    @Test func thePolicyComesBeforeEveryStyleAndScript() throws {
        let page = HTMLDocument(title: "t", styles: [Self.style], scripts: [Self.script], body: [.json(id: HTMLToken("data"), "[]")])
        let html = page.render()
        let policy = try #require(html.range(of: "Content-Security-Policy"))
        let firstStyle = try #require(html.range(of: "<style"))
        let firstScript = try #require(html.range(of: "<script"))
        #expect(policy.upperBound < firstStyle.lowerBound && policy.upperBound < firstScript.lowerBound)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv"))
    }

    @Test func embeddedJSONReadsBackAsTheSameValue() throws {
        let value = ["</script><script>alert(1)</script>", "<!--", "&amp;", "\u{2028}\u{2029}", "\u{202E}x", "\"' x"]
        let json = try #require(String(data: try JSONEncoder().encode(value), encoding: .utf8))
        let html = HTMLNode.json(id: HTMLToken("data"), json).render()
        let opening = #"<script type="application/json" id="data">"#
        let content = html.dropFirst(opening.count).dropLast("</script>".count)
        #expect(!content.contains("<") && !content.contains(">") && !content.contains("&"))
        #expect(try JSONDecoder().decode([String].self, from: Data(content.utf8)) == value)
    }

    @Test func theLanguageAndTitleAreText() {
        let html = HTMLDocument(language: "\"><script>", title: "</title><script>alert(1)</script>", body: []).render()
        #expect(html.contains("<html lang=\"&quot;&gt;&lt;script&gt;\">"))
        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"))
    }

    @Test func streamingWritesWhatRenderReturns() {
        struct Pieces: TextOutputStream {
            var pieces: [String] = []
            mutating func write(_ string: String) { pieces.append(string) }
        }
        let page = HTMLDocument(title: "t", body: [.element(.p, [.title("x")], [.text("a<b")])])
        var stream = Pieces()
        page.render(into: &stream)
        #expect(stream.pieces.count > 1)
        #expect(stream.pieces.joined() == page.render())
    }
}
