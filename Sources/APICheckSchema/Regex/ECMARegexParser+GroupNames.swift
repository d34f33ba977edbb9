/// Group names: the pre-scan that numbers groups before parsing (so `\k<name>` and `\N` may refer
/// forward) and the reader of a name, shared by the scan and the parser.
extension ECMARegexParser {
    /// A RegExpIdentifierName from `start` up to `>`: ID_Start (or `$`, `_`) then ID_Continue (or
    /// `$`, ZWNJ, ZWJ), each possibly written `\uXXXX`, `\uXXXX\uXXXX` (a surrogate pair) or
    /// `\u{…}`. Returns the name and the index after `>`, or nil.
    static func readGroupName(_ scalars: [Unicode.Scalar], from start: Int) -> (name: String, end: Int)? {
        var name = String.UnicodeScalarView()
        var index = start
        func hex(_ count: Int) -> UInt32? {
            guard index + count <= scalars.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<count {
                guard let digit = hexValue(scalars[index + offset]) else { return nil }
                value = value * 16 + UInt32(digit)
            }
            index += count
            return value
        }
        while index < scalars.count, scalars[index] != ">" {
            var value = scalars[index].value
            index += 1
            if value == 0x5C {  // backslash
                guard index < scalars.count, scalars[index] == "u" else { return nil }
                index += 1
                if index < scalars.count, scalars[index] == "{" {
                    index += 1
                    var digits = 0
                    value = 0
                    while index < scalars.count, let digit = hexValue(scalars[index]), value <= ECMAScalarSet.maximumScalar {
                        value = value * 16 + UInt32(digit)
                        digits += 1
                        index += 1
                    }
                    guard digits > 0, index < scalars.count, scalars[index] == "}" else { return nil }
                    index += 1
                } else {
                    guard let lead = hex(4) else { return nil }
                    value = lead
                    if (0xD800...0xDBFF).contains(lead), index + 1 < scalars.count, scalars[index] == "\\",
                        scalars[index + 1] == "u"
                    {
                        index += 2
                        guard let trail = hex(4), (0xDC00...0xDFFF).contains(trail) else { return nil }
                        value = 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
                    }
                }
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            let allowed =
                name.isEmpty
                ? scalar.properties.isIDStart || scalar == "$" || scalar == "_"
                : scalar.properties.isIDContinue || scalar == "$" || scalar == "\u{200C}" || scalar == "\u{200D}"
            guard allowed else { return nil }
            name.append(scalar)
        }
        guard index < scalars.count, !name.isEmpty else { return nil }
        return (String(name), index + 1)
    }

    /// Counts capture groups and indexes their names before parsing, skipping escapes and classes.
    static func scanGroups(_ scalars: [Unicode.Scalar]) -> (count: Int, names: [String: Int]) {
        var count = 0
        var names: [String: Int] = [:]
        var index = 0
        var inClass = false
        while index < scalars.count {
            switch scalars[index] {
            case "\\":
                index += 1
            case "[":
                inClass = true
            case "]":
                inClass = false
            case "(" where !inClass:
                if index + 1 < scalars.count, scalars[index + 1] == "?" {
                    guard index + 3 < scalars.count, scalars[index + 2] == "<",
                        scalars[index + 3] != "=", scalars[index + 3] != "!"
                    else { break }
                    count += 1
                    if let (name, _) = readGroupName(scalars, from: index + 3), names[name] == nil { names[name] = count }
                } else {
                    count += 1
                }
            default:
                break
            }
            index += 1
        }
        return (count, names)
    }
}
