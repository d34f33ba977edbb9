/// Quick facts about number lexemes without building a `DecimalNumber`.
enum NumberFacts {
    /// The lexeme's value when it is a plain integer of at most 18 digits (`-42`, not `4.0`).
    @inline(__always) static func plainInt64(_ lexeme: String) -> Int64? {
        if let value = lexeme.utf8.withContiguousStorageIfAvailable({ plainInt64(bytes: $0) }) { return value }
        return plainInt64(bytes: Array(lexeme.utf8))
    }

    @inline(__always) static func plainInt64<Bytes: Collection<UInt8>>(bytes lexeme: Bytes) -> Int64? {
        var value: Int64 = 0
        var negative = false
        var count = 0
        for byte in lexeme {
            if byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < 18 else { return nil }
            value = value * 10 + Int64(byte &- UInt8(ascii: "0"))
            count += 1
        }
        return negative ? -value : value
    }

    /// Whether the number has no fractional part (`1`, `1.0`, `1e3`, `1e1000`).
    static func isIntegral(_ lexeme: String) -> Bool {
        var plain = true
        for byte in lexeme.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            plain = false
            break
        }
        if plain { return true }
        return DecimalNumber(lexeme: lexeme)?.isInteger ?? false
    }

    /// Whether the lexeme has neither fraction nor exponent (draft 4's reading of "integer").
    static func isWrittenAsInteger(_ lexeme: String) -> Bool {
        !lexeme.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
