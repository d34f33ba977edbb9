import APICheckHTML
import Testing

/// Exact output for each context, so a weakened escaper fails here first.
@Suite struct HTMLEscapingTests {
    @Test func textEscapesMarkupAndKeepsEntitiesLiteral() {
        #expect(HTMLNode.text("</script><script>alert(1)</script>").render() == "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(HTMLNode.text("&amp;").render() == "&amp;amp;")
        #expect(HTMLNode.text("<!--").render() == "&lt;!--")
        // Quotes are harmless in text and stay readable.
        #expect(HTMLNode.text("say \"hi\" 'there'").render() == "say \"hi\" 'there'")
        #expect(HTMLNode.text("a\u{0}b").render() == "a\u{FFFD}b")
        #expect(HTMLNode.text("").render() == "")
        #expect(HTMLNode.text("plain ünïcødé 🙂").render() == "plain ünïcødé 🙂")
    }

    @Test func attributeValuesAreQuotedAndCannotCloseTheirQuotes() {
        let doubleQuote = HTMLNode.element(.span, [.title("\"onerror=alert(1) x=\"")])
        #expect(doubleQuote.render() == "<span title=\"&quot;onerror=alert(1) x=&quot;\"></span>")
        let singleQuote = HTMLNode.element(.span, [.title("' onmouseover='")])
        #expect(singleQuote.render() == "<span title=\"&#39; onmouseover=&#39;\"></span>")
        let everything = HTMLNode.element(.input, [.text(.value, "&amp;<>\"'\u{0}")])
        #expect(everything.render() == "<input value=\"&amp;amp;&lt;&gt;&quot;&#39;\u{FFFD}\">")
        let data = HTMLNode.element(.tr, [.data("rule", "</tr><script>")])
        #expect(data.render() == "<tr data-rule=\"&lt;/tr&gt;&lt;script&gt;\"></tr>")
    }

    @Test func tokensAndFlags() {
        let node = HTMLNode.element(
            .details, [.id(HTMLToken("defect-", 3)), .class(HTMLToken("defect"), HTMLToken("severe")), .flag(.open)],
            [.element(.summary, [], [.text("3")])]
        )
        #expect(node.render() == "<details id=\"defect-3\" class=\"defect severe\" open><summary>3</summary></details>")
        #expect(HTMLToken(validating: "openapi-status_code") != nil)
        #expect(HTMLToken(validating: "a\"b") == nil)
        #expect(HTMLToken(validating: "a b") == nil)
        #expect(HTMLToken(validating: "") == nil)
        #expect(HTMLToken(validating: String(repeating: "a", count: 201)) == nil)
    }

    @Test func voidElementsHaveNoClosingTag() {
        #expect(HTMLNode.element(.div, [], [.text("a"), .element(.br), .text("b")]).render() == "<div>a<br>b</div>")
    }

    @Test func jsonCannotLeaveItsScriptElement() {
        let node = HTMLNode.json(id: HTMLToken("data"), #"{"a":"</script><!--x-->&\#u{2028}\#u{2029}"}"#)
        #expect(
            node.render()
                == #"<script type="application/json" id="data">{"a":"\u003c/script\u003e\u003c!--x--\u003e\u0026\u2028\u2029"}</script>"#
        )
    }

    @Test func isolatedTextCannotReorderItsSurroundings() {
        let node = HTMLNode.element(.p, [], [.text("link "), .isolated("\u{202E}gpj.exe"), .text(" is broken")])
        #expect(node.render() == "<p>link <bdi>\u{202E}gpj.exe</bdi> is broken</p>")
        #expect(HTMLNode.isolated("<b>").render() == "<bdi>&lt;b&gt;</bdi>")
    }

    @Test func aMegabyteIsEscapedWhole() {
        let chunk = "</script><!--&\"'\u{0}x"
        let big = String(repeating: chunk, count: 1_048_576 / chunk.utf8.count + 1)
        let expectedChunk = "&lt;/script&gt;&lt;!--&amp;\"'\u{FFFD}x"
        #expect(HTMLNode.text(big).render() == String(repeating: expectedChunk, count: 1_048_576 / chunk.utf8.count + 1))
    }
}
