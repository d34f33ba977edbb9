import APICheckModel

/// Why a URI template is not valid RFC 6570, or could not be expanded.
///
/// Syntax errors carry the offset (0-based, in Unicode scalars) of the offending character, so
/// the `template-valid` rule can say what is wrong where:
/// `offset 9: '}' closes no expression`.
public struct URITemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case tooLong
        case unclosedExpression
        case unexpectedClosingBrace
        case emptyExpression
        case reservedOperator
        case invalidVariableName
        case invalidPrefix
        case invalidLiteral
        case invalidPercentEncoding
        case unexpectedCharacter
        case expansionTooLong
        case prefixOnCompositeValue
    }

    private var code: Code
    /// Where in the template the problem is (0-based, in Unicode scalars); `nil` for expansion errors.
    public var offset: Int?
    /// What is wrong, in a sentence.
    public var message: String

    private init(_ code: Code, offset: Int?, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// `true` when the template itself is not valid RFC 6570 (as opposed to a failed expansion).
    public var isSyntaxError: Bool {
        code != .expansionTooLong && code != .prefixOnCompositeValue
    }

    /// `offset 9: '}' closes no expression`.
    public var description: String {
        guard let offset else { return message }
        return "offset \(offset): \(message)"
    }

    static func tooLong(_ length: Int, limit: Int) -> URITemplateError {
        URITemplateError(.tooLong, offset: limit, "the template is \(length) bytes long, over the limit of \(limit)")
    }

    static func unclosedExpression(at offset: Int) -> URITemplateError {
        URITemplateError(.unclosedExpression, offset: offset, "the expression opened here is never closed with '}'")
    }

    static func unexpectedClosingBrace(at offset: Int) -> URITemplateError {
        URITemplateError(.unexpectedClosingBrace, offset: offset, "'}' closes no expression")
    }

    static func emptyExpression(at offset: Int) -> URITemplateError {
        URITemplateError(.emptyExpression, offset: offset, "the expression '{}' names no variable")
    }

    static func reservedOperator(_ scalar: Unicode.Scalar, at offset: Int) -> URITemplateError {
        URITemplateError(.reservedOperator, offset: offset, "operator '\(scalar)' is reserved for future extensions of RFC 6570")
    }

    static func invalidVariableName(_ detail: String, at offset: Int) -> URITemplateError {
        URITemplateError(.invalidVariableName, offset: offset, detail)
    }

    static func invalidPrefix(_ detail: String, at offset: Int) -> URITemplateError {
        URITemplateError(.invalidPrefix, offset: offset, detail)
    }

    static func invalidLiteral(_ scalar: Unicode.Scalar, at offset: Int) -> URITemplateError {
        let shown = scalar.value < 0x21 || (0x7F...0x9F).contains(scalar.value)
            ? "U+" + String(scalar.value, radix: 16, uppercase: true) : "'\(scalar)'"
        var bytes: [UInt8] = []
        for byte in String(scalar).utf8 { URICharacters.appendPercentEncoded(byte, to: &bytes) }
        return URITemplateError(
            .invalidLiteral, offset: offset,
            "\(shown) is not allowed in a URI template; write it percent-encoded as \(String(decoding: bytes, as: UTF8.self))"
        )
    }

    static func invalidPercentEncoding(at offset: Int) -> URITemplateError {
        URITemplateError(.invalidPercentEncoding, offset: offset, "'%' must be followed by two hexadecimal digits")
    }

    static func unexpectedCharacter(_ scalar: Unicode.Scalar, at offset: Int) -> URITemplateError {
        URITemplateError(.unexpectedCharacter, offset: offset, "unexpected '\(scalar)' in an expression; expected ',' or '}'")
    }

    static func expansionTooLong(limit: Int) -> URITemplateError {
        URITemplateError(.expansionTooLong, offset: nil, "the expansion is longer than the limit of \(limit) bytes")
    }

    static func prefixOnCompositeValue(_ name: String) -> URITemplateError {
        URITemplateError(
            .prefixOnCompositeValue, offset: nil,
            "the prefix modifier of '\(name)' does not apply to a list or associative array (RFC 6570 §2.4.1)"
        )
    }
}
