/// What `\p{…}` and `\P{…}` can name, answered by Swift's `Unicode.Scalar.Properties` (the
/// standard library's Unicode version), except scripts, which come from the generated tables in
/// `ECMAUnicodeProperty+Scripts.swift`.
///
/// Supported, with ECMA-262's exact (case-sensitive) names and aliases:
/// - every General_Category value, bare (`L`, `Letter`, `Lu`, `digit`, …) or as `General_Category=`/`gc=`;
/// - the binary properties of ECMA-262's table that the standard library exposes, plus `Any`,
///   `ASCII`, `Assigned` and `Regional_Indicator`;
/// - `Script=`/`sc=` and `Script_Extensions=`/`scx=` for Latin, Greek, Cyrillic, Han, Arabic, Hebrew,
///   Hiragana, Katakana, Hangul, Thai, Devanagari, Armenian and Georgian (Unicode 14 data).
///
/// Not supported (the pattern is refused with "Unicode property … is not supported"): other scripts,
/// `Emoji_Component`, `Extended_Pictographic`, and the v flag's properties of strings.
enum ECMAUnicodeProperty: Sendable, Hashable {
    /// A union of general categories, as a bit mask over `categoryBit(_:)`.
    case generalCategories(UInt32)
    case binary(Binary)

    enum Binary: Sendable, Hashable {
        case asciiHexDigit, alphabetic, bidiControl, bidiMirrored, caseIgnorable, cased
        case changesWhenCasefolded, changesWhenCasemapped, changesWhenLowercased
        case changesWhenNFKCCasefolded, changesWhenTitlecased, changesWhenUppercased
        case dash, defaultIgnorableCodePoint, deprecated, diacritic
        case emoji, emojiModifier, emojiModifierBase, emojiPresentation
        case extender, graphemeBase, graphemeExtend, hexDigit, idsBinaryOperator, idsTrinaryOperator
        case idContinue, idStart, ideographic, joinControl, logicalOrderException, lowercase, math
        case noncharacterCodePoint, patternSyntax, patternWhiteSpace, quotationMark, radical
        case sentenceTerminal, softDotted, terminalPunctuation, unifiedIdeograph
        case uppercase, variationSelector, whiteSpace, xidContinue, xidStart
    }

    /// What a `\p{…}` body resolves to: a property test, or plain ranges (scripts, Any, ASCII).
    enum Resolved {
        case property(ECMAUnicodeProperty)
        case ranges([UInt32])
    }

    enum LookupFailure: Error {
        case invalid
        case unsupported
    }

    @inline(__always)
    func matches(_ scalar: Unicode.Scalar, _ properties: Unicode.Scalar.Properties) -> Bool {
        switch self {
        case .generalCategories(let mask):
            return mask & Self.categoryBit(properties.generalCategory) != 0
        case .binary(let binary):
            return binary.matches(scalar, properties)
        }
    }

    /// Resolves the text between the braces of `\p{…}`.
    static func resolve(_ text: String) throws(LookupFailure) -> Resolved {
        if let equals = text.firstIndex(of: "=") {
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            switch name {
            case "General_Category", "gc":
                guard let mask = categoryMasks[value] else { throw .invalid }
                return .property(.generalCategories(mask))
            case "Script", "sc", "Script_Extensions", "scx":
                guard let table = scriptTables.first(where: { $0.name == value || $0.alias == value }) else {
                    throw Self.isKnownScriptName(value) ? .unsupported : .invalid
                }
                let list = name.hasPrefix("Script_") || name == "scx" ? table.extensions : table.script
                return .ranges(ECMAScalarSet.ranges(fromInversionList: list))
            default:
                throw .invalid
            }
        }
        if let mask = categoryMasks[text] { return .property(.generalCategories(mask)) }
        switch text {
        case "Any": return .ranges([0, ECMAScalarSet.maximumScalar])
        case "ASCII": return .ranges([0, 0x7F])
        case "Assigned": return .property(.generalCategories(~categoryBit(.unassigned)))
        case "Regional_Indicator", "RI": return .ranges([0x1F1E6, 0x1F1FF])
        case "Emoji_Component", "EComp", "Extended_Pictographic", "ExtPict": throw .unsupported
        default: break
        }
        guard let binary = binaryNames[text] else { throw .invalid }
        return .property(.binary(binary))
    }

