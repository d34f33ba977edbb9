/// RFC 3986 character classes and percent-encoding, shared by URI templates and URL resolution.
package enum URICharacters {
    /// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// gen-delims `:/?#[]@` and sub-delims `!$&'()*+,;=` (RFC 3986 §2.2).
    package static func isReserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// `A-Z / a-z`.
    package static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// `0-9`.
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `0-9 / A-F / a-f`.
    package static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// The value of a hex digit (0 for anything else).
    package static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: 0
        }
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `%XX` with upper-case hex digits (RFC 3986 §2.1 prefers them).
    package static func appendPercentEncoded(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(upperHex[Int(byte >> 4)])
        output.append(upperHex[Int(byte & 0x0F)])
    }

    /// Whether `bytes[index...]` starts with a percent-encoded triplet.
    package static func isPercentTriplet<C: RandomAccessCollection>(_ bytes: C, at index: C.Index) -> Bool
    where C.Element == UInt8 {
        guard bytes[index] == UInt8(ascii: "%") else { return false }
        let first = bytes.index(after: index)
        guard first < bytes.endIndex else { return false }
        let second = bytes.index(after: first)
        guard second < bytes.endIndex else { return false }
        return isHexDigit(bytes[first]) && isHexDigit(bytes[second])
    }

    /// Appends the UTF-8 of `text`, percent-encoding every byte outside the unreserved set, or,
    /// with `allowReserved`, outside unreserved + reserved, keeping existing `%XX` triplets
    /// (the U and U+R sets of RFC 6570 §3.2.1).
    package static func encode(_ text: some StringProtocol, allowReserved: Bool, into output: inout [UInt8]) {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isUnreserved(byte) || (allowReserved && isReserved(byte)) {
                output.append(byte)
            } else if allowReserved && isPercentTriplet(bytes, at: index) {
                output.append(contentsOf: bytes[index..<(index + 3)])
                index += 3
                continue
            } else {
                appendPercentEncoded(byte, to: &output)
            }
            index += 1
        }
    }
}
