import APICheckModel
import APICheckSpool

/// The escaping rules of every output format, in one place. Findings carry text from untrusted
/// responses: escaping is what keeps a hostile message from forging a GitHub command, breaking
/// XML or a Markdown table, or driving the terminal.
package enum Escaping {
    /// Control characters made visible (`\n`, `\t`, `\u{1B}`), so nothing untrusted can move the
    /// cursor, change colours or start a new line in terminal output. Also C1 controls and the
    /// bidirectional overrides that can make text read differently from what it is.
    package static func visibleControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where needsEscape(scalar): output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    /// The message part of a GitHub workflow command: `%`, CR and LF percent-encoded (the
    /// runner decodes exactly these).
    package static func githubData(_ text: String) -> String {
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    /// A property value of a GitHub workflow command (`title=…`): as data, plus `:` and `,`,
    /// which delimit properties.
    package static func githubProperty(_ text: String) -> String {
        var output = ""
        for character in githubData(text).unicodeScalars {
            switch character {
            case ":": output += "%3A"
            case ",": output += "%2C"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    /// Text inside a GitHub-flavoured Markdown table cell: the characters that would end the
    /// cell (`|`), start HTML (`<`, `&`) or emphasis, links and code are escaped, and line breaks
    /// become `<br>`, the only way to break a line in a cell.
    package static func markdown(_ text: String) -> String {
        var output = ""
        var previousWasCarriageReturn = false
        for scalar in visibleControlCharactersExceptNewlines(text).unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\r": output += "<br>"
            case "\n": if !previousWasCarriageReturn { output += "<br>" }
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "|", "\\", "`", "*", "_", "[", "]", "~", "#", "!": output += "\\" + String(scalar)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Like ``visibleControlCharacters(_:)`` but keeps line feeds and carriage returns, for formats
    /// that escape those their own way.
    package static func visibleControlCharactersExceptNewlines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" && $0 != "\r" }) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                output.unicodeScalars.append(scalar)
            } else {
                output += visibleControlCharacters(String(scalar))
            }
        }
        return output
    }

    /// A valid RFC 3986 URI reference for `text`: bytes outside the unreserved and reserved sets
    /// (spaces, braces of templates, non-ASCII, controls) and `%` not starting an escape are
    /// percent-encoded; valid references pass unchanged. SARIF requires `uri` to be one.
    package static func uriReference(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for index in bytes.indices {
            let byte = bytes[index]
            if URICharacters.isUnreserved(byte) || URICharacters.isReserved(byte) || URICharacters.isPercentTriplet(bytes, at: index) {
                output.append(byte)
            } else {
                URICharacters.appendPercentEncoded(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
