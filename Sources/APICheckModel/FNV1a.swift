/// FNV-1a, 64-bit (Fowler–Noll–Vo), for fingerprints and shard assignment that must be the same
/// on every machine and in every process. Swift's `Hasher` is seeded per process; these values
/// only need stability, not resistance to deliberate collisions, so no cryptographic hash is
/// needed (or hand-written). Changing the algorithm would invalidate every baseline.
package enum FNV1a {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The 64-bit FNV-1a hash of `bytes`.
    package static func hash64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    /// The 64-bit FNV-1a hash of `bytes` as 16 lower-case hex digits (zero-padded).
    package static func hexDigest<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let hash = hash64(bytes)
        let output = stride(from: 60, through: 0, by: -4).map { digits[Int(truncatingIfNeeded: (hash >> UInt64($0)) & 0xF)] }
        return String(decoding: output, as: UTF8.self)
    }
}
