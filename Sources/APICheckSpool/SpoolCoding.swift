import Foundation

/// A value a crawl writes to disk while it runs and reads back in order (``SpillQueue``,
/// ``CheckListBuilder``), so that what it has found so far does not have to stay in memory.
///
/// The encoding is private to one process: it is never read by another version of the tool.
///
/// The spool's types and members are `@usableFromInline package`: `@inlinable` alone on package
/// declarations left their code unspecialized in other modules (the crawler's pending checks went
/// through witness tables; specializing them took a third off an in-memory crawl's rules phase).
@usableFromInline package protocol SpoolRecord: SpoolReadable {
    @inlinable func encode(into encoder: inout SpoolEncoder)
}

/// A value read from spool records: a ``SpoolRecord`` itself, or a part of one that a pass
/// needs alone (the rest of each record is skipped, not decoded).
@usableFromInline package protocol SpoolReadable: Sendable {
    @inlinable init(from decoder: inout SpoolDecoder) throws(SpoolDecodingError)
}

/// A spool file that does not hold what was written: truncated or changed under the process.
@usableFromInline package struct SpoolDecodingError: Error, CustomStringConvertible {
    @inlinable package init() {}
    @usableFromInline package var description: String { "a temporary spool file is damaged (changed or truncated while the crawl ran)" }
}

/// Appends values as bytes: integers as LEB128 varints (zigzag for signed), strings with their
/// length first.
@usableFromInline package struct SpoolEncoder {
    @usableFromInline package var bytes: [UInt8] = []

    @inlinable package init() {}

    @inlinable package mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inlinable package mutating func int(_ value: Int) {
        let wide = Int64(value)
        unsigned(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)))
    }

    @inlinable package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    @inlinable package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    @inlinable package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    @inlinable package mutating func optionalInt(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }

    @inlinable package mutating func strings(_ values: [String]) {
        unsigned(UInt64(values.count))
        for value in values { string(value) }
    }

    @inlinable package mutating func data(_ value: Data) {
        unsigned(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
}

/// Reads what a ``SpoolEncoder`` wrote, in the same order.
@usableFromInline package struct SpoolDecoder {
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var position: Int
    @usableFromInline let end: Int

    @inlinable package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = end ?? bytes.count
    }

    @inlinable package mutating func unsigned() throws(SpoolDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end, shift < 64 else { throw SpoolDecodingError() }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    @inlinable package mutating func int() throws(SpoolDecodingError) -> Int {
        let raw = try unsigned()
        return Int(truncatingIfNeeded: Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    @inlinable package mutating func bool() throws(SpoolDecodingError) -> Bool {
        guard position < end else { throw SpoolDecodingError() }
        defer { position += 1 }
        return bytes[position] != 0
    }

    @inlinable package mutating func string() throws(SpoolDecodingError) -> String {
        let count = try length()
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
    }

    @inlinable package mutating func optionalString() throws(SpoolDecodingError) -> String? {
        try bool() ? try string() : nil
    }

    /// Passes over a string without making it.
    @inlinable package mutating func skipString() throws(SpoolDecodingError) {
        position += try length()
    }

    @inlinable package mutating func skipOptionalString() throws(SpoolDecodingError) {
        if try bool() { try skipString() }
    }

    @inlinable package mutating func optionalInt() throws(SpoolDecodingError) -> Int? {
        try bool() ? try int() : nil
    }

    @inlinable package mutating func strings() throws(SpoolDecodingError) -> [String] {
        let count = try length()
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try string()) }
        return values
    }

    @inlinable package mutating func data() throws(SpoolDecodingError) -> Data {
        let count = try length()
        defer { position += count }
        return Data(bytes[position..<position + count])
    }

    @inlinable mutating func length() throws(SpoolDecodingError) -> Int {
        let count = try unsigned()
        guard count <= UInt64(end - position) else { throw SpoolDecodingError() }
        return Int(count)
    }
}
