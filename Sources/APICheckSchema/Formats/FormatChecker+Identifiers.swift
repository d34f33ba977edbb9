// UUIDs (RFC 4122) and JSON pointers (RFC 6901, draft-bhutton-relative-json-pointer-00).

extension FormatChecker {
    /// `8-4-4-4-12` hex digits in either case. Version and variant are not checked: RFC 9562 adds
    /// versions, and the nil UUID is valid.
    static func isUUID(_ bytes: Bytes) -> Bool {
        guard bytes.count == 36 else { return false }
        for index in 0..<36 {
            switch index {
            case 8, 13, 18, 23: guard bytes[index] == UInt8(ascii: "-") else { return false }
            default: guard isHex(bytes[index]) else { return false }
            }
        }
        return true
    }

    /// Empty, or `/`-prefixed reference tokens in which `~` only starts `~0` or `~1`.
    static func isJSONPointer(_ bytes: Bytes, from start: Int) -> Bool {
        let end = bytes.count
        guard start < end else { return true }
        guard bytes[start] == UInt8(ascii: "/") else { return false }
        var index = start + 1
        while index < end {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < end, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1") else {
                    return false
                }
                index += 2
            } else {
                index += 1
            }
        }
        return true
    }

    /// A non-negative integer without leading zeros, then `#` or a JSON pointer; 2020-12's
    /// relative pointers may also shift an array index (`0+1/x`, `1-2`), which earlier drafts'
    /// grammar lacked but no earlier instance can be confused by.
    static func isRelativeJSONPointer(_ bytes: Bytes) -> Bool {
        let end = bytes.count
        guard end > 0, isDigit(bytes[0]) else { return false }
        var index = 1
        if bytes[0] != UInt8(ascii: "0") {
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: "#") { return index + 1 == end }
        if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < end, isDigit(bytes[index]), bytes[index] != UInt8(ascii: "0") else { return false }
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        return isJSONPointer(bytes, from: index)
    }
}
