// URIs and URI references (RFC 3986), IRIs (RFC 3987, leniently) and URI templates (RFC 6570).

extension FormatChecker {
    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
    private static let colon = UInt8(ascii: ":")
    private static let percent = UInt8(ascii: "%")

    private static let unreserved = ASCIISet(ASCIISet.letters, ASCIISet.digits, "-._~")
    private static let subDelims = "!$&'()*+,;="
    private static let schemeCharacters = ASCIISet(ASCIISet.letters, ASCIISet.digits, "+-.")
    private static let userinfoCharacters = ASCIISet(ASCIISet.letters, ASCIISet.digits, "-._~", subDelims, ":")
    private static let regNameCharacters = ASCIISet(ASCIISet.letters, ASCIISet.digits, "-._~", subDelims)
    /// `pchar` and `/`: a path's characters.
    private static let pathCharacters = ASCIISet(ASCIISet.letters, ASCIISet.digits, "-._~", subDelims, ":@/")
    /// `pchar`, `/` and `?`: a query's or a fragment's characters.
    private static let queryCharacters = ASCIISet(ASCIISet.letters, ASCIISet.digits, "-._~", subDelims, ":@/?")

    /// RFC 3986 `URI` (`requiresScheme`) or `URI-reference`. With `international`, RFC 3987's
    /// `IRI`/`IRI-reference`: any non-ASCII character is allowed wherever unreserved ones are
    /// (RFC 3987 narrows this to `ucschar`/`iprivate` ranges; the difference is a few blocks of
    /// non-characters and private-use code points, not worth tables here).
    static func isURIReference(_ bytes: Bytes, requiresScheme: Bool, international: Bool) -> Bool {
        let end = bytes.count
        var index = 0
        var hasScheme = false
        if end > 0, isAlpha(bytes[0]) {
            let schemeCharacters = Self.schemeCharacters
            var schemeEnd = 1
            while schemeEnd < end, schemeCharacters.contains(bytes[schemeEnd]) { schemeEnd += 1 }
            if schemeEnd < end, bytes[schemeEnd] == colon {
                hasScheme = true
                index = schemeEnd + 1
            }
        }
        if requiresScheme, !hasScheme { return false }

        if index + 1 < end, bytes[index] == slash, bytes[index + 1] == slash {
            index += 2
            var authorityEnd = index
            while authorityEnd < end, bytes[authorityEnd] != slash, bytes[authorityEnd] != question,
                bytes[authorityEnd] != hash
            {
                authorityEnd += 1
            }
            guard isAuthority(bytes, index, authorityEnd, international: international) else { return false }
            index = authorityEnd
        } else if !hasScheme {
            // path-noscheme: a colon in the first segment would make it read as a scheme.
            var segmentIndex = index
            while segmentIndex < end, bytes[segmentIndex] != slash, bytes[segmentIndex] != question,
                bytes[segmentIndex] != hash
            {
                if bytes[segmentIndex] == colon { return false }
                segmentIndex += 1
            }
        }
        guard let pathEnd = scan(bytes, index, end, pathCharacters, international: international) else { return false }
        index = pathEnd
        if index < end, bytes[index] == question {
            guard let queryEnd = scan(bytes, index + 1, end, queryCharacters, international: international) else {
                return false
            }
            index = queryEnd
        }
        if index < end, bytes[index] == hash {
            guard let fragmentEnd = scan(bytes, index + 1, end, queryCharacters, international: international) else {
                return false
            }
            index = fragmentEnd
        }
        return index == end
    }

