/// Text written into XML (stub files the recorder writes, JUnit reports): one escaping for both.
package enum XMLText {
    /// XML character data or attribute content. `&`, `<`, `>`, `"` and `'` become entities;
    /// tab, line feed and carriage return become character references (so attribute values keep
    /// them through attribute normalisation); characters XML 1.0 forbids (other C0 controls,
    /// U+FFFE, U+FFFF) cannot be written at all, not even as references, and become `\u{…}`
    /// text instead.
    package static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t": output += "&#9;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
