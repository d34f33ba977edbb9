import APICheckModel

extension URITemplate {
    /// Expands the template with `values` (RFC 6570 §3, Appendix A).
    ///
    /// Variables missing from `values` are undefined and skipped, as the RFC says; use
    /// ``missingVariables(for:)`` first when a skipped path variable would make the URI wrong.
    /// - Throws: when the result would exceed `maximumLength` bytes, or a prefix modifier meets a
    ///   list or associative array.
    public func expand(
        _ values: [String: Value], maximumLength: Int = URITemplate.defaultMaximumExpansionLength
    ) throws(URITemplateError) -> String {
        var output: [UInt8] = []
        for component in components {
            switch component {
            case .literal(let text):
                URICharacters.encode(text, allowReserved: true, into: &output)
            case .expression(let expression):
                try expand(expression, values, into: &output, limit: maximumLength)
            }
            guard output.count <= maximumLength else { throw .expansionTooLong(limit: maximumLength) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func expand(
        _ expression: Expression, _ values: [String: Value], into output: inout [UInt8], limit: Int
    ) throws(URITemplateError) {
        let op = expression.operator
        var first = true
        for variable in expression.variables {
            guard let value = values[variable.name], value.isDefined else { continue }
            output.append(contentsOf: (first ? op.first : String(UnicodeScalar(op.separator))).utf8)
            first = false
            switch value {
            case .string(let string):
                if op.isNamed {
                    output.append(contentsOf: variable.name.utf8)
                    if string.isEmpty {
                        output.append(contentsOf: op.ifEmpty.utf8)
                        continue
                    }
                    output.append(UInt8(ascii: "="))
                }
                let text = variable.prefix.map { String(String.UnicodeScalarView(string.unicodeScalars.prefix($0))) } ?? string
                URICharacters.encode(text, allowReserved: op.allowsReserved, into: &output)
            case .list(let items):
                guard variable.prefix == nil else { throw .prefixOnCompositeValue(variable.name) }
                if variable.explode {
                    for (index, item) in items.enumerated() {
                        if index > 0 { output.append(op.separator) }
                        if op.isNamed {
                            appendNamed(variable.name, item, op, into: &output)
                        } else {
                            URICharacters.encode(item, allowReserved: op.allowsReserved, into: &output)
                        }
                        guard output.count <= limit else { throw .expansionTooLong(limit: limit) }
                    }
                } else {
                    if op.isNamed {
                        output.append(contentsOf: variable.name.utf8)
                        output.append(UInt8(ascii: "="))
                    }
                    for (index, item) in items.enumerated() {
                        if index > 0 { output.append(UInt8(ascii: ",")) }
                        URICharacters.encode(item, allowReserved: op.allowsReserved, into: &output)
                        guard output.count <= limit else { throw .expansionTooLong(limit: limit) }
                    }
                }
            case .associativeArray(let pairs):
                guard variable.prefix == nil else { throw .prefixOnCompositeValue(variable.name) }
                if variable.explode {
                    for (index, pair) in pairs.enumerated() {
                        if index > 0 { output.append(op.separator) }
                        if op.isNamed {
                            appendNamed(pair.key, pair.value, op, into: &output)
                        } else {
                            URICharacters.encode(pair.key, allowReserved: op.allowsReserved, into: &output)
                            output.append(UInt8(ascii: "="))
                            URICharacters.encode(pair.value, allowReserved: op.allowsReserved, into: &output)
                        }
                        guard output.count <= limit else { throw .expansionTooLong(limit: limit) }
                    }
                } else {
                    if op.isNamed {
                        output.append(contentsOf: variable.name.utf8)
                        output.append(UInt8(ascii: "="))
                    }
                    for (index, pair) in pairs.enumerated() {
                        if index > 0 { output.append(UInt8(ascii: ",")) }
                        URICharacters.encode(pair.key, allowReserved: op.allowsReserved, into: &output)
                        output.append(UInt8(ascii: ","))
                        URICharacters.encode(pair.value, allowReserved: op.allowsReserved, into: &output)
                        guard output.count <= limit else { throw .expansionTooLong(limit: limit) }
                    }
                }
            }
            guard output.count <= limit else { throw .expansionTooLong(limit: limit) }
        }
    }

    /// `name=value`, or `name` + ifemp when the value is empty (named operators, exploded).
    private func appendNamed(_ name: String, _ value: String, _ op: Operator, into output: inout [UInt8]) {
        URICharacters.encode(name, allowReserved: op.allowsReserved, into: &output)
        if value.isEmpty {
            output.append(contentsOf: op.ifEmpty.utf8)
        } else {
            output.append(UInt8(ascii: "="))
            URICharacters.encode(value, allowReserved: op.allowsReserved, into: &output)
        }
    }
}
