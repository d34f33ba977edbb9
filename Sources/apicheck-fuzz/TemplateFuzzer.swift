import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation

/// `template`: a Mustache template file, linted as `apicheck lint` does
/// (``TemplateRenderer/diagnose(_:)``: compile errors, then names the context cannot provide) and
/// rendered against a request. The first byte's bit 0 names the file `.json.mustache` (JSON
/// string escaping) instead of `.html.mustache`; the rest is the template.
///
/// Invariants: every diagnostic is located in the file (its path, line ≥ 1 and within its lines,
/// column ≥ 1); a template lint calls broken does not render and fails with the same located
/// error; any other renders, failing only on the output or iteration bounds, within the output
/// bound. The input's text, as a value rendered by `{{q}}`, is escaped: in HTML no `<`, `>`, `"`
/// or `'` is left and the entities decode back to it; in a `.json.mustache` it is the inside of a
/// JSON string that parses back to it.
enum TemplateFuzzer {
    static let variables: [String: JSONValue] = [
        "title": "Alien", "movie": .object(["id": 1, "tags": ["horror", "space"], "director": .object(["name": "Ridley Scott"])]), "count": 2,
    ]
    static let context = TemplateContext(
        request: StubRequest(
            method: "POST", target: "/movies/42?q=alien&page=2",
            headers: [HTTPHeader(name: "Accept", value: "application/json"), HTTPHeader(name: "X-Trace", value: "a\"b<c>")],
            body: Data(#"{"items":[{"id":1,"name":"<b>"}],"n":"x","nested":{"deep":{"v":true}}}"#.utf8)),
        pathParameters: ["id": "42"], baseURL: "http://127.0.0.1:8080", variables: ["page": "2"])

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let json = input.byte() & 1 != 0
        let text = Array(input.rest)
        let path = FuzzScratch.folder + (json ? "/fuzz.json.mustache" : "/fuzz.html.mustache")
        FuzzScratch.write(text, to: path)
        let template = StubTemplate(file: StubFile(declaredPath: "fuzz.mustache", url: URL(fileURLWithPath: path), byteCount: text.count), variables: variables)
        // A new renderer each time: its cache is keyed by the file's stamp, which two quick writes may share.
        let renderer = TemplateRenderer()
        let diagnostics = renderer.diagnose(template)

        let decoded = String(decoding: text, as: UTF8.self)
        let lines = max(FuzzCheck.lineBound(text) + text.filter { $0 == 0x0B || $0 == 0x0C }.count, decoded.reduce(1) { $0 + ($1.isNewline ? 1 : 0) })
        for diagnostic in diagnostics {
            FuzzCheck.require(diagnostic.location.path == path, "diagnostic not located in the file: \(diagnostic)")
            FuzzCheck.require(diagnostic.location.line >= 1 && diagnostic.location.line <= lines, "diagnostic line outside the template (\(lines) lines): \(diagnostic)")
            FuzzCheck.require(diagnostic.location.column >= 1, "diagnostic column < 1: \(diagnostic)")
        }
        let broken = diagnostics.first { $0.severity == .error }
        FuzzCheck.require(diagnostics.filter { $0.severity == .error }.count <= 1, "more than one compile error")

        checkEscaping(String(decoding: text, as: UTF8.self))

        do {
            let output = try renderer.render(template, context: context)
            if let broken { FuzzCheck.fail("lint reports \(broken), yet the template renders") }
            FuzzCheck.require(output.count <= TemplateRenderer.maximumOutputBytes, "\(output.count) bytes rendered, over the bound")
        } catch {
            if let broken {
                FuzzCheck.require(error.diagnostic == broken, "lint reports \(broken), rendering \(error)")
            } else {
                FuzzCheck.require(error.message.hasPrefix("rendering would"), "a template lint accepts fails to render: \(error)")
            }
        }
    }

    /// `{{q}}` in an HTML and a JSON template, compiled once.
    static let escaping: (renderer: TemplateRenderer, html: StubTemplate, json: StubTemplate) = {
        func template(_ name: String) -> StubTemplate {
            let path = FuzzScratch.folder + "/" + name
            FuzzScratch.write(Array("{{q}}".utf8), to: path)
            return StubTemplate(file: StubFile(declaredPath: name, url: URL(fileURLWithPath: path), byteCount: 5))
        }
        return (TemplateRenderer(), template("escape.html.mustache"), template("escape.json.mustache"))
    }()

    static func checkEscaping(_ value: String) {
        var context = context
        context.variables = ["q": .string(value)]
        let (renderer, html, json) = escaping
        do {
            let escaped = String(decoding: try renderer.render(html, context: context), as: UTF8.self)
            FuzzCheck.require(!escaped.utf8.contains { $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }, "HTML escaping left a < > \" or ' in \(escaped.debugDescription)")
            FuzzCheck.require(decodingEntities(Array(escaped.utf8)) == Array(value.utf8), "HTML escaping does not decode back: \(escaped.debugDescription)")
            let inside = try renderer.render(json, context: context)
            let string = try JSONParser().parseValue([UInt8(ascii: "\"")] + Array(inside) + [UInt8(ascii: "\"")])
            FuzzCheck.require(string == .string(value), "JSON string escaping does not parse back: \(String(decoding: inside, as: UTF8.self).debugDescription)")
        } catch {
            FuzzCheck.fail("{{q}} does not render: \(error)")
        }
    }

    /// The five entities HTML escaping writes, decoded byte by byte.
    static func decodingEntities(_ bytes: [UInt8]) -> [UInt8] {
        let entities = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")].map { (Array($0.0.utf8), $0.1.utf8.first!) }
        var output: [UInt8] = []
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&") {
                for (entity, byte) in entities where bytes[index...].starts(with: entity) {
                    output.append(byte)
                    index += entity.count
                    continue scan
                }
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }
}