    /// A script name ECMA-262 accepts but our tables leave out: refused as unsupported, not invalid.
    /// Checked loosely (a capitalised word of letters and underscores, or a four-letter code).
    private static func isKnownScriptName(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return value.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || $0 == "_" }
    }

    // MARK: General categories

    @inline(__always)
    static func categoryBit(_ category: Unicode.GeneralCategory) -> UInt32 {
        let index: UInt32 =
            switch category {
            case .uppercaseLetter: 0
            case .lowercaseLetter: 1
            case .titlecaseLetter: 2
            case .modifierLetter: 3
            case .otherLetter: 4
            case .nonspacingMark: 5
            case .spacingMark: 6
            case .enclosingMark: 7
            case .decimalNumber: 8
            case .letterNumber: 9
            case .otherNumber: 10
            case .connectorPunctuation: 11
            case .dashPunctuation: 12
            case .openPunctuation: 13
            case .closePunctuation: 14
            case .initialPunctuation: 15
            case .finalPunctuation: 16
            case .otherPunctuation: 17
            case .mathSymbol: 18
            case .currencySymbol: 19
            case .modifierSymbol: 20
            case .otherSymbol: 21
            case .spaceSeparator: 22
            case .lineSeparator: 23
            case .paragraphSeparator: 24
            case .control: 25
            case .format: 26
            case .surrogate: 27
            case .privateUse: 28
            case .unassigned: 29
            @unknown default: 29
            }
        return 1 << index
    }

    /// ECMA-262's table of General_Category values and aliases (PropertyValueAliases.txt).
    private static let categoryMasks: [String: UInt32] = {
        func bits(_ categories: Unicode.GeneralCategory...) -> UInt32 {
            categories.reduce(0) { $0 | categoryBit($1) }
        }
        let lu = bits(.uppercaseLetter), ll = bits(.lowercaseLetter), lt = bits(.titlecaseLetter)
        let lm = bits(.modifierLetter), lo = bits(.otherLetter)
        let mn = bits(.nonspacingMark), mc = bits(.spacingMark), me = bits(.enclosingMark)
        let nd = bits(.decimalNumber), nl = bits(.letterNumber), no = bits(.otherNumber)
        let pc = bits(.connectorPunctuation), pd = bits(.dashPunctuation), ps = bits(.openPunctuation)
        let pe = bits(.closePunctuation), pi = bits(.initialPunctuation), pf = bits(.finalPunctuation)
        let po = bits(.otherPunctuation)
        let sm = bits(.mathSymbol), sc = bits(.currencySymbol), sk = bits(.modifierSymbol), so = bits(.otherSymbol)
        let zs = bits(.spaceSeparator), zl = bits(.lineSeparator), zp = bits(.paragraphSeparator)
        let cc = bits(.control), cf = bits(.format), cs = bits(.surrogate), co = bits(.privateUse)
        let cn = bits(.unassigned)
        let entries: [([String], UInt32)] = [
            (["C", "Other"], cc | cf | cs | co | cn),
            (["Cc", "Control", "cntrl"], cc), (["Cf", "Format"], cf), (["Cn", "Unassigned"], cn),
            (["Co", "Private_Use"], co), (["Cs", "Surrogate"], cs),
            (["L", "Letter"], lu | ll | lt | lm | lo), (["LC", "Cased_Letter"], lu | ll | lt),
            (["Ll", "Lowercase_Letter"], ll), (["Lm", "Modifier_Letter"], lm), (["Lo", "Other_Letter"], lo),
            (["Lt", "Titlecase_Letter"], lt), (["Lu", "Uppercase_Letter"], lu),
            (["M", "Mark", "Combining_Mark"], mn | mc | me), (["Mc", "Spacing_Mark"], mc),
            (["Me", "Enclosing_Mark"], me), (["Mn", "Nonspacing_Mark"], mn),
            (["N", "Number"], nd | nl | no), (["Nd", "Decimal_Number", "digit"], nd),
            (["Nl", "Letter_Number"], nl), (["No", "Other_Number"], no),
            (["P", "Punctuation", "punct"], pc | pd | ps | pe | pi | pf | po),
            (["Pc", "Connector_Punctuation"], pc), (["Pd", "Dash_Punctuation"], pd),
            (["Pe", "Close_Punctuation"], pe), (["Pf", "Final_Punctuation"], pf),
            (["Pi", "Initial_Punctuation"], pi), (["Po", "Other_Punctuation"], po), (["Ps", "Open_Punctuation"], ps),
            (["S", "Symbol"], sm | sc | sk | so), (["Sc", "Currency_Symbol"], sc), (["Sk", "Modifier_Symbol"], sk),
            (["Sm", "Math_Symbol"], sm), (["So", "Other_Symbol"], so),
            (["Z", "Separator"], zs | zl | zp), (["Zl", "Line_Separator"], zl),
            (["Zp", "Paragraph_Separator"], zp), (["Zs", "Space_Separator"], zs),
        ]
        var masks: [String: UInt32] = [:]
        for (names, mask) in entries {
            for name in names { masks[name] = mask }
        }
        return masks
    }()

    // MARK: Binary properties

    private static let binaryNames: [String: Binary] = [
        "ASCII_Hex_Digit": .asciiHexDigit, "AHex": .asciiHexDigit, "Alphabetic": .alphabetic, "Alpha": .alphabetic,
        "Bidi_Control": .bidiControl, "Bidi_C": .bidiControl, "Bidi_Mirrored": .bidiMirrored, "Bidi_M": .bidiMirrored,
        "Case_Ignorable": .caseIgnorable, "CI": .caseIgnorable, "Cased": .cased,
        "Changes_When_Casefolded": .changesWhenCasefolded, "CWCF": .changesWhenCasefolded,
        "Changes_When_Casemapped": .changesWhenCasemapped, "CWCM": .changesWhenCasemapped,
        "Changes_When_Lowercased": .changesWhenLowercased, "CWL": .changesWhenLowercased,
        "Changes_When_NFKC_Casefolded": .changesWhenNFKCCasefolded, "CWKCF": .changesWhenNFKCCasefolded,
        "Changes_When_Titlecased": .changesWhenTitlecased, "CWT": .changesWhenTitlecased,
        "Changes_When_Uppercased": .changesWhenUppercased, "CWU": .changesWhenUppercased,
        "Dash": .dash, "Default_Ignorable_Code_Point": .defaultIgnorableCodePoint, "DI": .defaultIgnorableCodePoint,
        "Deprecated": .deprecated, "Dep": .deprecated, "Diacritic": .diacritic, "Dia": .diacritic,
        "Emoji": .emoji, "Emoji_Modifier": .emojiModifier, "EMod": .emojiModifier,
        "Emoji_Modifier_Base": .emojiModifierBase, "EBase": .emojiModifierBase,
        "Emoji_Presentation": .emojiPresentation, "EPres": .emojiPresentation,
        "Extender": .extender, "Ext": .extender, "Grapheme_Base": .graphemeBase, "Gr_Base": .graphemeBase,
        "Grapheme_Extend": .graphemeExtend, "Gr_Ext": .graphemeExtend, "Hex_Digit": .hexDigit, "Hex": .hexDigit,
        "IDS_Binary_Operator": .idsBinaryOperator, "IDSB": .idsBinaryOperator,
        "IDS_Trinary_Operator": .idsTrinaryOperator, "IDST": .idsTrinaryOperator,
        "ID_Continue": .idContinue, "IDC": .idContinue, "ID_Start": .idStart, "IDS": .idStart,
        "Ideographic": .ideographic, "Ideo": .ideographic, "Join_Control": .joinControl, "Join_C": .joinControl,
        "Logical_Order_Exception": .logicalOrderException, "LOE": .logicalOrderException,
        "Lowercase": .lowercase, "Lower": .lowercase, "Math": .math,
        "Noncharacter_Code_Point": .noncharacterCodePoint, "NChar": .noncharacterCodePoint,
        "Pattern_Syntax": .patternSyntax, "Pat_Syn": .patternSyntax,
        "Pattern_White_Space": .patternWhiteSpace, "Pat_WS": .patternWhiteSpace,
        "Quotation_Mark": .quotationMark, "QMark": .quotationMark, "Radical": .radical,
        "Sentence_Terminal": .sentenceTerminal, "STerm": .sentenceTerminal, "Soft_Dotted": .softDotted, "SD": .softDotted,
        "Terminal_Punctuation": .terminalPunctuation, "Term": .terminalPunctuation,
        "Unified_Ideograph": .unifiedIdeograph, "UIdeo": .unifiedIdeograph, "Uppercase": .uppercase, "Upper": .uppercase,
        "Variation_Selector": .variationSelector, "VS": .variationSelector, "White_Space": .whiteSpace, "space": .whiteSpace,
        "XID_Continue": .xidContinue, "XIDC": .xidContinue, "XID_Start": .xidStart, "XIDS": .xidStart,
    ]
}

