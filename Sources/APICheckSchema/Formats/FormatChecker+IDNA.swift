// IDNA 2008 labels: A-labels inside `hostname` (RFC 5890 section 2.3.2.1, RFC 5891 section 4.4)
// and whole `idn-hostname`s. Unicode properties come from the standard library
// (`Unicode.Scalar.Properties`), so no tables ship here; what the library lacks (scripts,
// joining types, bidi classes) is approximated by code-point blocks, see `bidiClass`.

extension FormatChecker {
    /// The most code points a label can have: its A-label (`xn--` and at least one Punycode
    /// character per code point) must fit in 63 octets.
    private static let labelCapacity = 63

    /// `hostname` labels starting `xn--` must be real A-labels: canonical Punycode that decodes
    /// to a valid U-label with at least one non-ASCII character.
    static func isALabel(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: labelCapacity) { buffer in
            guard let count = decodePunycode(bytes, start + 4, end, into: buffer) else { return false }
            let label = UnsafeBufferPointer(rebasing: buffer[..<count])
            return label.contains { $0 >= 0x80 } && unicodeLabelSummary(label) != nil
                && isCanonicalPunycode(label, bytes, start + 4, end)
        }
    }

    /// An internationalised host name (RFC 5890): labels separated by `.` or its ideographic
    /// and full-width forms, each an LDH label, an A-label, or a U-label of IDNA 2008 `PVALID`
    /// code points and contextual ones in their contexts (RFC 5892 appendix A), meeting the
    /// bidi rule (RFC 5893) when any label is right-to-left; at most 253 octets as A-labels.
    ///
    /// Not checked: that U-labels are in NFC (the standard library cannot normalise), and
    /// exact scripts, joining types and bidi classes, which are read from Unicode blocks.
    static func isIDNHostname(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        var labelStart = start
        var index = start
        var totalLength = 0
        var anyRightToLeft = false
        var allBidiValid = true
        while true {
            let separatorLength = index == end ? 0 : idnSeparatorLength(bytes, index, end)
            if index < end, separatorLength == 0 {
                index += 1
                continue
            }
            guard let label = checkIDNLabel(bytes, labelStart, index) else { return false }
            totalLength += label.asciiLength + (index == end ? 0 : 1)
            anyRightToLeft = anyRightToLeft || label.hasRightToLeft
            allBidiValid = allBidiValid && label.meetsBidiRule
            if index == end { break }
            index += separatorLength
            labelStart = index
        }
        return totalLength <= 253 && (!anyRightToLeft || allBidiValid)
    }

    /// The UTF-8 length of a label separator at `index` (`.`, U+3002, U+FF0E, U+FF61), or 0.
    private static func idnSeparatorLength(_ bytes: Bytes, _ index: Int, _ end: Int) -> Int {
        let byte = bytes[index]
        if byte == UInt8(ascii: ".") { return 1 }
        guard byte == 0xE3 || byte == 0xEF, index + 2 < end else { return 0 }
        switch (byte, bytes[index + 1], bytes[index + 2]) {
        case (0xE3, 0x80, 0x82), (0xEF, 0xBC, 0x8E), (0xEF, 0xBD, 0xA1): return 3
        default: return 0
        }
    }

    private struct LabelSummary {
        var asciiLength: Int
        var hasRightToLeft = false
        var meetsBidiRule = true
    }

    private static func checkIDNLabel(_ bytes: Bytes, _ start: Int, _ end: Int) -> LabelSummary? {
        guard end > start else { return nil }
        var isASCII = true
        for index in start..<end where bytes[index] >= 0x80 { isASCII = false; break }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: labelCapacity) { buffer in
            if isASCII {
                guard isHostname(bytes, start, end) else { return nil }
                guard end - start >= 4, bytes[start + 2] == UInt8(ascii: "-"), bytes[start + 3] == UInt8(ascii: "-") else {
                    // In a bidi domain name an LDH label must start with a letter (rule 1);
                    // it ends in a letter or digit, as rule 6 asks, anyway.
                    return LabelSummary(asciiLength: end - start, meetsBidiRule: isAlpha(bytes[start]))
                }
                // `--` in the third and fourth places: reserved, unless an A-label.
                guard bytes[start] | 0x20 == UInt8(ascii: "x"), bytes[start + 1] | 0x20 == UInt8(ascii: "n"),
                    let count = decodePunycode(bytes, start + 4, end, into: buffer)
                else { return nil }
                let label = UnsafeBufferPointer(rebasing: buffer[..<count])
                guard label.contains(where: { $0 >= 0x80 }), isCanonicalPunycode(label, bytes, start + 4, end),
                    var summary = unicodeLabelSummary(label)
                else { return nil }
                summary.asciiLength = end - start
                return summary
            }
            var count = 0
            var index = start
            while index < end {
                guard count < labelCapacity else { return nil }
                let (scalar, length) = decodeUTF8(bytes, index)
                buffer[count] = scalar
                count += 1
                index += length
            }
            let label = UnsafeBufferPointer(rebasing: buffer[..<count])
            guard var summary = unicodeLabelSummary(label), let encoded = punycodeLength(label), encoded + 4 <= 63 else {
                return nil
            }
            summary.asciiLength = encoded + 4
            return summary
        }
    }

    /// One scalar of valid UTF-8 (Swift strings always are) and its length in bytes.
    private static func decodeUTF8(_ bytes: Bytes, _ index: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        let value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
            | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
        return (value, 4)
    }

    // MARK: - U-label rules

    /// IDNA 2008's checks on a label's code points (RFC 5891 section 5.4, RFC 5892, RFC 5893);
    /// nil when invalid, else whether it is right-to-left and meets the bidi rule.
    private static func unicodeLabelSummary(_ label: UnsafeBufferPointer<UInt32>) -> LabelSummary? {
        let count = label.count
        let hyphen = UInt32(UInt8(ascii: "-"))
        guard count > 0, label[0] != hyphen, label[count - 1] != hyphen,
            count < 4 || label[2] != hyphen || label[3] != hyphen,
            let first = Unicode.Scalar(label[0]), !isMark(first)
        else { return nil }
        var hasArabicIndic = false
        var hasExtendedArabicIndic = false
        for index in 0..<count {
            let codePoint = label[index]
            switch codePoint {
            case 0x660...0x669: hasArabicIndic = true
            case 0x6F0...0x6F9: hasExtendedArabicIndic = true
            default: break
            }
            guard isAllowedInLabel(label, at: index) else { return nil }
        }
        guard !(hasArabicIndic && hasExtendedArabicIndic) else { return nil }
        return bidiSummary(label)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// RFC 5892's derivation (exceptions, then unassigned, LDH, join controls, unstable,
    /// ignorable properties and blocks, old Hangul jamo, letters and digits) and, for
    /// `CONTEXTJ`/`CONTEXTO` code points, appendix A's rule in the label.
    private static func isAllowedInLabel(_ label: UnsafeBufferPointer<UInt32>, at index: Int) -> Bool {
        let codePoint = label[index]
        let before: UInt32? = index > 0 ? label[index - 1] : nil
        let after: UInt32? = index + 1 < label.count ? label[index + 1] : nil
        switch codePoint {
        case 0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007: return true
        case 0x640, 0x7FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B: return false
        case 0xB7: return before == 0x6C && after == 0x6C  // MIDDLE DOT: only in Catalan "l·l"
        case 0x375: return after.map(isGreek) ?? false  // GREEK KERAIA
        case 0x5F3, 0x5F4: return before.map(isHebrew) ?? false  // GERESH, GERSHAYIM
        case 0x30FB:  // KATAKANA MIDDLE DOT: with some Hiragana, Katakana or Han in the label
            return label.contains { $0 != 0x30FB && isHiraganaKatakanaOrHan($0) }
        case 0x660...0x669, 0x6F0...0x6F9: return true  // their mixing is checked by the caller
        case 0x200D: return before.map(isVirama) ?? false  // ZERO WIDTH JOINER
        case 0x200C:  // ZERO WIDTH NON-JOINER: after a virama, or between joining letters
            if before.map(isVirama) ?? false { return true }
            return isJoiningNonJoiner(label, at: index)
        case 0x30...0x39, 0x61...0x7A, 0x2D: return true
        case 0...0x7F: return false
        case 0x20D0...0x20FF, 0x1D100...0x1D24F: return false  // symbol marks, musical notation
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return false  // old Hangul jamo
        default: break
        }
        guard let scalar = Unicode.Scalar(codePoint) else { return false }
        let properties = scalar.properties
        let category = properties.generalCategory
        switch category {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber: break
        default: return false  // unassigned, upper case, symbols, punctuation, spaces, noncharacters
        }
        // Unstable under NFKC case folding (compatibility and case variants): DISALLOWED. So are
        // default-ignorables, which among these categories are marks (variation selectors, CGJ)
        // or already unstable (Hangul fillers). Each lookup costs ~0.2 µs, hence as few as this.
        if properties.changesWhenNFKCCaseFolded { return false }
        return category != .nonspacingMark || !properties.isDefaultIgnorableCodePoint
    }

    private static func isVirama(_ codePoint: UInt32) -> Bool {
        Unicode.Scalar(codePoint)?.properties.canonicalCombiningClass.rawValue == 9
    }

    private static func isGreek(_ codePoint: UInt32) -> Bool {
        (0x370...0x3FF).contains(codePoint) || (0x1F00...0x1FFF).contains(codePoint)
    }

    private static func isHebrew(_ codePoint: UInt32) -> Bool {
        (0x591...0x5F4).contains(codePoint) || (0xFB1D...0xFB4F).contains(codePoint)
    }

    private static func isHiraganaKatakanaOrHan(_ codePoint: UInt32) -> Bool {
        switch codePoint {
        case 0x3041...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x31F0...0x31FF, 0x32D0...0x32FE, 0x3300...0x3357,
            0xFF66...0xFF6F, 0xFF71...0xFF9D, 0x1B000...0x1B16F:
            return true
        default:
            return Unicode.Scalar(codePoint)?.properties.isIdeographic ?? false
        }
    }

    /// RFC 5892's `(L|D) T* ZWNJ T* (R|D)`, with joining letters read as the letters of the
    /// cursive scripts' blocks (Arabic, Syriac, N'Ko, Mandaic, Mongolian) and transparent ones as
    /// marks and format characters: the standard library has no Joining_Type.
    private static func isJoiningNonJoiner(_ label: UnsafeBufferPointer<UInt32>, at index: Int) -> Bool {
        func isTransparent(_ codePoint: UInt32) -> Bool {
            guard let scalar = Unicode.Scalar(codePoint) else { return false }
            return isMark(scalar) || scalar.properties.generalCategory == .format
        }
        func isJoining(_ codePoint: UInt32) -> Bool {
            switch codePoint {
            case 0x620...0x64A, 0x66E...0x6D3, 0x6D5, 0x6EE...0x6EF, 0x6FA...0x6FF, 0x710...0x74F, 0x750...0x77F,
                0x7CA...0x7EA, 0x840...0x858, 0x860...0x86A, 0x8A0...0x8C9, 0x1820...0x1878, 0x1887...0x18AA:
                true
            default: false
            }
        }
        var left = index - 1
        while left >= 0, isTransparent(label[left]) { left -= 1 }
        var right = index + 1
        while right < label.count, isTransparent(label[right]) { right += 1 }
        return left >= 0 && right < label.count && isJoining(label[left]) && isJoining(label[right])
    }
}

