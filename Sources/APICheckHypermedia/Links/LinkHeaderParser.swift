/// An RFC 8288 `Link` header field value parser (Appendix B.2, B.3): link values separated by
/// commas, each `<target>` followed by `; name=value` parameters, where values are tokens or
/// quoted strings that may hold commas and semicolons.
///
/// A malformed link value becomes an error item and parsing resumes after the next comma that
/// is outside quotes and angle brackets, so one bad value never hides the others. Unquoted
/// values are read up to whitespace, `;` or `,` (a little more than RFC tokens, as servers write
/// `anchor=/x` unquoted).
package enum LinkHeaderParser {
    /// One parsed link value.
    package struct Value: Sendable, Hashable {
        /// The target reference between `<` and `>`, as written.
        package var target: String
        /// `(name, value)` in order; names lower-cased; `name*` (RFC 8187) parameters dropped.
        package var parameters: [Parameter]

        /// One `name=value` parameter (value unquoted; empty when the parameter has no value).
        package struct Parameter: Sendable, Hashable {
            /// Lower-cased.
            package var name: String
            /// Unquoted.
            package var value: String
        }

        /// The first value of `name` (later occurrences are ignored, RFC 8288 §3).
        package func parameter(_ name: String) -> String? {
            parameters.first { $0.name == name }?.value
        }
    }

    /// A link value or why one could not be read, in field order.
    package enum Item: Sendable, Hashable {
        case link(Value)
        case malformed(String)
    }

    /// The link values of one `Link` field value, in order.
    package static func parse(_ field: String) -> [Item] {
        let bytes = Array(field.utf8)
        var items: [Item] = []
        var index = 0

        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }
        func skipToNextValue() {
            var inQuotes = false
            var inBrackets = false
            while index < bytes.count {
                let byte = bytes[index]
                if inQuotes {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inQuotes = false }
                } else if inBrackets {
                    if byte == UInt8(ascii: ">") { inBrackets = false }
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = true
                } else if byte == UInt8(ascii: "<") {
                    inBrackets = true
                } else if byte == UInt8(ascii: ",") {
                    return
                }
                index += 1
            }
        }
        func describe(_ offset: Int) -> String {
            offset < bytes.count ? "\(MediaTypeParser.describe(bytes[offset])) at offset \(offset)" : "the end of the field"
        }

        while true {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == UInt8(ascii: ",") {
                index += 1
            }
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: "<") else {
                items.append(.malformed("expected '<' to start a link, found \(describe(index))"))
                skipToNextValue()
                continue
            }
            let targetStart = index + 1
            guard let close = bytes[targetStart...].firstIndex(of: UInt8(ascii: ">")) else {
                items.append(.malformed("the '<' at offset \(index) is never closed with '>'"))
                break
            }
            let target = String(decoding: bytes[targetStart..<close], as: UTF8.self)
            index = close + 1
            var parameters: [Value.Parameter] = []
            var problem: String?
            while problem == nil {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { break }
                index += 1
                skipSpace()
                let nameStart = index
                while index < bytes.count, MediaTypeParser.isTokenByte(bytes[index]) { index += 1 }
                guard index > nameStart else {
                    if index == bytes.count || bytes[index] == UInt8(ascii: ",") { break }  // a trailing ';'
                    problem = "expected a parameter name, found \(describe(index))"
                    break
                }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
                skipSpace()
                var value = ""
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        let quoteStart = index
                        index += 1
                        var buffer: [UInt8] = []
                        var closed = false
                        while index < bytes.count {
                            let byte = bytes[index]
                            if byte == UInt8(ascii: "\"") {
                                closed = true
                                index += 1
                                break
                            }
                            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                                buffer.append(bytes[index + 1])
                                index += 2
                                continue
                            }
                            buffer.append(byte)
                            index += 1
                        }
                        guard closed else {
                            problem = "the quoted value of '\(name.excerpt())' at offset \(quoteStart) is never closed"
                            break
                        }
                        value = String(decoding: buffer, as: UTF8.self)
                    } else {
                        let valueStart = index
                        while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x09, bytes[index] != UInt8(ascii: ";"),
                            bytes[index] != UInt8(ascii: ",")
                        {
                            index += 1
                        }
                        value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    }
                }
                if !name.hasSuffix("*") { parameters.append(Value.Parameter(name: name, value: value)) }
            }
            if problem == nil {
                skipSpace()
                if index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                    problem = "expected ';' or ',' after the link to <\(target.excerpt(200))>, found \(describe(index))"
                }
            }
            if let problem {
                items.append(.malformed(problem))
                skipToNextValue()
            } else {
                items.append(.link(Value(target: target, parameters: parameters)))
            }
        }
        return items
    }
}
