// Whether a native Swift object may have a strong owner besides one, read from its inline
// reference-count word without a runtime call, checked against the runtime once per process.

/// Reads whether a native Swift object is held by more than one strong reference from its
/// inline reference-count word, as `isKnownUniquelyReferenced` answers but without its runtime
/// call (a check that runs on every change of a managed object checks several objects).
///
/// The word is the object's second (64-bit platforms): its top bit marks a side table (the
/// object has or had weak references; the count is kept there) and the 30 bits below it, from
/// bit 33, count the strong references beyond the first. Both zero: exactly one strong
/// reference. Anything else, a side table included, reads as "maybe more than one", which is
/// never wrong for a caller that only skips work when the object is known to be unique.
///
/// ``inlineReadsHold`` checks these facts on probe objects against `isKnownUniquelyReferenced`
/// once; where they do not hold (another platform, another runtime), ``mayHaveOtherOwners(_:)``
/// is not to be used (callers fall back to `isKnownUniquelyReferenced`).
///
/// `@usableFromInline` and inlinable: a package type's inlinable members are not inlined in
/// other modules otherwise, and the read must be a load, not a call.
///
/// Thread safety: the read is one aligned word load of a word other threads change atomically
/// (as the runtime's own check); the caller must keep the object alive.
@usableFromInline
package enum StrongReferenceCount {
    /// Whether ``mayHaveOtherOwners(_:)`` answers as `isKnownUniquelyReferenced` on this
    /// runtime: checked once, on probe objects held once, twice and weakly.
    package static let inlineReadsHold: Bool = verify()

    /// Whether the object at `address` (a native Swift object the caller keeps alive) may be
    /// held by another strong reference, or keeps its counts in a side table. `false`: exactly
    /// one strong reference holds it. Valid only where ``inlineReadsHold``.
    @inlinable @inline(__always)
    package static func mayHaveOtherOwners(_ address: UnsafeRawPointer) -> Bool {
        address.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) &>> 33 != 0
    }

    /// Checks the inline reads against the runtime on probe objects.
    private static func verify() -> Bool {
        guard MemoryLayout<UInt>.size == 8 else { return false }
        var probe = CountProbe()
        // Read by address: passing the object itself may hold it once more for the call.
        let address = UnsafeRawPointer(Unmanaged.passUnretained(probe).toOpaque())
        // Held once: unique, and the inline read says so.
        guard isKnownUniquelyReferenced(&probe), !mayHaveOtherOwners(address) else { return false }
        // Held twice (and three times): not unique, and the inline read says so.
        let second = Unmanaged.passRetained(probe)
        let twice = !isKnownUniquelyReferenced(&probe) && mayHaveOtherOwners(address)
        let third = Unmanaged.passRetained(probe)
        let thrice = !isKnownUniquelyReferenced(&probe) && mayHaveOtherOwners(address)
        third.release()
        second.release()
        guard twice, thrice, isKnownUniquelyReferenced(&probe), !mayHaveOtherOwners(address) else { return false }
        // Also weakly referenced (its counts may move to a side table): held twice, never read
        // as unique.
        weak let weakReference = probe
        let strong = Unmanaged.passRetained(probe)
        let sharedWithWeak = mayHaveOtherOwners(address) && !isKnownUniquelyReferenced(&probe)
        strong.release()
        withExtendedLifetime(weakReference) {}
        withExtendedLifetime(probe) {}
        return sharedWithWeak
    }
}

/// A plain native object for ``StrongReferenceCount``'s check.
private final class CountProbe {
    var value = 0
}
