/// A request path's segments after its first `/`, as ranges of its UTF-8 bytes: `/a/b` → `a`, `b`;
/// `/` → one empty segment; a path without `/` has none.
///
/// Matching reads these instead of `Substring`s, each of which would retain the path: choosing a
/// stub borrows the request's bytes and copies nothing. Only valid inside
/// ``withSegments(of:_:)``'s closure.
struct PathSegments {
    /// The whole path.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offsets of the separating `/`s, then the path's length: segment `i` lies between
    /// `bounds[i]` and `bounds[i + 1]`.
    private let bounds: UnsafeBufferPointer<Int>

    var count: Int { max(bounds.count - 1, 0) }

    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(bounds[index] + 1)..<bounds[index + 1]])
    }

    func string(_ index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

    /// Calls `body` with `path`'s bytes (borrowed when the string is contiguous, as native
    /// strings are).
    @inline(__always)
    static func withBytes<Result>(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = path.utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = path
        return contiguous.withUTF8(body)
    }

    @inline(__always)
    static func withSegments<Result>(of path: String, _ body: (PathSegments) -> Result) -> Result {
        withBytes(of: path) { withSegments(of: $0, body) }
    }

    /// The bounds live in a temporary allocation: on the stack for any realistic path.
    @inline(__always)
    static func withSegments<Result>(of bytes: UnsafeBufferPointer<UInt8>, _ body: (PathSegments) -> Result) -> Result {
        let slash = UInt8(ascii: "/")
        guard let first = bytes.firstIndex(of: slash) else {
            return body(PathSegments(bytes: bytes, bounds: UnsafeBufferPointer(start: nil, count: 0)))
        }
        var separators = 0
        for offset in first..<bytes.count where bytes[offset] == slash { separators += 1 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: separators + 1) { bounds in
            var count = 0
            for offset in first..<bytes.count where bytes[offset] == slash {
                bounds[count] = offset
                count += 1
            }
            bounds[count] = bytes.count
            return body(PathSegments(bytes: bytes, bounds: UnsafeBufferPointer(bounds)))
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Byte-wise equality: paths compare as HTTP sends them, by their (percent-decoded) UTF-8.
    func bytesEqual(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in 0..<count where self[index] != other[index] { return false }
        return true
    }

    func slice(_ start: Int32, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[Int(start)..<Int(start + count)])
    }
}
