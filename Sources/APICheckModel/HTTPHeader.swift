/// One header line. Stubs keep headers as a list: order and repeated names are meaningful.
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The first value of the header `name`, compared case-insensitively.
    public func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the header `name`, in order.
    public func values(named name: String) -> [String] {
        filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }
}

extension StringProtocol {
    /// Without leading and trailing ASCII spaces, tabs and line breaks; cheap, no Foundation.
    package var trimmedASCIIWhitespace: String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == 0 && last == bytes.count - 1 { return String(self) }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names and methods need; no allocation.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        // Native strings are contiguous: compare their bytes (a stub server compares header names per request).
        let contiguous = a.withContiguousStorageIfAvailable { lhs in
            b.withContiguousStorageIfAvailable { rhs in
                for index in 0..<lhs.count where !asciiCaseInsensitiveEquals(lhs[index], rhs[index]) { return false }
                return true
            }
        }
        if case .some(.some(let equal)) = contiguous { return equal }
        return zip(a, b).allSatisfy(asciiCaseInsensitiveEquals)
    }
}

/// What a `Content-Type` value says without parsing it fully: for the places that only need to
/// know whether a body is JSON or text (templates, the recorder, origin rewriting). The crawler's
/// full RFC 9110 parser, with validation and parameters, is `MediaType` in APICheckHypermedia.
public enum ContentTypeHeader {
    /// `type/subtype`, lower-cased, without parameters: `Application/HAL+JSON; charset=utf-8` →
    /// `application/hal+json`.
    public static func essence(of value: String) -> String {
        value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map { $0.trimmedASCIIWhitespace.lowercased() } ?? ""
    }

    /// Whether the type is JSON: `application/json` or a `+json` structured suffix (RFC 6839).
    public static func isJSON(_ value: String) -> Bool {
        let essence = essence(of: value)
        return essence == "application/json" || essence.hasSuffix("+json")
    }
}

/// Whether two bytes are equal, ASCII letters compared without case.
@inline(__always)
package func asciiCaseInsensitiveEquals(_ lhs: UInt8, _ rhs: UInt8) -> Bool {
    lhs == rhs || (lhs | 0x20 == rhs | 0x20 && (lhs | 0x20) >= 0x61 && (lhs | 0x20) <= 0x7A)
}