// MARK: - The bidi rule (RFC 5893 section 2)

extension FormatChecker {
    private enum BidiClass { case leftToRight, rightToLeft, arabicLetter, arabicNumber, europeanNumber, nonspacingMark, other }

    /// The bidi class of a code point that passed `isAllowedInLabel` (letters, marks, digits
    /// and `-`), read from blocks: the standard library has no Bidi_Class.
    private static func bidiClass(_ codePoint: UInt32) -> BidiClass {
        switch codePoint {
        case 0x30...0x39, 0x6F0...0x6F9: return .europeanNumber
        case 0x2D, 0x200C, 0x200D: return .other  // ES; the joiners are BN
        case 0x600...0x605, 0x660...0x669, 0x66B...0x66C, 0x6DD, 0x890...0x891, 0x8E2, 0x10E60...0x10E7E:
            return .arabicNumber
        default: break
        }
        // No combining marks before U+0300: Latin letters need no property lookup.
        if codePoint >= 0x300, let scalar = Unicode.Scalar(codePoint), isMark(scalar),
            scalar.properties.generalCategory != .spacingMark
        {
            return .nonspacingMark
        }
        switch codePoint {
        case 0x590...0x5FF, 0x7C0...0x85F, 0xFB1D...0xFB4F, 0x10800...0x10CFF, 0x10D40...0x10E5F, 0x10E80...0x10FFF,
            0x1E800...0x1EDFF, 0x1EF00...0x1EFFF:
            return .rightToLeft
        case 0x600...0x6FF, 0x700...0x74F, 0x750...0x77F, 0x860...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF,
            0x10D00...0x10D3F, 0x1EE00...0x1EEFF:
            return .arabicLetter
        default:
            return .leftToRight
        }
    }

