@testable import APICheckHTML
import Testing

/// Every text, attribute and JSON value of one document is hostile; the output must still hold
/// exactly the markup the tree asks for.
@Suite struct HostileInputTests {
    static let megabyte = String(repeating: "</script><!--\u{2028}&amp;\"'\u{0}<", count: 1_048_576 / 30)
    static let hostile = [
        "</script><script>alert(1)</script>", "\"onerror=alert(1) x=\"", "' onmouseover='", "javascript:alert(1)",
        "JAVASCRIPT:alert(1)", "JaVaScRiPt:alert(1)", "  javascript:alert(1)", "\t\tjavascript:alert(1)", "\u{0}javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "\u{202E}lmth.exe", "&amp;", "&lt;script&gt;", "\u{0}",
        "<!--", "-->", "\u{2028}\u{2029}", "</SCRIPT >", "</title>", "</style>", "<![CDATA[x]]>", "<scr\u{0}ipt>", megabyte,
    ]
    static let script: StaticString = "const data = JSON.parse(document.getElementById('data').textContent);"
    static let style: StaticString = "td{padding:0 4px}"

    static func hostileDocument() -> HTMLDocument {
        var rows: [HTMLNode] = []
        for (index, text) in hostile.enumerated() {
            rows.append(
                .element(.tr, [.id(HTMLToken("row-", index)), .data("value", text), .title(text)], [
                    .element(.td, [], [.text(text)]),
                    .element(.td, [], [.element(.a, [.href(text), .text(.ariaLabel, text)], [.isolated(text)])]),
                    .element(.td, [], [.element(.input, [.text(.value, text), .text(.placeholder, text), .flag(.disabled)])]),
                    .group([.text(text), .element(.br)]),
                ])
            )
        }
        let json = "[" + hostile.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        return HTMLDocument(
            language: hostile[1], title: hostile[0], styles: [style], scripts: [script],
            body: [.element(.table, [.class(HTMLToken("api-map"))], [.element(.tbody, [], rows)]), .json(id: HTMLToken("data"), json)]
        )
    }

    /// Tags the tree asks for, counted from the tree rather than from the renderer.
    static func tagCount(_ node: HTMLNode) -> Int {
        switch node.kind {
        case .element(let tag, _, let children): (tag.isVoid ? 1 : 2) + children.map(tagCount).reduce(0, +)
        case .text: 0
        case .isolated, .json: 2
        case .group(let nodes): nodes.map(tagCount).reduce(0, +)
        }
    }

    static func jsonCount(_ node: HTMLNode) -> Int {
        switch node.kind {
        case .element(_, _, let children): children.map(jsonCount).reduce(0, +)
        case .text, .isolated: 0
        case .json: 1
        case .group(let nodes): nodes.map(jsonCount).reduce(0, +)
        }
    }

    @Test func everyLessThanSignIsATagTheBuilderWrote() {
        let document = Self.hostileDocument()
        let html = document.render()
        // <!DOCTYPE>, html, head, meta charset, meta CSP, title, body: 1 + 2 + 2 + 1 + 1 + 2 + 2.
        let frame = 11 + 2 * document.styles.count + 2 * document.scripts.count
        let expected = frame + document.body.map(Self.tagCount).reduce(0, +)
        #expect(html.utf8.count > 1_048_576)
        #expect(html.utf8.filter { $0 == UInt8(ascii: "<") }.count == expected)
    }

    @Test func theOnlyScriptEndTagsAreTheBuilders() {
        let document = Self.hostileDocument()
        let html = document.render()
        let builderScripts = document.scripts.count + document.body.map(Self.jsonCount).reduce(0, +)
        // Every '<' is a tag (test above), so looking at what follows each one finds every script tag.
        let tags = html.utf8.split(separator: UInt8(ascii: "<")).dropFirst().map { String(decoding: $0.prefix(8), as: UTF8.self).lowercased() }
        #expect(tags.filter { $0.hasPrefix("/script") }.count == builderScripts)
        #expect(tags.filter { $0.hasPrefix("script") }.count == builderScripts)
        #expect(!tags.contains { $0.hasPrefix("!--") })
        #expect(!html.utf8.contains(0))
    }

    @Test func noHostileURLSurvivesAndEveryTagIsWellFormed() throws {
        let html = Self.hostileDocument().render()
        #expect(html.utf8.filter { $0 == UInt8(ascii: ">") }.count == html.utf8.filter { $0 == UInt8(ascii: "<") }.count)
        // Each tag is a name and attributes whose values hold no quote: no value ended early.
        let tag = try Regex(#"<(!DOCTYPE html|/?[a-z0-9]+( [a-z-]+(="[^"<>]*")?)*)>"#)
        var hrefs: [Substring] = []
        for piece in html.utf8.split(separator: UInt8(ascii: "<")).dropFirst() {
            let end = try #require(piece.firstIndex(of: UInt8(ascii: ">")))
            let written = "<" + String(decoding: piece[...end], as: UTF8.self)
            #expect(written.wholeMatch(of: tag) != nil, "\(written.prefix(200))")
            if let href = written.firstMatch(of: /href="([^"]*)"/) { hrefs.append(href.1) }
        }
        #expect(hrefs.count == Self.hostile.count)
        for href in hrefs {
            let lowered = href.lowercased()
            #expect(!lowered.hasPrefix("javascript:") && !lowered.hasPrefix("data:") && !lowered.hasPrefix("vbscript:"))
            #expect(!href.hasPrefix(" ") && !href.hasPrefix("\t") && !href.contains("\u{0}"))
        }
        // Six javascript:, one data:, one vbscript: were replaced; the rest have no scheme and stay
        // relative links (escaped, harmless).
        #expect(hrefs.filter { $0 == "#" }.count == 8)
    }

    @Test func embeddedJSONHoldsNoRawLineSeparators() throws {
        let html = Self.hostileDocument().render()
        let start = try #require(html.range(of: #"<script type="application/json" id="data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = html[start.upperBound..<end.lowerBound]
        #expect(!json.contains("\u{2028}") && !json.contains("\u{2029}") && !json.contains("\u{0}"))
        #expect(json.contains(#"\u2028\u2029"#))
    }
}
