/// One attribute of an element. Its name comes from a closed enum and its value is typed by the
/// context it lands in, so untrusted text can only ever be plain text or a filtered URL.
///
/// ```swift
/// .element(.a, [.href(link.target), .title(link.title)], [.isolated(link.target)])
/// ```
public struct HTMLAttribute: Sendable {
    enum Value: Sendable {
        case text(String)
        case url(String)
        case tokens([HTMLToken])
        case flag
    }

    let name: String
    let value: Value

    /// Plain text: any string, escaped.
    public static func text(_ name: HTMLTextAttribute, _ value: String) -> HTMLAttribute {
        HTMLAttribute(name: name.rawValue, value: .text(value))
    }

    /// A URL: any string; one that is not `http:`, `https:`, `mailto:` or relative is written as
    /// ``HTMLURLFilter/blockedReplacement``.
    public static func url(_ name: HTMLURLAttribute, _ value: String) -> HTMLAttribute {
        HTMLAttribute(name: name.rawValue, value: .url(value))
    }

    /// Tokens our code chose, separated by spaces (`class="defect severe"`).
    public static func tokens(_ name: HTMLTokenAttribute, _ values: [HTMLToken]) -> HTMLAttribute {
        HTMLAttribute(name: name.rawValue, value: .tokens(values))
    }

    /// A boolean attribute (`hidden`, `open`).
    public static func flag(_ name: HTMLFlagAttribute) -> HTMLAttribute {
        HTMLAttribute(name: name.rawValue, value: .flag)
    }

    /// A `data-…` attribute for the report's filters: the suffix is ours (lowercase letters, digits,
    /// `-`), the value is plain text.
    public static func data(_ suffix: StaticString, _ value: String) -> HTMLAttribute {
        let text = suffix.description
        precondition(
            !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D },
            "HTMLAttribute.data: '\(text)' may only hold lowercase ASCII letters, digits and '-'"
        )
        return HTMLAttribute(name: "data-" + text, value: .text(value))
    }

    /// `href`, filtered: see ``url(_:_:)``.
    public static func href(_ url: String) -> HTMLAttribute { .url(.href, url) }
    /// `title`, plain text.
    public static func title(_ text: String) -> HTMLAttribute { .text(.title, text) }
    /// `id`.
    public static func id(_ token: HTMLToken) -> HTMLAttribute { .tokens(.id, [token]) }
    /// `class`.
    public static func `class`(_ tokens: HTMLToken...) -> HTMLAttribute { .tokens(.class, tokens) }

    func render<Output: TextOutputStream>(into output: inout Output) {
        output.write(" ")
        output.write(name)
        switch value {
        case .flag:
            return
        case .text(let text):
            output.write("=\"")
            HTMLEscaping.writeAttributeValue(text, into: &output)
        case .url(let url):
            output.write("=\"")
            HTMLEscaping.writeAttributeValue(HTMLURLFilter.sanitized(url), into: &output)
        case .tokens(let tokens):
            output.write("=\"")
            for (index, token) in tokens.enumerated() {
                if index > 0 { output.write(" ") }
                HTMLEscaping.writeAttributeValue(token.description, into: &output)
            }
        }
        output.write("\"")
    }
}
