/// The escapers, one per context. Each writes runs of unchanged text in one piece and replaces
/// single characters, so a megabyte of body text is copied once, not character by character.
enum HTMLEscaping {
    /// Text content: `& < >`, and U+0000 as U+FFFD (what the HTML parser would do, said aloud).
    /// A literal `&amp;` in the input comes out as `&amp;amp;`: the reader sees what the API sent.
    static func writeText<Output: TextOutputStream>(_ text: String, into output: inout Output) {
        write(text, into: &output) { bytes, index in textEscape(bytes[index]).map { ($0, 1) } }
    }

    private static func textEscape(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case 0: "\u{FFFD}"
        default: nil
        }
    }

    /// A double-quoted attribute value: text's escapes and both quotes, so the value can close
    /// neither the attribute nor the tag whichever quote a later edit uses.
    static func writeAttributeValue<Output: TextOutputStream>(_ text: String, into output: inout Output) {
        write(text, into: &output) { bytes, index in
            switch bytes[index] {
            case UInt8(ascii: "\""): ("&quot;", 1)
            case UInt8(ascii: "'"): ("&#39;", 1)
            case let byte: textEscape(byte).map { ($0, 1) }
            }
        }
    }

    /// JSON inside `<script type="application/json">`: `<`, `>` and `&` as `\u003c`, `\u003e`,
    /// `\u0026`, so neither `</script` nor `<!--` can occur and the parser never leaves the
    /// element; U+2028 and U+2029 as escapes too, so the data reads the same if it is ever pasted
    /// into script code. These escapes mean the same inside JSON strings, the only place the
    /// characters can be in valid JSON.
    static func writeJSON<Output: TextOutputStream>(_ json: String, into output: inout Output) {
        write(json, into: &output) { bytes, index in
            switch bytes[index] {
            case UInt8(ascii: "<"): ("\\u003c", 1)
            case UInt8(ascii: ">"): ("\\u003e", 1)
            case UInt8(ascii: "&"): ("\\u0026", 1)
            case 0: ("\\u0000", 1)
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA8: ("\\u2028", 3)
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA9: ("\\u2029", 3)
            default: nil
            }
        }
    }

    /// Walks the UTF-8 bytes: every character replaced starts with a byte that cannot occur inside
    /// another character's encoding, so a match is always a whole character. `replacement` gets
    /// the bytes and a position and answers with the text to write and how many bytes it stands for.
    private static func write<Output: TextOutputStream>(
        _ text: String, into output: inout Output,
        replacing replacement: (UnsafeBufferPointer<UInt8>, Int) -> (String, Int)?
    ) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                guard let (replaced, length) = replacement(bytes, index) else {
                    index += 1
                    continue
                }
                if runStart < index { output.write(String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)) }
                output.write(replaced)
                index += length
                runStart = index
            }
            if runStart < bytes.count { output.write(String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart...]), as: UTF8.self)) }
        }
    }
}