    /// Whether the label has right-to-left characters, and whether it meets rules 1–6.
    private static func bidiSummary(_ label: UnsafeBufferPointer<UInt32>) -> LabelSummary {
        var summary = LabelSummary(asciiLength: 0)
        var hasLeftToRight = false
        var hasEuropean = false
        var hasArabicNumber = false
        var lastClass = BidiClass.other
        for codePoint in label {
            let bidi = bidiClass(codePoint)
            switch bidi {
            case .rightToLeft, .arabicLetter: summary.hasRightToLeft = true
            case .arabicNumber: summary.hasRightToLeft = true; hasArabicNumber = true
            case .europeanNumber: hasEuropean = true
            case .leftToRight: hasLeftToRight = true
            case .nonspacingMark, .other: break
            }
            if bidi != .nonspacingMark { lastClass = bidi }
        }
        switch bidiClass(label[0]) {
        case .rightToLeft, .arabicLetter:
            // Rules 2–4: no left-to-right characters, a strong or numeric end, one kind of digits.
            let endsWell = [.rightToLeft, .arabicLetter, .europeanNumber, .arabicNumber].contains(lastClass)
            summary.meetsBidiRule = !hasLeftToRight && endsWell && !(hasEuropean && hasArabicNumber)
        case .leftToRight:
            // Rules 5–6: no right-to-left characters and a left-to-right or European-number end.
            summary.meetsBidiRule = !summary.hasRightToLeft && (lastClass == .leftToRight || lastClass == .europeanNumber)
        default:
            summary.meetsBidiRule = false  // rule 1
        }
        return summary
    }
}
