// Cheap hashing of identities and integer keys for the standard library's hashed collections.

/// Hash values for keys that are already well distributed words (an object's address, an
/// integer primary key): a 64-bit mix instead of a SipHash round trip through `Hasher`.
///
/// A `Set` or `Dictionary` asks an element for `_rawHashValue(seed:)` on every insertion, look-up
/// and resize; for a key that hashes one or two words, `Hasher`'s set-up and finalisation are
/// most of the cost. Types whose keys are such words answer it with ``mix(_:seed:)``: the
/// collection's per-instance seed is mixed in first, so two collections still order the same
/// elements differently (what keeps copying one set into another linear), and equal inputs
/// give equal hashes.
///
/// - Important: Not a keyed hash: use it only for keys an attacker cannot choose freely to
///   collide (identities, counters, keys a store hands out); other keys keep `Hasher`.
package enum IdentityHashing {
    /// Mixes `word` with `seed` (the finaliser of SplitMix64: every input bit reaches every
    /// output bit, and distinct inputs of one seed give distinct outputs).
    @inlinable @inline(__always)
    package static func mix(_ word: UInt64, seed: Int) -> Int {
        var x = word ^ (UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: x ^ (x &>> 31))
    }

    /// Mixes two words (`first` is multiplied before it is combined, so swapped words differ).
    @inlinable @inline(__always)
    package static func mix(_ first: UInt64, _ second: UInt64, seed: Int) -> Int {
        mix((first &* 0xFF51_AFD7_ED55_8CCD) ^ second, seed: seed)
    }
}