    /// `[ userinfo "@" ] host [ ":" port ]` filling `start..<end`; the host may be empty
    /// (`file:///etc/hosts`).
    private static func isAuthority(_ bytes: Bytes, _ start: Int, _ end: Int, international: Bool) -> Bool {
        var hostStart = start
        var at = start
        while at < end, bytes[at] != UInt8(ascii: "@") { at += 1 }
        if at < end {
            guard scan(bytes, start, at, userinfoCharacters, international: international) == at else { return false }
            hostStart = at + 1
        }
        let hostEnd: Int
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            var closing = hostStart + 1
            while closing < end, bytes[closing] != UInt8(ascii: "]") { closing += 1 }
            guard closing < end, isIPLiteral(bytes, hostStart + 1, closing) else { return false }
            hostEnd = closing + 1
        } else {
            guard let regNameEnd = scan(bytes, hostStart, end, regNameCharacters, international: international) else {
                return false
            }
            hostEnd = regNameEnd
        }
        if hostEnd == end { return true }
        guard bytes[hostEnd] == colon else { return false }
        for portIndex in (hostEnd + 1)..<end where !isDigit(bytes[portIndex]) { return false }
        return true
    }

    /// The inside of `[…]`: an IPv6 address or `IPvFuture` (`v` hex `.` characters).
    private static func isIPLiteral(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        guard bytes[start] | 0x20 == UInt8(ascii: "v") else { return isIPv6(bytes, start, end) }
        var index = start + 1
        while index < end, isHex(bytes[index]) { index += 1 }
        guard index > start + 1, index < end, bytes[index] == UInt8(ascii: ".") else { return false }
        index += 1
        guard index < end else { return false }
        for futureIndex in index..<end where !userinfoCharacters.contains(bytes[futureIndex]) { return false }
        return true
    }

    /// The index of the first byte from `start` that is neither in `allowed`, nor part of a
    /// percent-escape, nor (with `international`) non-ASCII; nil on a malformed `%` escape.
    private static func scan(_ bytes: Bytes, _ start: Int, _ end: Int, _ allowed: ASCIISet, international: Bool) -> Int? {
        var index = start
        while index < end {
            let byte = bytes[index]
            if allowed.contains(byte) || (international && byte >= 0x80) {
                index += 1
            } else if byte == percent {
                guard isPercentEscape(bytes, index, end) else { return nil }
                index += 3
            } else {
                break
            }
        }
        return index
    }

    // MARK: - URI templates

    /// RFC 6570 `literals` (minus percent-escapes, handled apart): any character but controls,
    /// space, `"`, `%`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`. The RFC's ABNF also leaves out
    /// `'`, against its own prose ("any Unicode character except CTL, SP, DQUOTE, …"), which does
    /// not; the test suite's newer cases accept it, and so do we.
    private static let templateLiterals = ASCIISet(
        ASCIISet.letters, ASCIISet.digits, "!#$&'()*+,-./:;=?@[]_~")
    /// Levels 2 and 3 operators and the ones RFC 6570 reserves (`=,!@|`), which its grammar accepts.
    private static let templateOperators = ASCIISet("+#./;?&=,!@|")

    /// RFC 6570 section 2 syntax: literals and `{[operator]varspec,…}` expressions, where a
    /// varspec is a name (letters, digits, `_`, escapes, inner dots) with `:1`–`:9999` or `*`.
    static func isURITemplate(_ bytes: Bytes) -> Bool {
        let end = bytes.count
        let templateLiterals = Self.templateLiterals
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                guard let expressionEnd = templateExpressionEnd(bytes, index + 1) else { return false }
                index = expressionEnd
            } else if byte == percent {
                guard isPercentEscape(bytes, index, end) else { return false }
                index += 3
            } else if templateLiterals.contains(byte) || byte >= 0x80 {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    /// The index after the `}` closing an expression whose content starts at `start`, or nil.
    private static func templateExpressionEnd(_ bytes: Bytes, _ start: Int) -> Int? {
        let end = bytes.count
        var index = start
        guard index < end else { return nil }
        if templateOperators.contains(bytes[index]) { index += 1 }
        while true {
            guard let nameEnd = variableNameEnd(bytes, index) else { return nil }
            index = nameEnd
            guard index < end else { return nil }
            if bytes[index] == colon {
                // max-length: a positive integer below 10000, without leading zeros.
                index += 1
                guard index < end, bytes[index] != UInt8(ascii: "0"), isDigit(bytes[index]) else { return nil }
                let digitsStart = index
                while index < end, index - digitsStart < 4, isDigit(bytes[index]) { index += 1 }
            } else if bytes[index] == UInt8(ascii: "*") {
                index += 1
            }
            guard index < end else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): return index + 1
            default: return nil
            }
        }
    }

    /// `varchar *( ["."] varchar )`, varchar being a letter, digit, `_` or percent-escape.
    private static func variableNameEnd(_ bytes: Bytes, _ start: Int) -> Int? {
        let end = bytes.count
        var index = start
        var needsCharacter = true
        while index < end {
            let byte = bytes[index]
            if isAlphanumeric(byte) || byte == UInt8(ascii: "_") {
                index += 1
            } else if byte == percent {
                guard isPercentEscape(bytes, index, end) else { return nil }
                index += 3
            } else if byte == UInt8(ascii: "."), !needsCharacter {
                index += 1
                needsCharacter = true
                continue
            } else {
                break
            }
            needsCharacter = false
        }
        return needsCharacter ? nil : index
    }
}