extension ECMAUnicodeProperty.Binary {
    func matches(_ scalar: Unicode.Scalar, _ properties: Unicode.Scalar.Properties) -> Bool {
        switch self {
        case .asciiHexDigit: properties.isASCIIHexDigit
        case .alphabetic: properties.isAlphabetic
        case .bidiControl: properties.isBidiControl
        case .bidiMirrored: properties.isBidiMirrored
        case .caseIgnorable: properties.isCaseIgnorable
        case .cased: properties.isCased
        case .changesWhenCasefolded: properties.changesWhenCaseFolded
        case .changesWhenCasemapped: properties.changesWhenCaseMapped
        case .changesWhenLowercased: properties.changesWhenLowercased
        case .changesWhenNFKCCasefolded: properties.changesWhenNFKCCaseFolded
        case .changesWhenTitlecased: properties.changesWhenTitlecased
        case .changesWhenUppercased: properties.changesWhenUppercased
        case .dash: properties.isDash
        case .defaultIgnorableCodePoint: properties.isDefaultIgnorableCodePoint
        case .deprecated: properties.isDeprecated
        case .diacritic: properties.isDiacritic
        case .emoji: properties.isEmoji
        case .emojiModifier: properties.isEmojiModifier
        case .emojiModifierBase: properties.isEmojiModifierBase
        case .emojiPresentation: properties.isEmojiPresentation
        case .extender: properties.isExtender
        case .graphemeBase: properties.isGraphemeBase
        case .graphemeExtend: properties.isGraphemeExtend
        case .hexDigit: properties.isHexDigit
        case .idsBinaryOperator: properties.isIDSBinaryOperator
        case .idsTrinaryOperator: properties.isIDSTrinaryOperator
        case .idContinue: properties.isIDContinue
        case .idStart: properties.isIDStart
        case .ideographic: properties.isIdeographic
        case .joinControl: properties.isJoinControl
        case .logicalOrderException: properties.isLogicalOrderException
        case .lowercase: properties.isLowercase
        case .math: properties.isMath
        case .noncharacterCodePoint: properties.isNoncharacterCodePoint
        case .patternSyntax: properties.isPatternSyntax
        case .patternWhiteSpace: properties.isPatternWhitespace
        case .quotationMark: properties.isQuotationMark
        case .radical: properties.isRadical
        case .sentenceTerminal: properties.isSentenceTerminal
        case .softDotted: properties.isSoftDotted
        case .terminalPunctuation: properties.isTerminalPunctuation
        case .unifiedIdeograph: properties.isUnifiedIdeograph
        case .uppercase: properties.isUppercase
        case .variationSelector: properties.isVariationSelector
        case .whiteSpace: properties.isWhitespace
        case .xidContinue: properties.isXIDContinue
        case .xidStart: properties.isXIDStart
        }
    }
}
