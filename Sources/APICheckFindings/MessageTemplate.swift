import APICheckModel
import APICheckSpool

/// A message's wording without what varies between occurrences of one problem.
enum MessageTemplate {
    /// URLs become `<url>`, quoted text `<…>`, runs of digits `#`.
    static func of(_ message: String) -> String {
        var output = ""
        for piece in pieces(of: message) {
            switch piece {
            case .literal(let text): output += text
            case .slot(.url, _): output += "<url>"
            case .slot(.quoted, _): output += "<…>"
            case .slot(.number, _): output += "#"
            }
        }
        return output
    }

    /// What varies between occurrences of one problem.
    enum SlotKind: Hashable {
        /// An absolute http(s) URL, up to whitespace, `)` or `,`.
        case url
        /// Text in single or double quotes, the quotes included.
        case quoted
        /// A run of ASCII digits.
        case number
    }

    /// A message in pieces: the wording, and the slots ``of(_:)`` takes out.
    enum Piece: Hashable {
        case literal(String)
        case slot(SlotKind, String)
    }

    /// The pieces of `message`, in order; adjacent wording is one literal.
    static func pieces(of message: String) -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        func slot(_ kind: SlotKind, _ text: Substring) {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.slot(kind, String(text)))
        }
        var characters = message[...]
        while let first = characters.first {
            if characters.hasPrefix("http://") || characters.hasPrefix("https://") {
                let url = characters.prefix { !$0.isWhitespace && $0 != ")" && $0 != "," }
                slot(.url, url)
                characters = characters[url.endIndex...]
            } else if first == "'" || first == "\"", let end = characters.dropFirst().firstIndex(of: first) {
                slot(.quoted, characters[...end])
                characters = characters[characters.index(after: end)...]
            } else if first.isASCII, first.isNumber {
                let digits = characters.prefix { $0.isASCII && $0.isNumber }
                slot(.number, digits)
                characters = characters[digits.endIndex...]
            } else {
                literal.append(first)
                characters = characters.dropFirst()
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }
}
