// SHA-256 (FIPS 180-4), written from the standard: Linux has no CryptoKit, and the version
// hashes of managed object models must be byte-for-byte SHA-256.

/// An incremental SHA-256 digest (FIPS 180-4, section 6.2).
///
/// ```swift
/// var sha = SHA256Digest()
/// sha.update("abc".utf8)
/// let digest = sha.finalize()   // 32 bytes
/// ```
///
/// - Important: Thread safety: a value; use one instance from one thread at a time.
package struct SHA256Digest: Sendable {
    /// The digest size in bytes.
    package static let byteCount = 32

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    /// The message length so far, in bytes.
    private var length: UInt64 = 0

    /// A fresh digest (the initial hash value H(0) of FIPS 180-4 §5.3.3).
    package init() {
        pending.reserveCapacity(64)
    }

    /// The digest of `bytes` in one call.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.finalize()
    }

    /// Adds bytes to the message.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(buffer: UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update(buffer: $0) }
        }
    }

    private mutating func update(buffer: UnsafeRawBufferPointer) {
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + 64]))
            offset += 64
        }
        if offset < buffer.count { pending.append(contentsOf: buffer[offset...]) }
    }

    /// Adds `value` as `width` little-endian bytes (Core Data hashes raw integers this way).
    package mutating func update(littleEndian value: UInt64, width: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width)
        for i in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        update(bytes)
    }

    /// Pads the message (FIPS 180-4 §5.1.1) and returns the 32-byte digest. The value is
    /// consumed: call once.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
                offset += 64
            }
        }
        pending.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in words {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    /// The round constants K (FIPS 180-4 §4.2.2).
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Processes one 64-byte block (FIPS 180-4 §6.2.2).
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                let b0 = UInt32(block[4 * t]) << 24
                let b1 = UInt32(block[4 * t + 1]) << 16
                let b2 = UInt32(block[4 * t + 2]) << 8
                w[t] = b0 | b1 | b2 | UInt32(block[4 * t + 3])
            }
            for t in 16..<64 {
                let s0 = Self.rotr(w[t - 15], 7) ^ Self.rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = Self.rotr(w[t - 2], 17) ^ Self.rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let sigma1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ sigma1 &+ choose &+ k[t] &+ w[t]
                    let sigma0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = sigma0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                     state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }
}
