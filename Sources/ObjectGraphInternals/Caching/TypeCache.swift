import Synchronization

/// An entry of a ``TypeCache``: knows the type it was built for.
@usableFromInline
package protocol TypeCacheEntry: AnyObject, Sendable {
    /// The type the entry describes.
    var cachedType: Any.Type { get }
}

/// A thread-safe cache of one immutable object per type, for lookups on hot paths.
///
/// Lookups first try a direct-mapped table of atomic slots (one acquiring load and a compare,
/// no lock); on a miss they take a `Mutex` around a dictionary, building the entry when it is
/// missing. Entries are never removed, like the types they describe, so the slots can hold
/// unretained pointers safely. Both paths are announced to the thread sanitizer.
///
/// Thread safety: thread-safe.
///
/// `@usableFromInline` as well as `package`: with this toolchain the `@inlinable` members of a
/// `package` type are inlined into other modules only when the type itself is
/// `@usableFromInline` (otherwise every lookup is a call into the unspecialised generic).
@usableFromInline
package final class TypeCache<Entry: TypeCacheEntry>: Sendable {
    @usableFromInline static var slotCount: Int { 512 }
    // The pointer is set once in `init` and the memory behind it is reached only through atomics.
    @usableFromInline nonisolated(unsafe) let slots: UnsafeMutablePointer<Atomic<UInt>>
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    package init() {
        slots = .allocate(capacity: Self.slotCount)
        for i in 0..<Self.slotCount { (slots + i).initialize(to: Atomic<UInt>(0)) }
    }

    /// Returns the entry for `type`, calling `build` (outside the lock) when there is none yet.
    @inlinable @inline(__always)
    package func entry(for type: Any.Type, build: (Any.Type) -> Entry) -> Entry {
        unmanagedEntry(for: type, build: build).takeUnretainedValue()
    }

    /// The entry for `type`, unretained: entries live as long as the process, so a hot path can
    /// use it through `_withUnsafeGuaranteedRef` without reference counting.
    ///
    /// Inlinable, so that the hit path (a hash of the metadata address, one load, one compare)
    /// is specialised and inlined where it is used, in every module.
    @inlinable @inline(__always)
    package func unmanagedEntry(for type: Any.Type, build: (Any.Type) -> Entry) -> Unmanaged<Entry> {
        let identifier = ObjectIdentifier(type)
        let bits = UInt(bitPattern: identifier)  // metadata address: no hashing needed
        let slot = Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 13)) & (Self.slotCount - 1)
        let stored = slots[slot].load(ordering: .acquiring)
        if stored != 0 {
            // The sanitizer cannot see the atomic's ordering: tell it about the publication.
            ThreadSanitizer.announceAcquire(UnsafeMutableRawPointer(bitPattern: stored))
            let cached = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: stored)!)
            if cached._withUnsafeGuaranteedRef({ ObjectIdentifier($0.cachedType) }) == identifier { return cached }
        }
        return Unmanaged.passUnretained(slowEntry(for: type, slot: slot, build: build))
    }

    @usableFromInline @inline(never)
    func slowEntry(for type: Any.Type, slot: Int, build: (Any.Type) -> Entry) -> Entry {
        let identifier = ObjectIdentifier(type)
        let entry: Entry
        if let existing = entries.withTrackedLock(self, { $0[identifier] }) {
            entry = existing
        } else {
            let built = build(type)  // outside the lock: building may run user code
            entry = entries.withTrackedLock(self) { table in
                if let existing = table[identifier] { return existing }
                table[identifier] = built
                return built
            }
        }
        // `entries` keeps the entry alive for the life of the process.
        let address = Unmanaged.passUnretained(entry).toOpaque()
        ThreadSanitizer.announceRelease(address)
        slots[slot].store(UInt(bitPattern: address), ordering: .releasing)
        return entry
    }
}
