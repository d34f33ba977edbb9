import APICheckJSON
import Mustache

/// The swift-mustache content types our templates render with, selected per template by a
/// `{{%CONTENT_TYPE:…}}` pragma that the compiler adds before the template's first line.
///
/// Both types charge the growth that escaping causes to the render in progress (see
/// ``RenderBudget``), so the output bound holds for escaped values too.
enum TemplateContentType {
    /// `{{x}}` escapes for the inside of a JSON string; templates named `*.json.mustache`.
    static let json = "APICHECK_JSON"
    /// `{{x}}` escapes for HTML exactly as swift-mustache's `HTML` type does; every other template.
    static let html = "APICHECK_HTML"

    /// Content types a `{{%CONTENT_TYPE:…}}` pragma may name.
    static let known: Set<String> = [json, html, "HTML", "TEXT"]

    /// Registers ours with swift-mustache once per process. Its registry is process-wide (there is
    /// no per-template alternative in 2.1.1) and locked; ours are added under names of our own
    /// (`APICHECK_…`), so swift-mustache's `HTML` and `TEXT`, and any type another library
    /// registers under its own name, are untouched (tested). Only a library registering these
    /// very names could interfere.
    static func registerOnce() { _ = registration }

    private static let registration: Void = {
        MustacheContentTypes.register(JSONStringContentType(), named: json)
        MustacheContentTypes.register(HTMLContentType(), named: html)
    }()

    /// The default content type of a template file, from its name.
    static func forTemplate(named path: String) -> String {
        path.lowercased().hasSuffix(".json.mustache") ? json : html
    }
}

/// Escapes text for the inside of a JSON string (RFC 8259 §7): quote, backslash and control
/// characters, plus U+2028 and U+2029 so the output is also safe inside JavaScript.
struct JSONStringContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        JSONWriter.escapeStringContents(text, escapingLineSeparators: true, into: &escaped)
        RenderBudget.current?.charge(escaped.utf8.count - text.utf8.count)
        return escaped
    }
}

/// swift-mustache's HTML escaping (`<`, `>`, `&`, `"`, `'`), with the growth charged to the render.
struct HTMLContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        // By Unicode scalar, as HTML is read: `"` followed by a combining mark is one `Character`
        // that is not `"`, yet its quote still ends an attribute value.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        RenderBudget.current?.charge(escaped.utf8.count - text.utf8.count)
        return escaped
    }
}
