import APICheckJSON
import Foundation
import Testing

/// `--format html` opened in a real browser (headless Chromium): the AcmeFlix demo's report shows
/// its 13 defects on the map, a shared view (`?place=`, `?severity=`, `?search=`) selects and
/// filters, and an API that names its links with markup cannot run script in the page.
@Suite(.enabled(if: Chromium.isAvailable, "needs chromium (apt-get install -y chromium)"), .serialized)
struct HTMLReportBrowserTests {
    /// Crawls `arguments` into an HTML report in a fresh folder; returns the page and its map data.
    /// Returns the page and each place's key (`root → library → movies[*].self`), in map order.
    private func report(_ arguments: [String], named name: String) throws -> (file: URL, html: String, nodes: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(name).html")
        let result = try CLI.run(arguments + ["--format", "html=\(file.path)", "--format", "text"])
        #expect(result.status == 1, "\(result.stderr)")
        let html = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try JSONParser().parseValue(Array(html[start.upperBound..<end.lowerBound].utf8))
        guard case .array(let nodes)? = data["nodes"] else { throw CLIError("no nodes in the map data") }
        var keys: [String] = []
        for node in nodes {
            guard case .string(let label)? = node["l"] else { throw CLIError("a node without a label") }
            if case .number(let parent)? = node["p"], let index = Int(parent) { keys.append(keys[index] + " → " + label) } else { keys.append(label) }
        }
        return (file, html, keys)
    }

    @Test func theDemosReportShowsItsThirteenDefectsAtTheirPlaces() throws {
        let (file, html, nodes) = try report(["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix"], named: "acmeflix")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let page = file.absoluteString
        let dom = try Chromium.dom(of: page)
        #expect(dom.contains(#"data-map-drawn="true""#), "the page's script did not finish")
        #expect(dom.contains("\(nodes.count) of \(nodes.count) places shown"))
        #expect(dom.occurrences(of: #"<g class="node "#) == nodes.count)
        #expect(dom.occurrences(of: #"<li id="defect-"#) == 13)
        #expect(dom.contains("13 of 13 defects shown"))
        // Every place a defect links to is drawn, and every defect links to at least one.
        let linked = Set(dom.matches(of: /data-place="(\d+)"/).map { Int($0.output.1)! })
        #expect(!linked.isEmpty && linked.allSatisfy { dom.contains(#"id="place-\#($0)""#) })
        #expect(dom.occurrences(of: #"class="places""#) == 13)
        // The places the demo's defects are at are red or amber.
        let movieIndex = try #require(nodes.firstIndex(of: "root → library → movies[*].self"))
        #expect(dom.contains(#"<g class="node error" data-index="\#(movieIndex)""#))

        // A shared link selects a place: its checks, types and defects.
        let selected = try Chromium.dom(of: page + "?place=\(movieIndex)")
        #expect(selected.contains("<h3>root → library → movies[*].self</h3>"))
        #expect(selected.contains(#"<g class="node error selected""#))
        #expect(selected.contains("Defects here") && selected.contains("declared vnd.acmeflix.api.movie"))
        // Filters: warnings only.
        let warnings = html.occurrences(of: #"data-severity="warning""#)
        let filtered = try Chromium.dom(of: page + "?severity=warning")
        #expect(filtered.contains("\(warnings) of 13 defects shown"))
        #expect(filtered.occurrences(of: #"data-severity="error" hidden="""#) == 13 - warnings)
        // Search: the cart and what lies under it.
        let cart = nodes.filter { $0.lowercased().contains("cart") }.count
        let searched = try Chromium.dom(of: page + "?search=cart")
        #expect(searched.contains("\(cart) of \(nodes.count) places match"))
        // The search narrows the defects to those at the places found.
        let atCart = html.components(separatedBy: #"<li id="defect-"#).dropFirst().filter { item in
            item.matches(of: /data-place="(\d+)"/).contains { nodes[Int($0.output.1)!].lowercased().contains("cart") }
        }.count
        #expect(atCart > 0 && atCart < 13)
        #expect(searched.contains("\(atCart) of 13 defects shown (at the places found)"))
        // A selected place offers its link; a place that does not exist is said to be ignored.
        #expect(selected.contains(#"<a href="?place=\#(movieIndex)">Link to this view</a>"#))
        #expect(try Chromium.dom(of: page + "?place=999").contains("Ignored: place=999 is not a place of this map"))
        try Chromium.screenshot(of: page + "?place=\(movieIndex)", to: Chromium.screenshotFolder.appendingPathComponent("html-report.png"))
        #expect(FileManager.default.fileExists(atPath: Chromium.screenshotFolder.appendingPathComponent("html-report.png").path))
    }

    @Test func anAPIThatNamesItsLinksWithMarkupRunsNoScriptInThePage() throws {
        let stubs = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stubs) }
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        let hostileRel = #"</script><img src=x onerror="document.documentElement.setAttribute('data-pwned','rel')">"#
        let hostilePath = #"/x\"><img src=x onerror=document.documentElement.setAttribute('data-pwned','url')>"#
        let rtl = "\u{202E}gnp.exe"
        let root = JSONValue.object([
            JSONMember(
                "_links",
                .object([
                    JSONMember("self", .object([JSONMember("href", "/")])),
                    JSONMember(hostileRel, .object([JSONMember("href", .string("/hostile"))])),
                    JSONMember("next", .object([JSONMember("href", .string(hostilePath)), JSONMember("title", .string(rtl))])),
                    JSONMember("javascript", .object([JSONMember("href", .string("javascript:document.documentElement.setAttribute('data-pwned','href')"))])),
                ]))
        ])
        let body = JSONWriter().string(root)
        let stub = JSONValue.object([
            JSONMember("request", .object([JSONMember("path", "/")])),
            JSONMember(
                "response",
                .object([
                    JSONMember("status", 200), JSONMember("headers", .object([JSONMember("Content-Type", "application/hal+json")])), JSONMember("bodyText", .string(body)),
                ])),
        ])
        try JSONWriter().string(stub).write(to: stubs.appendingPathComponent("root.json"), atomically: true, encoding: .utf8)
        let (file, html, _) = try report(["crawl", "http://localhost:3000/", "--stubs", stubs.path], named: "hostile")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(html.contains("&lt;/script&gt;&lt;img src=x onerror="))
        let dom = try Chromium.dom(of: file.absoluteString)
        #expect(dom.contains(#"data-map-drawn="true""#))
        #expect(!dom.contains(#"data-pwned=""#), "a hostile value ran as script")
        #expect(!dom.contains("<img"))
        #expect(dom.occurrences(of: "<script") == 2)
        // The hostile rel is on the map, as text.
        #expect(dom.contains("&lt;/script&gt;&lt;img"))
        let selected = try Chromium.dom(of: file.absoluteString + "?search=onerror")
        #expect(!selected.contains(#"data-pwned=""#) && selected.contains("places match"))
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
