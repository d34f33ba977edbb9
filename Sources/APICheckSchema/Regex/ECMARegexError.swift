/// Why a pattern is not an ECMA-262 regular expression (with the `u` flag), and where.
///
/// Prints like `unterminated group at 4`: `offset` counts Unicode scalars from the start of the
/// pattern, so a schema author can find the spot in the string their editor shows.
struct ECMARegexError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Equatable {
        case unterminatedGroup, unmatchedParenthesis, unterminatedCharacterClass
        case nothingToRepeat, loneQuantifierBracket, incompleteQuantifier, quantifierOutOfOrder
        case invalidEscape, invalidUnicodeEscape, invalidControlEscape, invalidDecimalEscape
        case invalidClassEscape, invalidClassRange, classRangeOutOfOrder
        case invalidBackreference, invalidNamedReference
        case invalidGroup, invalidGroupName, duplicateGroupName
        case invalidPropertyName, unsupportedProperty(String)
        case programTooLarge(limit: Int)
        case nestedTooDeeply(limit: Int)
    }

    private let code: Code
    /// What is wrong, for a person: "unterminated group".
    var message: String
    /// Scalar offset into the pattern where the problem was found.
    var offset: Int

    private init(_ code: Code, _ offset: Int) {
        self.code = code
        self.message = Self.message(for: code)
        self.offset = offset
    }

    private static func message(for code: Code) -> String {
        switch code {
        case .unterminatedGroup: "unterminated group"
        case .unmatchedParenthesis: "unmatched ')'"
        case .unterminatedCharacterClass: "unterminated character class"
        case .nothingToRepeat: "nothing to repeat"
        case .loneQuantifierBracket: "lone quantifier bracket (escape it as \\{, \\} or \\])"
        case .incompleteQuantifier: "incomplete quantifier"
        case .quantifierOutOfOrder: "numbers out of order in {} quantifier"
        case .invalidEscape: "invalid escape (only syntax characters and / may be escaped with the u flag)"
        case .invalidUnicodeEscape: "invalid Unicode escape"
        case .invalidControlEscape: "invalid control escape (\\c needs a letter)"
        case .invalidDecimalEscape: "invalid decimal escape"
        case .invalidClassEscape: "invalid escape in character class"
        case .invalidClassRange: "invalid character class range (a class escape cannot bound a range)"
        case .classRangeOutOfOrder: "range out of order in character class"
        case .invalidBackreference: "backreference to a group that does not exist"
        case .invalidNamedReference: "invalid named reference"
        case .invalidGroup: "invalid group"
        case .invalidGroupName: "invalid capture group name"
        case .duplicateGroupName: "duplicate capture group name"
        case .invalidPropertyName: "invalid Unicode property name"
        case .unsupportedProperty(let name): "Unicode property \(name) is not supported by this engine"
        case .programTooLarge(let limit): "pattern too large: it compiles to more than \(limit) instructions"
        case .nestedTooDeeply(let limit): "groups nested more than \(limit) deep"
        }
    }

    var description: String { "\(message) at \(offset)" }

    static func unterminatedGroup(at offset: Int) -> Self { .init(.unterminatedGroup, offset) }
    static func unmatchedParenthesis(at offset: Int) -> Self { .init(.unmatchedParenthesis, offset) }
    static func unterminatedCharacterClass(at offset: Int) -> Self { .init(.unterminatedCharacterClass, offset) }
    static func nothingToRepeat(at offset: Int) -> Self { .init(.nothingToRepeat, offset) }
    static func loneQuantifierBracket(at offset: Int) -> Self { .init(.loneQuantifierBracket, offset) }
    static func incompleteQuantifier(at offset: Int) -> Self { .init(.incompleteQuantifier, offset) }
    static func quantifierOutOfOrder(at offset: Int) -> Self { .init(.quantifierOutOfOrder, offset) }
    static func invalidEscape(at offset: Int) -> Self { .init(.invalidEscape, offset) }
    static func invalidUnicodeEscape(at offset: Int) -> Self { .init(.invalidUnicodeEscape, offset) }
    static func invalidControlEscape(at offset: Int) -> Self { .init(.invalidControlEscape, offset) }
    static func invalidDecimalEscape(at offset: Int) -> Self { .init(.invalidDecimalEscape, offset) }
    static func invalidClassEscape(at offset: Int) -> Self { .init(.invalidClassEscape, offset) }
    static func invalidClassRange(at offset: Int) -> Self { .init(.invalidClassRange, offset) }
    static func classRangeOutOfOrder(at offset: Int) -> Self { .init(.classRangeOutOfOrder, offset) }
    static func invalidBackreference(at offset: Int) -> Self { .init(.invalidBackreference, offset) }
    static func invalidNamedReference(at offset: Int) -> Self { .init(.invalidNamedReference, offset) }
    static func invalidGroup(at offset: Int) -> Self { .init(.invalidGroup, offset) }
    static func invalidGroupName(at offset: Int) -> Self { .init(.invalidGroupName, offset) }
    static func duplicateGroupName(at offset: Int) -> Self { .init(.duplicateGroupName, offset) }
    static func invalidPropertyName(at offset: Int) -> Self { .init(.invalidPropertyName, offset) }
    static func unsupportedProperty(_ name: String, at offset: Int) -> Self { .init(.unsupportedProperty(name), offset) }
    static func programTooLarge(limit: Int, at offset: Int) -> Self { .init(.programTooLarge(limit: limit), offset) }
    static func nestedTooDeeply(limit: Int, at offset: Int) -> Self { .init(.nestedTooDeeply(limit: limit), offset) }
}
