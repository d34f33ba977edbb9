/// Refuses, before Yams composes it, a YAML document that uses an alias as a mapping key or an
/// explicit (`?`) key while it defines anchors.
///
/// Yams' composer checks each mapping for duplicate keys by hashing its key nodes, and a key that
/// is an alias of a nested alias bomb hashes every node of its expansion (`? *lol9` takes minutes,
/// measured), before any budget of ours can stop it. OpenAPI documents have string keys, so
/// nothing valid is lost: an alias as a key (`*name: …`, `[*name]: …`) and an explicit key
/// (`? …`) are refused whenever the text defines an anchor. libyaml's anchor names are
/// `[0-9A-Za-z_-]+`, which is what is matched here.
enum YAMLAliasKeys {
    struct Problem {
        var line: Int
        var column: Int
        var message: String
    }

    static func problem(in text: String) -> Problem? {
        let bytes = Array(text.utf8)
        let anchors = names(after: UInt8(ascii: "&"), in: bytes)
        guard !anchors.isEmpty else { return nil }
        var line = 1
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            if let found = problem(inLine: bytes[start..<end], anchors: anchors) {
                return Problem(line: line, column: found.column, message: found.message)
            }
            line += 1
            start = end + 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
    }

    private static func isBoundary(_ byte: UInt8?) -> Bool {
        guard let byte else { return true }
        return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "-"), UInt8(ascii: ":")].contains(byte)
    }

    /// The names after `indicator` (`&` anchors) where a node property can start.
    private static func names(after indicator: UInt8, in bytes: [UInt8]) -> Set<[UInt8]> {
        var found = Set<[UInt8]>()
        var index = 0
        while index < bytes.count {
            if bytes[index] == indicator, isBoundary(index > 0 ? bytes[index - 1] : nil) {
                var end = index + 1
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                if end > index + 1 { found.insert(Array(bytes[(index + 1)..<end])) }
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    private static func problem(inLine line: ArraySlice<UInt8>, anchors: Set<[UInt8]>) -> (column: Int, message: String)? {
        let first = line.firstIndex { $0 != 0x20 && $0 != 0x09 }
        if let first, line[first] == UInt8(ascii: "?"), first + 1 == line.endIndex || [0x20, 0x09, 0x0D].contains(line[first + 1]) {
            return (first - line.startIndex + 1, "an explicit key ('? ') in a document that defines anchors is refused: write plain string keys")
        }
        var index = line.startIndex
        var aliasSeen: Int?
        // Flow brackets open on this line, innermost last: in `{*a}` or `{x: 1, *a}` the alias is a key.
        var open: [UInt8] = []
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { open.append(byte) }
            if byte == UInt8(ascii: "*"), isBoundary(index > line.startIndex ? line[index - 1] : nil) {
                var end = index + 1
                while end < line.endIndex, isNameByte(line[end]) { end += 1 }
                if end > index + 1, anchors.contains(Array(line[(index + 1)..<end])) {
                    aliasSeen = aliasSeen ?? index
                    var previous = index - 1
                    while previous >= line.startIndex, line[previous] == 0x20 || line[previous] == 0x09 { previous -= 1 }
                    if open.last == UInt8(ascii: "{"), previous >= line.startIndex, line[previous] == UInt8(ascii: "{") || line[previous] == UInt8(ascii: ",") {
                        return (index - line.startIndex + 1, "an alias used as a mapping key is refused: write plain string keys")
                    }
                    var next = end
                    while next < line.endIndex, line[next] == 0x20 || line[next] == 0x09 { next += 1 }
                    if next < line.endIndex, line[next] == UInt8(ascii: ":"), next + 1 == line.endIndex || [0x20, 0x09, 0x0D].contains(line[next + 1]) {
                        return (index - line.startIndex + 1, "an alias used as a mapping key is refused: write plain string keys")
                    }
                }
                index = end
                continue
            }
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { _ = open.popLast() }
            // A flow collection used as a key (`[*a, b]: …`) with an alias in it.
            if let alias = aliasSeen, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                var next = index + 1
                while next < line.endIndex, line[next] == 0x20 || line[next] == 0x09 { next += 1 }
                if next < line.endIndex, line[next] == UInt8(ascii: ":"), next + 1 == line.endIndex || [0x20, 0x09, 0x0D].contains(line[next + 1]) {
                    return (alias - line.startIndex + 1, "a collection holding an alias used as a mapping key is refused: write plain string keys")
                }
            }
            index += 1
        }
        return nil
    }
}
