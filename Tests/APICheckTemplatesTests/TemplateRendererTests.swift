import APICheckJSON
import APICheckModel
@testable import APICheckTemplates
import Foundation
import Mustache
import Testing

/// A scratch folder for one test, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` and returns the template that refers to it.
    func template(_ name: String, _ text: String, variables: [String: JSONValue] = [:]) throws -> StubTemplate {
        try template(name, Data(text.utf8), variables: variables)
    }

    func template(_ name: String, _ data: Data, variables: [String: JSONValue] = [:]) throws -> StubTemplate {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return StubTemplate(file: StubFile(declaredPath: "templates/\(name)", url: file, byteCount: data.count), variables: variables)
    }
}

private func render(
    _ renderer: TemplateRenderer, _ template: StubTemplate, _ context: TemplateContext = .init(request: .init(method: "GET", path: "/"), baseURL: "http://127.0.0.1:8080")
) throws -> String {
    String(decoding: try renderer.render(template, context: context), as: UTF8.self)
}

@Suite struct TemplateRendererTests {
    let renderer = TemplateRenderer()

    @Test func pathParametersQueryAndHeaders() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "movie.txt.mustache",
            "{{request.method}} {{request.path}} id={{request.pathParams.id}} lang={{request.query.lang}} flag=[{{request.query.flag}}]"
                + " ct={{request.headers.content-type}} CT={{request.headers.Content-Type}} AUTH={{request.headers.AUTHORIZATION}}"
        )
        let request = StubRequest(
            method: "post", target: "/movies/42?lang=en&lang=fr&flag",
            headers: [HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "authorization", value: "Bearer t")]
        )
        let output = try render(renderer, template, TemplateContext(request: request, pathParameters: ["id": "42"], baseURL: "http://x"))
        #expect(output == "POST /movies/42 id=42 lang=en flag=[] ct=text/plain CT=text/plain AUTH=Bearer t")
    }

    @Test func requestJSONNestedValuesAndSectionOverAnArray() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "cart.txt.mustache",
            """
            {{request.json.user.name}} ({{request.json.user.age}}, vip={{request.json.user.vip}}){{#request.json.user.missing}}never{{/request.json.user.missing}}
            {{#request.json.items}}
            - {{id}} x{{quantity}}{{^last()}},{{/last()}}
            {{/request.json.items}}
            first={{request.json.items.0.id}} count={{count(request.json.items)}}{{^request.json.nothing}} nothing{{/request.json.nothing}}
            """
        )
        let body = #"{"user": {"name": "Ada", "age": 36.50, "vip": true, "missing": null}, "items": [{"id": "a", "quantity": 1}, {"id": "b", "quantity": 2e3}], "nothing": null}"#
        let request = StubRequest(method: "POST", path: "/cart", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(body.utf8))
        let output = try render(renderer, template, TemplateContext(request: request, baseURL: "http://x"))
        #expect(output == "Ada (36.50, vip=true)\n- a x1,\n- b x2e3\nfirst=a count=2 nothing")
    }

    @Test func requestJSONIsIgnoredForOtherContentTypes() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("t.txt.mustache", "[{{request.json.a}}][{{{request.body}}}]")
        let form = StubRequest(method: "POST", path: "/", headers: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: Data(#"{"a":1}"#.utf8))
        #expect(try render(renderer, template, TemplateContext(request: form, baseURL: "")) == #"[][{"a":1}]"#)
        let undeclared = StubRequest(method: "POST", path: "/", body: Data(#"{"a":1}"#.utf8))
        #expect(try render(renderer, template, TemplateContext(request: undeclared, baseURL: "")) == #"[1][{"a":1}]"#)
    }

    @Test func baseURLInAnHrefAndStubVariables() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "movie.html.mustache", #"<a href="{{baseURL}}/movies/{{id}}">{{title}}</a> {{note}}"#, variables: ["title": "Dune", "id": "7", "note": "template"]
        )
        let context = TemplateContext(request: StubRequest(method: "GET", path: "/"), baseURL: "http://127.0.0.1:8080", variables: ["note": "context"])
        #expect(try render(renderer, template, context) == #"<a href="http://127.0.0.1:8080/movies/7">Dune</a> context"#)
    }

    @Test func structuredStubVariablesDriveSectionsAndNesting() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "movie.json.mustache",
            #"{"rating":{{rating}},"stock":{{stock}}{{#inStock}},"rent":true{{/inStock}}{{#rateable}},"rate":true{{/rateable}},"#
                + #""director":"{{crew.director}}","cast":[{{#cast}}"{{.}}"{{^last}},{{/last}}{{/cast}}]}"#,
            variables: [
                "rating": .number("8.8"), "stock": 0, "inStock": false, "rateable": true,
                "crew": .object(["director": "David \"F\""]), "cast": ["Brad", "Edward"],
            ]
        )
        let output = try render(renderer, template, TemplateContext(request: StubRequest(method: "GET", path: "/"), baseURL: ""))
        #expect(output.hasPrefix(#"{"rating":8.8,"stock":0,"rate":true,"director":"David \"F\"","cast":["Brad""#))
        // Known nested names are checked too: a typo inside a variable object is a lint warning.
        let typo = try folder.template("typo.json.mustache", "{{crew.directr}}", variables: ["crew": .object(["director": "x"])])
        #expect(renderer.diagnose(typo).map(\.severity) == [.warning])
    }

    @Test func jsonTemplatesEscapeForJSONStrings() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "movie.json.mustache",
            #"{"title": "{{title}}", "raw": {{{raw}}}, "html": "{{html}}", "control": "{{control}}"}"#,
            variables: ["title": "say \"hi\" \\ bye\nnext", "raw": #"{"a": [1, 2]}"#, "html": "<b>&'", "control": "\u{01}\t\u{2028}"]
        )
        let output = try renderer.render(template, context: TemplateContext(request: StubRequest(method: "GET", path: "/"), baseURL: ""))
        let json = try JSONParser().parseValue([UInt8](output))
        #expect(json["title"] == .string("say \"hi\" \\ bye\nnext"))
        #expect(json["raw"] == .object(["a": [1, 2]]))
        #expect(json["html"] == .string("<b>&'"))
        #expect(json["control"] == .string("\u{01}\t\u{2028}"))
        #expect(String(decoding: output, as: UTF8.self).contains(#""control": "\u0001\t\u2028""#))
    }

    @Test func otherTemplatesEscapeForHTML() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("page.html.mustache", "<p>{{text}}</p><p>{{{text}}}</p><p>{{&text}}</p>", variables: ["text": #"<script>"x" & 'y'</script>"#])
        #expect(try render(renderer, template) == #"<p>&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;</p><p><script>"x" & 'y'</script></p><p><script>"x" & 'y'</script></p>"#)
    }

    /// Found by `scripts/fuzz template` once it checked escaping (Fuzz/Corpus/template keeps the
    /// input): HTML escaping went by `Character`, so a quote followed by a combining mark, one
    /// `Character` that is not `"`, was left raw and ended an attribute value.
    @Test func htmlEscapingEscapesAQuoteFollowedByACombiningMark() throws {
        let folder = try TemporaryFolder()
        let value = "\"\u{301} onmouseover=alert(1) x='\u{301}<\u{338}&\u{301}>\u{301}"
        let template = try folder.template("page.html.mustache", #"<a title="{{q}}">"#, variables: ["q": .string(value)])
        #expect(try render(renderer, template) == "<a title=\"&quot;\u{301} onmouseover=alert(1) x=&#39;\u{301}&lt;\u{338}&amp;\u{301}&gt;\u{301}\">")
    }

    @Test func missingValuesRenderEmpty() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template(
            "t.json.mustache",
            #"["{{nope}}", "{{request.query.q}}", "{{request.json.a.b}}", "{{request.headers.x-none}}", "{{request.method.x}}", "{{#nope}}x{{/nope}}", "{{request.pathParams.id}}"]"#
        )
        #expect(try render(renderer, template) == #"["", "", "", "", "", "", ""]"#)
    }

    @Test func unclosedSectionIsAnErrorAtItsOpeningTag() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("broken.json.mustache", "{\n  \"items\": [\n    {{#request.json.items}}\"{{id}}\"\n  ]\n}\n")
        let error = #expect(throws: TemplateError.self) { try renderer.render(template, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
        let path = template.file.url.path
        #expect(error?.location == APICheckModel.SourceLocation(path: path, line: 3, column: 5))
        #expect(error?.description.hasPrefix("\(path):3:5: error: section 'request.json.items' is never closed") == true, "\(String(describing: error))")
        #expect(renderer.diagnose(template).map(\.severity) == [.error])
        #expect(renderer.diagnose(template).first?.location.line == 3)
    }

    @Test func otherCompileErrorsNameTheirLine() throws {
        let folder = try TemporaryFolder()
        let cases: [(String, Int, Int, String)] = [
            ("a\n{{#a}}\nb\n{{/b}}\n", 4, 4, "'{{/b}}' does not close section 'a' opened at line 2, column 1"),
            ("a\n\n {{/x}}", 3, 5, "'{{/x}}' closes a section that is not open"),
            ("line\n  {{name}\n", 2, 9, "unexpected '}' after 'name'"),
            ("x {{name", 1, 3, "tag is never closed"),
            ("{{! comment", 1, 1, "comment is never closed"),
            ("ok\n{{{x}}", 2, 1, "is never closed: expected '}}}'"),
            ("{{=<% %>=}}\n<%#a%>\n<%/b%>", 3, 4, "'<%/b%>' does not close section 'a'"),
            ("\n{{%CONTENT_TYPE:XML}}", 2, 1, "unknown content type 'XML'"),
            ("{{= x}}", 1, 1, "invalid set-delimiter tag"),
            ("{{a(b}}", 1, 1, "malformed transform"),
            ("text {", 1, 6, "incomplete '{{'"),
            // swift-mustache 2.1.1 traps on this one (an empty section closed with a one-character delimiter).
            ("{{=| |=}}\nx|#a||/a|", 2, 6, "cannot be closed with a one-character delimiter"),
        ]
        for (text, line, column, message) in cases {
            let template = try folder.template("t.txt.mustache", text)
            let error = #expect(throws: TemplateError.self, "\(text)") { try renderer.render(template, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
            #expect(error?.location.line == line, "\(text): \(String(describing: error))")
            #expect(error?.location.column == column, "\(text): \(String(describing: error))")
            #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
            #expect(error?.description.hasPrefix("\(template.file.url.path):\(line):\(column): error: ") == true)
        }
    }

    @Test func fileProblemsAreErrors() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("gone.txt.mustache", "hello")
        #expect(try render(renderer, template) == "hello")
        try FileManager.default.removeItem(at: template.file.url)
        let gone = #expect(throws: TemplateError.self) { try renderer.render(template, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
        #expect(gone?.description == "\(template.file.url.path):1:1: error: the template file does not exist")
        #expect(renderer.diagnose(template).map(\.message) == ["the template file does not exist"])

        let notUTF8 = try folder.template("latin1.txt.mustache", Data([0x61, 0x0A, 0x62, 0xE9, 0x63]))
        let encoding = #expect(throws: TemplateError.self) { try renderer.render(notUTF8, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
        #expect(encoding?.location.line == 2 && encoding?.location.column == 2)
        #expect(encoding?.message == "the template is not valid UTF-8")

        let huge = try folder.template("huge.txt.mustache", Data(repeating: 0x61, count: TemplateRenderer.maximumTemplateBytes + 1))
        let size = #expect(throws: TemplateError.self) { try renderer.render(huge, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
        #expect(size?.message.contains("at most 16 MiB") == true)

        let folderTemplate = StubTemplate(file: StubFile(declaredPath: "t", url: folder.url, byteCount: 0))
        #expect(throws: TemplateError.self) { try renderer.render(folderTemplate, context: .init(request: .init(method: "GET", path: "/"), baseURL: "")) }
    }

    @Test func theCachePicksUpAnEditedFile() throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("t.txt.mustache", "one {{request.path}}")
        #expect(try render(renderer, template) == "one /")
        #expect(try render(renderer, template) == "one /")
        _ = try folder.template("t.txt.mustache", "second {{request.method}}")
        #expect(try render(renderer, template) == "second GET")
        _ = try folder.template("t.txt.mustache", "{{#broken}}")
        #expect(throws: TemplateError.self) { try render(renderer, template) }
        _ = try folder.template("t.txt.mustache", "fixed")
        #expect(try render(renderer, template) == "fixed")
    }

    @Test func diagnoseWarnsAboutNamesTheContextCannotProvide() throws {
        let folder = try TemporaryFolder()
        let good = try folder.template(
            "good.json.mustache",
            """
            {"title": "{{title}}", "m": "{{request.method}}", "id": "{{request.pathParams.id}}", "h": "{{request.headers.Accept}}",
             "items": [{{#request.json.items}}"{{name}}{{whatever.deep}}"{{^last()}},{{/last()}}{{/request.json.items}}],
             {{#request}}"p": "{{path}}", "t": "{{title}}",{{/request}} "href": "{{baseURL}}/x", "u": "{{uppercased(title)}}"}
            """,
            variables: ["title": "Dune"]
        )
        #expect(renderer.diagnose(good) == [])

        let bad = try folder.template(
            "bad.json.mustache",
            """
            {"a": "{{request.bogus}}",
             "b": "{{titel}}", "c": "{{request.method.name}}"{{#request}}{{bogus2}}{{/request}}{{> footer}}}
            """,
            variables: ["title": "Dune"]
        )
        let diagnostics = renderer.diagnose(bad)
        #expect(diagnostics.map(\.severity) == [.warning, .warning, .warning, .warning, .warning], "\(diagnostics)")
        #expect(diagnostics.map(\.location.line) == [1, 2, 2, 2, 2])
        #expect(diagnostics[0].message.hasPrefix("'request.bogus' is not in the template context"), "\(diagnostics[0])")
        #expect(diagnostics[1].message.contains("'titel' is not in the template context and renders as nothing; did you mean 'title'?"), "\(diagnostics[1])")
        #expect(diagnostics[2].message.contains("request.method is text"), "\(diagnostics[2])")
        #expect(diagnostics[3].message.hasPrefix("'bogus2'"), "\(diagnostics[3])")
        #expect(diagnostics[4].message.contains("partials are not supported"), "\(diagnostics[4])")
        #expect(diagnostics[0].description.hasPrefix("\(bad.file.url.path):1:8: warning: "))
    }

    @Test func renderingTheSameTemplateFrom200ConcurrentTasks() async throws {
        let folder = try TemporaryFolder()
        let template = try folder.template("t.json.mustache", #"{"n": "{{request.query.n}}", "items": [{{#request.json}}{{.}}{{^last()}},{{/last()}}{{/request.json}}]}"#)
        let renderer = self.renderer
        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let request = StubRequest(method: "POST", target: "/?n=\(index)", body: Data("[\(index), \(index + 1)]".utf8))
                    let data = try renderer.render(template, context: TemplateContext(request: request, baseURL: ""))
                    return (index, String(decoding: data, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(outputs.count == 200)
        for (index, output) in outputs {
            #expect(output == #"{"n": "\#(index)", "items": [\#(index),\#(index + 1)]}"#)
        }
    }
}

@Suite struct TemplateBoundsTests {
    let renderer = TemplateRenderer()

    @Test func deepNestingIsRefusedNotACrash() throws {
        let folder = try TemporaryFolder()
        let deep = try folder.template("deep.txt.mustache", String(repeating: "{{#a}}", count: 100_000) + String(repeating: "{{/a}}", count: 100_000))
        let error = #expect(throws: TemplateError.self) { try render(renderer, deep) }
        #expect(error?.message.contains("nested more than") == true)
        let unclosed = try folder.template("unclosed.txt.mustache", String(repeating: "{{#a}}\n", count: 40))
        #expect((#expect(throws: TemplateError.self) { try render(renderer, unclosed) })?.location.line == 40)
        let transforms = try folder.template("transforms.txt.mustache", "{{" + String(repeating: "a(", count: 500) + "b" + String(repeating: ")", count: 500) + "}}")
        #expect(throws: TemplateError.self) { try render(renderer, transforms) }
        // At the limit it renders.
        let ok = try folder.template("ok.txt.mustache", String(repeating: "{{#request}}", count: 48) + "{{method}}" + String(repeating: "{{/request}}", count: 48))
        #expect(try render(renderer, ok) == "GET")
    }

    @Test func largeTemplatesCompileInLinearTime() throws {
        let folder = try TemporaryFolder()
        // ~2 MB of JSON with 150,000 braces and tags: quadratic in swift-mustache's parser when whole.
        var text = "[\n"
        for index in 0..<50_000 { text += #"{"i": \#(index), "v": "{{request.method}}"},"# + "\n" }
        text += "{}]\n"
        let template = try folder.template("big.json.mustache", text)
        let start = ContinuousClock.now
        let output = try renderer.render(template, context: .init(request: .init(method: "GET", path: "/"), baseURL: ""))
        #expect(ContinuousClock.now - start < .seconds(20))
        let json = try JSONParser().parseValue([UInt8](output))
        guard case .array(let elements) = json else { Issue.record("not an array"); return }
        #expect(elements.count == 50_001)
        #expect(elements[49_999]["v"] == "GET")
    }

    @Test func outputAndIterationsAreBounded() throws {
        let folder = try TemporaryFolder()
        // 4,000 × 4,000 iterations of the inner section: 16 million iterations.
        let items = "[" + Array(repeating: "1", count: 4_000).joined(separator: ",") + "]"
        let request = StubRequest(method: "POST", path: "/", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"a": \#(items), "s": "\#(String(repeating: "x", count: 100_000))"}"#.utf8))
        let context = TemplateContext(request: request, baseURL: "")
        let iterations = try folder.template("loops.txt.mustache", "{{#request.json.a}}{{#request.json.a}}{{/request.json.a}}{{/request.json.a}}")
        let iterationError = #expect(throws: TemplateError.self) { try renderer.render(iterations, context: context) }
        #expect(iterationError?.message.contains("section iterations") == true)
        // 4,000 × 100 KB of text values: 400 MB.
        let bytes = try folder.template("bytes.txt.mustache", "{{#request.json.a}}{{request.json.s}}{{/request.json.a}}")
        let bytesError = #expect(throws: TemplateError.self) { try renderer.render(bytes, context: context) }
        #expect(bytesError?.message.contains("more than 64 MiB") == true)
        // Escaping growth counts too: 1,000 × 100 KB of quotes become 600 MB of `&quot;`.
        let quotes = StubRequest(method: "POST", path: "/", body: Data(#"{"a": \#(items), "q": "\#(String(repeating: "\\\"", count: 20_000))"}"#.utf8))
        let escaped = try folder.template("escaped.html.mustache", "{{#request.json.a}}{{request.json.q}}{{/request.json.a}}")
        #expect(throws: TemplateError.self) { try renderer.render(escaped, context: TemplateContext(request: quotes, baseURL: "")) }
        // Within bounds it renders.
        let fine = try folder.template("fine.txt.mustache", "{{#request.json.a}}{{.}}{{/request.json.a}}")
        #expect(try renderer.render(fine, context: context).count == 4_000)
    }
}

/// Chunked compilation must render exactly what swift-mustache renders for the whole template.
@Suite struct TemplateChunkingTests {
    @Test func ourContentTypesLeaveSwiftMustachesOwnUntouchedForOtherUsers() throws {
        TemplateContentType.registerOnce()
        let html = try MustacheTemplate(string: "{{%CONTENT_TYPE:HTML}}{{x}}").render(["x": "<a href=\"q\">"])
        let text = try MustacheTemplate(string: "{{%CONTENT_TYPE:TEXT}}{{x}}").render(["x": "<a href=\"q\">"])
        let plain = try MustacheTemplate(string: "{{x}}").render(["x": "<a href=\"q\">"])
        #expect(html == "&lt;a href=&quot;q&quot;&gt;")
        #expect(text == "<a href=\"q\">")
        #expect(plain == html)
    }

    @Test func packageSwiftPinsTheSwiftMustacheReleaseTheScannerMirrors() throws {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.contains("hummingbird-project/swift-mustache") }
        #expect(line?.contains("exact: \"\(TemplateScanner.mirroredMustacheVersion)\"") == true, "\(line ?? "no swift-mustache dependency")")
    }

    private static var root: [String: Any] {
        [
            "a": ["x": "ax", "list": [["x": "1"], ["x": "2"]]] as [String: Any],
            "b": true, "c": false, "x": "top", "list": ["p", "q"], "text": "<&>",
        ]
    }

    private func compare(_ text: String, _ message: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let root = Self.root  // one instance: `{{.}}` prints it, in its own order
        var limits = TemplateScanner.Limits()
        limits.chunkTarget = 1
        let chunked = Result { () throws(TemplateError) in try CompiledTemplate.compile(text, path: "t.html.mustache", limits: limits) }
        if case .failure(let error) = chunked, error.message.contains("one-character delimiter") {
            return  // swift-mustache 2.1.1 traps on these: nothing to compare with
        }
        let whole = Result { try CompiledTemplate.renderUnchunked(text, contentType: TemplateContentType.html, object: root) }
        switch (whole, chunked) {
        case (.success(let expected), .success(let chunked)):
            let actual = chunked.chunks.map { $0.render(root) }.joined()
            #expect(actual == expected, "\(message ?? "") \(text.debugDescription)", sourceLocation: sourceLocation)
            // And against the values real renders use (a crash would end the test run).
            let budget = RenderBudget(byteLimit: 1 << 20, iterationLimit: 1_000)
            let request = StubRequest(method: "POST", path: "/", body: Data(#"{"a": {"x": 1, "list": [{"x": 2}, null]}, "list": ["p"], "b": true}"#.utf8))
            let values = TemplateContext(request: request, baseURL: "http://x").renderRoot(variables: ["x": "<v>"], compiled: chunked, budget: budget)
            RenderBudget.$current.withValue(budget) { _ = chunked.chunks.map { $0.render(values) } }
        case (.failure, .failure):
            break
        case (.success, .failure(let error)):
            Issue.record("the scanner refuses what swift-mustache compiles: \(text.debugDescription): \(error)", sourceLocation: sourceLocation)
        case (.failure(let error), .success):
            Issue.record("the scanner accepts what swift-mustache refuses: \(text.debugDescription): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func standaloneLinesAndDelimitersSurviveChunking() {
        compare("a\n{{#b}}\n  x\n{{/b}}\n{{! c }}\n  {{x}}\n")
        compare("x {{#a}}\n{{/a}}\n  {{#b}}\nz\n{{/b}}\n")
        compare("{{=<% %>=}}\n<%x%>\n{{x}}\n<%={{ }}=%>\n{{x}}\n")
        compare("{{#a}}{{=<% %>=}}<%x%>{{/a}}\n{{x}}\n")
        compare("  {{$blk}}\n  one\n  two\n  {{/blk}}\nafter\n")
        compare("{{%CONTENT_TYPE:TEXT}}\n{{text}}\n{{text}}\n")
        compare("{{#list}}\n{{.}}\n{{/list}}\n{{^c}}\nno\n{{/c}}\n")
        compare("\r\n{{#b}}\r\nx\r\n{{/b}}\r\n{{x}}\r\n")
        compare("{{\nx}}\n{{ x }}\n{{{text}}}\n{{&text}}\n")
        compare("{{<p}}\n{{$a}}x{{/a}}\n{{/p}}\ny\n")
        compare("{{#a}}\n{{#list}}{{x}}{{/list}}\n{{/a}}\n{{first(list)}}\n")
    }

    @Test func randomTemplatesRenderTheSameChunked() {
        let pieces = [
            "{{", "}}", "{{#a}}", "{{/a}}", "{{#b}}", "{{/b}}", "{{^c}}", "{{/c}}", "{{#list}}", "{{/list}}", "{{x}}", "{{.}}",
            "{{{text}}}", "{{&text}}", "{{! note }}", "{{=<% %>=}}", "<%x%>", "<%={{ }}=%>", "{{$blk}}", "{{/blk}}", "{{>p}}",
            "{{%CONTENT_TYPE:TEXT}}", "{{text}}", "\n", "\n", "\n", "\r\n", " ", "  ", "\t", "x", "{", "}", "{{ a.x }}", "<%#a%>", "<%/a%>",
            "\r", "\u{2028}", "\u{301}", "é", "🇫🇷", "{{<p}}", "{{/p}}", "{{$a}}", "{{/a}}", "{{=| |=}}", "|x|", "|#a|", "|/a|", "|={{ }}=|", "{{{", "}}}",
            "{{ # a }}", "{{first(list)}}", "{{#first()}}", "{{/first()}}", "{{#reversed(list)}}", "{{/reversed(list)}}", "{{a(b}}", "{{\n", "{{\u{0B}", "\u{0C}",
            "{{=<%% %%>=}}", "<%%x%%>", "%>", "{{! x } }}", "{{%CONTENT_TYPE: HTML }}", "{{>*x}}", "{{<*x}}", "{{/*x}}", "\u{0}", "{{ }}", "{{#}}", "{{/}}",
        ]
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...24, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            compare(text)
        }
    }
}

/// A seeded generator, for reproducible random templates.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
