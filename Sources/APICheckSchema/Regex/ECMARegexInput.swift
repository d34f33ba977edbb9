/// The subject string's UTF-8 bytes, decoded to code points on the fly: no `[Unicode.Scalar]` is
/// built per match, and positions are byte offsets, which backreferences compare directly.
struct ECMARegexInput {
    let bytes: UnsafeBufferPointer<UInt8>

    /// Stands for "no code point": before the start and after the end of the input. Not a word
    /// character, not a line terminator, in no set but a negated one.
    static let none: UInt32 = 0xFFFF_FFFF

    var count: Int { bytes.count }

    /// Runs `body` over the string's contiguous UTF-8 (copying only a bridged, non-native string).
    static func withInput<Result>(_ string: String, _ body: (ECMARegexInput) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable({ body(ECMARegexInput(bytes: $0)) }) {
            return result
        }
        var copy = string
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { body(ECMARegexInput(bytes: $0)) }!
    }

    /// The code point starting at byte `index` and its length in bytes, or `none` at the end.
    /// The input is valid UTF-8 (a Swift string), so no validation is needed.
    @inline(__always)
    func scalar(at index: Int) -> (value: UInt32, length: Int) {
        guard index < bytes.count else { return (Self.none, 0) }
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 {
            return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1]) & 0x3F, 2)
        }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | (UInt32(bytes[index + 1]) & 0x3F) << 6 | UInt32(bytes[index + 2]) & 0x3F, 3)
        }
        let value =
            (lead & 0x07) << 18 | (UInt32(bytes[index + 1]) & 0x3F) << 12 | (UInt32(bytes[index + 2]) & 0x3F) << 6
            | UInt32(bytes[index + 3]) & 0x3F
        return (value, 4)
    }

    /// The code point ending at byte `index` and its length, or `none` at the start.
    @inline(__always)
    func scalar(before index: Int) -> (value: UInt32, length: Int) {
        guard index > 0 else { return (Self.none, 0) }
        var start = index - 1
        while bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return (scalar(at: start).value, index - start)
    }

    /// Whether `length` bytes at `first` equal those at `second` (both in range).
    func bytesEqual(_ first: Int, _ second: Int, length: Int) -> Bool {
        var offset = 0
        while offset < length {
            if bytes[first + offset] != bytes[second + offset] { return false }
            offset += 1
        }
        return true
    }
}
