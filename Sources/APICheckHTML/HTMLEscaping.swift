/// The escapers, one per context. Each writes runs of unchanged text in one piece and replaces
/// single characters, so a megabyte of body text is copied once, not character by character.
enum HTMLEscaping {
    /// Text content: `& < >`, and U+0000 as U+FFFD (what the HTML parser would do, said aloud).
    /// A literal `&amp;` in the input comes out as `&amp;amp;`: the reader sees what the API sent.
    static func writeText<Output: TextOutputStream>(_ text: String, into output: inout Output) {
        write(text, into: &output) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\u{0}": "\u{FFFD}"
            default: nil
            }
        }
    }

    /// A double-quoted attribute value: text's escapes and both quotes, so the value can close
    /// neither the attribute nor the tag whichever quote a later edit uses.
    static func writeAttributeValue<Output: TextOutputStream>(_ text: String, into output: inout Output) {
        write(text, into: &output) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\u{0}": "\u{FFFD}"
            default: nil
            }
        }
    }

    /// JSON inside `<script type="application/json">`: `<`, `>` and `&` as `\u003c`, `\u003e`,
    /// `\u0026`, so neither `</script` nor `<!--` can occur and the parser never leaves the
    /// element; U+2028 and U+2029 as escapes too, so the data reads the same if it is ever pasted
    /// into script code. These escapes mean the same inside JSON strings, the only place the
    /// characters can be in valid JSON.
    static func writeJSON<Output: TextOutputStream>(_ json: String, into output: inout Output) {
        write(json, into: &output) { scalar in
            switch scalar {
            case "<": "\\u003c"
            case ">": "\\u003e"
            case "&": "\\u0026"
            case "\u{2028}": "\\u2028"
            case "\u{2029}": "\\u2029"
            case "\u{0}": "\\u0000"
            default: nil
            }
        }
    }

    private static func write<Output: TextOutputStream>(
        _ text: String, into output: inout Output, replacing replacement: (Unicode.Scalar) -> String?
    ) {
        let scalars = text.unicodeScalars
        var runStart = scalars.startIndex
        var index = runStart
        while index != scalars.endIndex {
            let next = scalars.index(after: index)
            if let replaced = replacement(scalars[index]) {
                if runStart != index { output.write(String(text[runStart..<index])) }
                output.write(replaced)
                runStart = next
            }
            index = next
        }
        if runStart != scalars.endIndex { output.write(String(text[runStart...])) }
    }
}
