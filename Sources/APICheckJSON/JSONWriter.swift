/// Writes ``JSONValue``s: compact (what a server sends) or indented (what a person reads).
public struct JSONWriter: Sendable {
    public enum Style: Sendable {
        /// No whitespace, like `JSON.stringify(value)`.
        case compact
        /// Two-space indentation, `"key": value`, one member per line.
        case pretty
    }

    public var style: Style

    public init(style: Style = .compact) {
        self.style = style
    }

    public func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, into: &output)
        return output
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        Array(string(value).utf8)
    }

    /// Appends `value` to `output` as if it were nested `indent` levels deep, so a long document
    /// can be written a piece at a time (see ``writeObject(_:indent:into:value:)``).
    public func write(_ value: JSONValue, indent: Int = 0, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let lexeme): output += lexeme
        case .string(let string): Self.writeString(string, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(indent + 1, into: &output)
                write(element, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(indent + 1, into: &output)
                Self.writeString(member.key, into: &output)
                output += style == .pretty ? ": " : ":"
                write(member.value, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output += "}"
        }
    }

    /// Appends an object whose member values are written by `write`: a member holding a long
    /// array can write (and drop) one element at a time instead of building the whole tree
    /// first. `write` receives the member's value, the output and the value's indentation.
    public func writeObject<Value>(
        _ members: [(key: String, value: Value)], indent: Int = 0, into output: inout String, value write: (Value, inout String, Int) throws -> Void
    ) rethrows {
        guard !members.isEmpty else { output += "{}"; return }
        output += "{"
        for (index, member) in members.enumerated() {
            if index > 0 { output += "," }
            newline(indent + 1, into: &output)
            Self.writeString(member.key, into: &output)
            output += style == .pretty ? ": " : ":"
            try write(member.value, &output, indent + 1)
        }
        newline(indent, into: &output)
        output += "}"
    }

    /// Appends an array whose elements are written by `write` (same contract as
    /// ``writeObject(_:indent:into:value:)``), e.g. converting each to a ``JSONValue`` only when its turn comes.
    public func writeArray<Elements: Sequence>(
        _ elements: Elements, indent: Int = 0, into output: inout String, element write: (Elements.Element, inout String, Int) throws -> Void
    ) rethrows {
        var isEmpty = true
        for element in elements {
            output += isEmpty ? "[" : ","
            isEmpty = false
            newline(indent + 1, into: &output)
            try write(element, &output, indent + 1)
        }
        if isEmpty {
            output += "[]"
            return
        }
        newline(indent, into: &output)
        output += "]"
    }

    private func newline(_ indent: Int, into output: inout String) {
        guard style == .pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Escapes as `JSON.stringify` does: quotes, backslashes and control characters only.
    public static func writeString(_ string: String, into output: inout String) {
        output += "\""
        escapeStringContents(string, into: &output)
        output += "\""
    }

    /// The inside of a JSON string (RFC 8259 §7), without the quotes. With
    /// `escapingLineSeparators`, U+2028 and U+2029 are escaped too, so the text is also safe
    /// inside JavaScript.
    public static func escapeStringContents(_ string: String, escapingLineSeparators: Bool = false, into output: inout String) {
        // Most strings need no escape: copy them whole. (0xE2 leads U+2028 and U+2029 in UTF-8.)
        let needsEscape = string.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingLineSeparators && byte == 0xE2)
        }
        guard needsEscape else {
            output += string
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{2028}" where escapingLineSeparators: output += "\\u2028"
            case "\u{2029}" where escapingLineSeparators: output += "\\u2029"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
    }
}
