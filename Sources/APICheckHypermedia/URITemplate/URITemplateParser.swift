import APICheckModel

/// Reads RFC 6570 §2 syntax from Unicode scalars, one pass, first error wins.
struct URITemplateParser {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    mutating func parse() throws(URITemplateError) -> [URITemplate.Component] {
        var components: [URITemplate.Component] = []
        var literal = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "{":
                if !literal.isEmpty {
                    components.append(.literal(String(literal)))
                    literal = String.UnicodeScalarView()
                }
                components.append(.expression(try parseExpression()))
            case "}":
                throw .unexpectedClosingBrace(at: index)
            case "%":
                guard isPercentTriplet(at: index) else { throw .invalidPercentEncoding(at: index) }
                literal.append(contentsOf: scalars[index..<(index + 3)])
                index += 3
            default:
                guard Self.isLiteral(scalar) else { throw .invalidLiteral(scalar, at: index) }
                literal.append(scalar)
                index += 1
            }
        }
        if !literal.isEmpty { components.append(.literal(String(literal))) }
        return components
    }

    private mutating func parseExpression() throws(URITemplateError) -> URITemplate.Expression {
        let start = index
        index += 1
        guard index < scalars.count else { throw .unclosedExpression(at: start) }
        var op = URITemplate.Operator.simple
        switch scalars[index] {
        case "+", "#", ".", "/", ";", "?", "&":
            op = URITemplate.Operator(rawValue: String(scalars[index])) ?? .simple
            index += 1
        case "=", ",", "!", "@", "|":
            throw .reservedOperator(scalars[index], at: index)
        case "}":
            throw .emptyExpression(at: start)
        default:
            break
        }
        var variables: [URITemplate.Variable] = []
        while true {
            variables.append(try parseVariable(operator: op, expressionStart: start))
            guard index < scalars.count else { throw .unclosedExpression(at: start) }
            switch scalars[index] {
            case ",":
                index += 1
            case "}":
                index += 1
                return URITemplate.Expression(operator: op, variables: variables, offset: start)
            default:
                throw .unexpectedCharacter(scalars[index], at: index)
            }
        }
    }

    private mutating func parseVariable(
        operator op: URITemplate.Operator, expressionStart: Int
    ) throws(URITemplateError) -> URITemplate.Variable {
        let nameStart = index
        var name = String.UnicodeScalarView()
        var afterDot = true  // a name may not start with '.'
        while index < scalars.count {
            let scalar = scalars[index]
            if Self.isVarChar(scalar) {
                name.append(scalar)
                afterDot = false
                index += 1
            } else if scalar == "%" {
                guard isPercentTriplet(at: index) else { throw .invalidPercentEncoding(at: index) }
                name.append(contentsOf: scalars[index..<(index + 3)])
                afterDot = false
                index += 3
            } else if scalar == "." {
                guard !afterDot else {
                    throw .invalidVariableName("'.' may only separate characters of a variable name", at: index)
                }
                name.append(scalar)
                afterDot = true
                index += 1
            } else {
                break
            }
        }
        guard index < scalars.count else { throw .unclosedExpression(at: expressionStart) }
        if name.isEmpty {
            throw .invalidVariableName(
                "expected a variable name (letters, digits, '_', '%XX'), found '\(scalars[index])'", at: index)
        }
        if afterDot {
            throw .invalidVariableName("a variable name may not end with '.'", at: index - 1)
        }
        var variable = URITemplate.Variable(name: String(name), explode: false, prefix: nil, operator: op, offset: nameStart)
        switch scalars[index] {
        case ":":
            index += 1
            let digitsStart = index
            var length = 0
            while index < scalars.count, let digit = Self.digit(scalars[index]) {
                if index == digitsStart && digit == 0 {
                    throw .invalidPrefix("a prefix length must be 1 to 9999 and not start with 0", at: index)
                }
                guard index - digitsStart < 4 else {
                    throw .invalidPrefix("a prefix length must be at most 9999", at: index)
                }
                length = length * 10 + digit
                index += 1
            }
            guard length > 0 else {
                throw .invalidPrefix("':' must be followed by a prefix length (1 to 9999)", at: index)
            }
            variable.prefix = length
        case "*":
            index += 1
            variable.explode = true
        default:
            break
        }
        return variable
    }

    private func isPercentTriplet(at offset: Int) -> Bool {
        offset + 2 < scalars.count && Self.isHex(scalars[offset + 1]) && Self.isHex(scalars[offset + 2])
    }

    private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && URICharacters.isHexDigit(UInt8(scalar.value))
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.isASCII, URICharacters.isDigit(UInt8(scalar.value)) else { return nil }
        return Int(scalar.value) - 0x30
    }

    /// `ALPHA / DIGIT / "_"` (percent-encoded triplets and dots are handled by the caller).
    private static func isVarChar(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let byte = UInt8(scalar.value)
        return URICharacters.isAlpha(byte) || URICharacters.isDigit(byte) || byte == UInt8(ascii: "_")
    }

    /// RFC 6570 §2.1 `literals` as corrected by erratum 6937 (`%x26-3B`, so `'` is a literal): any
    /// character except controls, space, `"%<>\^`{|}` (a `%` only as a triplet). Non-ASCII characters are allowed (`ucschar`, `iprivate`) and are
    /// percent-encoded on expansion; C1 controls are not.
    static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21, 0x23, 0x24, 0x26...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E:
            return true
        case 0xA0...:
            return true
        default:
            return false
        }
    }
}
