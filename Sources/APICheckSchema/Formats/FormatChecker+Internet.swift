// Host names (RFC 1123), IP addresses (RFC 2673 dotted quads, RFC 4291) and e-mail addresses
// (RFC 5321 Mailbox).

extension FormatChecker {
    private static let dot = UInt8(ascii: ".")
    private static let colon = UInt8(ascii: ":")
    private static let hyphen = UInt8(ascii: "-")

    /// Labels of letters, digits and hyphens, separated by dots: each 1–63 characters, neither
    /// starting nor ending with a hyphen, 253 characters in all (RFC 1123 section 2.1, RFC 1034).
    /// A single label (`localhost`) is a host name too. No trailing dot: that is DNS
    /// presentation syntax, not a host name. A label starting `xn--` must be a valid A-label
    /// (RFC 5891 section 4.4: canonical Punycode of a valid U-label), see `isALabel`.
    static func isHostname(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard end > start, end - start <= 253 else { return false }
        var labelStart = start
        var index = start
        while true {
            if index == end || bytes[index] == dot {
                let labelLength = index - labelStart
                guard labelLength >= 1, labelLength <= 63, bytes[labelStart] != hyphen, bytes[index - 1] != hyphen else {
                    return false
                }
                if labelLength >= 4, bytes[labelStart + 2] == hyphen, bytes[labelStart + 3] == hyphen,
                    bytes[labelStart] | 0x20 == UInt8(ascii: "x"), bytes[labelStart + 1] | 0x20 == UInt8(ascii: "n"),
                    !isALabel(bytes, labelStart, index)
                {
                    return false
                }
                if index == end { return true }
                labelStart = index + 1
            } else {
                let byte = bytes[index]
                guard isAlphanumeric(byte) || byte == hyphen else { return false }
            }
            index += 1
        }
    }

    /// A dotted quad `0`–`255` ×4 filling `start..<end`; no leading zeros, since many parsers
    /// read `010` as octal 8.
    static func isIPv4(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        var index = start
        for part in 0..<4 {
            if part > 0 {
                guard index < end, bytes[index] == dot else { return false }
                index += 1
            }
            let partStart = index
            var value = 0
            while index < end, index - partStart < 3, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] &- 0x30)
                index += 1
            }
            let length = index - partStart
            guard length > 0, value <= 255, length == 1 || bytes[partStart] != UInt8(ascii: "0") else { return false }
        }
        return index == end
    }

    /// Any RFC 4291 section 2.2 text form filling `start..<end`: eight groups of 1–4 hex digits,
    /// at most one `::` standing for one or more zero groups, and optionally a dotted quad as the
    /// last 32 bits. No zone index (`%eth0`) and no prefix length (`/64`): neither is an address.
    static func isIPv6(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= 2 else { return false }
        var index = start
        var groups = 0
        var compressed = false
        if bytes[index] == colon {
            guard bytes[index + 1] == colon else { return false }
            compressed = true
            index += 2
            if index == end { return true }
        }
        while true {
            var segmentEnd = index
            var hasDot = false
            while segmentEnd < end, bytes[segmentEnd] != colon {
                if bytes[segmentEnd] == dot { hasDot = true }
                segmentEnd += 1
            }
            if hasDot {
                // An embedded IPv4 address ends the address and counts as two groups.
                guard segmentEnd == end, isIPv4(bytes, index, segmentEnd) else { return false }
                groups += 2
                break
            }
            let length = segmentEnd - index
            guard length >= 1, length <= 4 else { return false }
            for digit in index..<segmentEnd where !isHex(bytes[digit]) { return false }
            groups += 1
            if segmentEnd == end { break }
            guard groups < 8 else { return false }
            if segmentEnd + 1 < end, bytes[segmentEnd + 1] == colon {
                guard !compressed else { return false }
                compressed = true
                index = segmentEnd + 2
                if index == end { break }
            } else {
                index = segmentEnd + 1
                guard index < end else { return false }  // a trailing single colon
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    /// RFC 5321's `Mailbox`: a dot-atom or quoted-string local part of at most 64 octets, `@`,
    /// then a host name or an address literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`).
    ///
    /// `international` (`idn-email`, RFC 6531) also allows non-ASCII in the local part, and an
    /// internationalised host name as the domain.
    static func isEmail(_ bytes: Bytes, international: Bool) -> Bool {
        guard let at = localPartEnd(bytes, international: international), at <= 64 else { return false }
        let domainStart = at + 1
        let end = bytes.count
        guard domainStart < end else { return false }
        guard bytes[domainStart] == UInt8(ascii: "[") else {
            return international ? isIDNHostname(bytes, domainStart, end) : isHostname(bytes, domainStart, end)
        }
        guard bytes[end - 1] == UInt8(ascii: "]") else { return false }
        let literalStart = domainStart + 1
        let literalEnd = end - 1
        if hasIPv6Tag(bytes, literalStart, literalEnd) {
            return isIPv6(bytes, literalStart + 5, literalEnd)
        }
        // RFC 5321's General-address-literal needs a tag registered with IANA; only IPv6 is.
        return isIPv4(bytes, literalStart, literalEnd)
    }

    /// The index of the `@` after a valid local part, or nil.
    private static func localPartEnd(_ bytes: Bytes, international: Bool) -> Int? {
        let end = bytes.count
        guard end > 0 else { return nil }
        var index = 0
        if bytes[0] == UInt8(ascii: "\"") {
            // Quoted-string: qtextSMTP (printable ASCII but `"` and `\`) or a quoted pair.
            index = 1
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    return index + 1 < end && bytes[index + 1] == UInt8(ascii: "@") ? index + 1 : nil
                } else if byte == UInt8(ascii: "\\") {
                    guard index + 1 < end, (32...126).contains(bytes[index + 1]) else { return nil }
                    index += 2
                } else if (32...126).contains(byte) || (international && byte >= 0x80) {
                    index += 1
                } else {
                    return nil
                }
            }
            return nil
        }
        // Dot-string: atoms of atext separated by single dots.
        let atext = Self.atext
        var atomStart = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "@") || byte == dot {
                guard index > atomStart else { return nil }
                if byte == UInt8(ascii: "@") { return index }
                atomStart = index + 1
            } else if !(atext.contains(byte) || (international && byte >= 0x80)) {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// `IPv6:`, matched case-insensitively as ABNF strings are.
    private static func hasIPv6Tag(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard end - start > 5 else { return false }
        return bytes[start] | 0x20 == UInt8(ascii: "i") && bytes[start + 1] | 0x20 == UInt8(ascii: "p")
            && bytes[start + 2] | 0x20 == UInt8(ascii: "v") && bytes[start + 3] == UInt8(ascii: "6")
            && bytes[start + 4] == colon
    }

    private static let atext = ASCIISet(ASCIISet.letters, ASCIISet.digits, "!#$%&'*+-/=?^_`{|}~")
}
