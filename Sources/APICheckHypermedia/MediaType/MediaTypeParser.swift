import APICheckModel

/// RFC 9110 §8.3.1 `media-type` syntax, with problems located by byte offset.
enum MediaTypeParser {
    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return URICharacters.isAlpha(byte) || URICharacters.isDigit(byte)
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func parse(_ text: String) throws(MediaTypeProblem) -> MediaType {
        let bytes = Array(text.utf8)
        guard bytes.count <= MediaType.maximumLength else {
            throw MediaTypeProblem(
                kind: .tooLong, text: String(text.prefix(64)) + "…",
                message: "the media type is \(bytes.count) bytes long, over the limit of \(MediaType.maximumLength)")
        }
        var end = bytes.count
        while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        var index = 0
        while index < end, isSpace(bytes[index]) { index += 1 }
        guard index < end else {
            throw MediaTypeProblem(kind: .empty, text: text, message: "the media type is empty")
        }

        func problem(_ kind: MediaTypeProblem.Kind, _ message: String, at offset: Int?, suggestion: String? = nil) -> MediaTypeProblem {
            MediaTypeProblem(kind: kind, text: text, message: message, offset: offset, suggestion: suggestion)
        }
        func token(from start: Int) -> Int {
            var cursor = start
            while cursor < end, isTokenByte(bytes[cursor]) { cursor += 1 }
            return cursor
        }
        func unexpected(at offset: Int, after what: String) -> MediaTypeProblem {
            problem(
                .invalidCharacter,
                "'\(text)' has \(describe(bytes[offset])) at offset \(offset) \(what)", at: offset)
        }

        let typeStart = index
        index = token(from: index)
        let type = String(decoding: bytes[typeStart..<index], as: UTF8.self)
        if index == end || bytes[index] == UInt8(ascii: ";") {
            if MediaTypeRegistry.topLevelTypes.contains(type.lowercased()) {
                throw problem(.missingSubtype, "'\(text)' names the top-level type '\(type)' but no subtype", at: index)
            }
            let rest = String(decoding: bytes[typeStart..<end], as: UTF8.self)
            let suggestion = MediaTypeRegistry.guessTopLevelType(forSubtype: type.lowercased()) + "/" + rest
            throw problem(
                .missingTopLevelType, "'\(text)' lacks a top-level type: write '\(suggestion)'", at: typeStart,
                suggestion: suggestion)
        }
        guard bytes[index] == UInt8(ascii: "/") else {
            throw unexpected(at: index, after: index == typeStart ? "where the type should start" : "in the type")
        }
        if index == typeStart {
            let rest = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            let subtype = String(decoding: bytes[(index + 1)..<token(from: index + 1)], as: UTF8.self)
            let suggestion = MediaTypeRegistry.guessTopLevelType(forSubtype: subtype.lowercased()) + "/" + rest
            throw problem(
                .missingTopLevelType, "'\(text)' has an empty top-level type: write '\(suggestion)'", at: typeStart,
                suggestion: suggestion)
        }
        index += 1
        let subtypeStart = index
        index = token(from: index)
        guard index > subtypeStart else {
            if index < end && bytes[index] != UInt8(ascii: ";") && !isSpace(bytes[index]) {
                throw unexpected(at: index, after: "where the subtype should start")
            }
            throw problem(.emptySubtype, "'\(text)' has an empty subtype after '\(type)/'", at: index)
        }
        let subtype = String(decoding: bytes[subtypeStart..<index], as: UTF8.self)

        var parameters: [MediaType.Parameter] = []
        var unquotedValueEnd: Int?  // where the last unquoted value ended, to explain a stray character
        while true {
            if let valueEnd = unquotedValueEnd, valueEnd < end, !isSpace(bytes[valueEnd]), bytes[valueEnd] != UInt8(ascii: ";"),
                let name = parameters.last?.name
            {
                throw problem(
                    .invalidParameter,
                    "'\(text)' has \(describe(bytes[valueEnd])) at offset \(valueEnd) in the value of '\(name)': quote values that contain it",
                    at: valueEnd)
            }
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end else { break }
            guard bytes[index] == UInt8(ascii: ";") else {
                throw unexpected(at: index, after: parameters.isEmpty ? "after the subtype (parameters start with ';')" : "after a parameter")
            }
            unquotedValueEnd = nil
            index += 1
            while index < end, isSpace(bytes[index]) { index += 1 }
            if index == end || bytes[index] == UInt8(ascii: ";") { continue }  // empty parameter
            let nameStart = index
            index = token(from: index)
            guard index > nameStart else { throw unexpected(at: index, after: "where a parameter name should start") }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index < end, bytes[index] == UInt8(ascii: "=") else {
                throw problem(.invalidParameter, "the parameter '\(name)' in '\(text)' needs '=' and a value", at: index)
            }
            index += 1
            var value: [UInt8] = []
            if index < end, bytes[index] == UInt8(ascii: "\"") {
                let quoteStart = index
                index += 1
                var closed = false
                while index < end {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        closed = true
                        index += 1
                        break
                    }
                    // RFC 9110 §5.6.4: a quoted-pair escapes HTAB, SP, VCHAR or obs-text, never a control.
                    if byte == UInt8(ascii: "\\"), index + 1 < end { index += 1 }
                    let character = bytes[index]
                    guard character == 0x09 || (character >= 0x20 && character != 0x7F) else {
                        throw problem(.invalidParameter, "the parameter '\(name)' in '\(text)' has a control character at offset \(index)", at: index)
                    }
                    value.append(character)
                    index += 1
                }
                guard closed else {
                    throw problem(.invalidParameter, "the quoted value of '\(name)' in '\(text)' is never closed", at: quoteStart)
                }
            } else {
                let valueStart = index
                index = token(from: index)
                guard index > valueStart else {
                    throw problem(.invalidParameter, "the parameter '\(name)' in '\(text)' has no value", at: index)
                }
                value = Array(bytes[valueStart..<index])
                unquotedValueEnd = index
            }
            parameters.append(MediaType.Parameter(name: name, value: String(decoding: value, as: UTF8.self)))
        }
        return MediaType(type: type, subtype: subtype, parameters: parameters)
    }

    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20: return "a space"
        case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "the byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}
