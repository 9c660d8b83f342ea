import Synchronization

/// An entry of a ``TypeCache``: knows the type it was built for.
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
package final class TypeCache<Entry: TypeCacheEntry>: Sendable {
    private let slotCount = 512
    // The pointer is set once in `init` and the memory behind it is reached only through atomics.
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<UInt>>
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    package init() {
        slots = .allocate(capacity: slotCount)
        for i in 0..<slotCount { (slots + i).initialize(to: Atomic<UInt>(0)) }
    }

    /// Returns the entry for `type`, calling `build` (outside the lock) when there is none yet.
    @inline(__always)
    package func entry(for type: Any.Type, build: (Any.Type) -> Entry) -> Entry {
        unmanagedEntry(for: type, build: build).takeUnretainedValue()
    }

    /// The entry for `type`, unretained: entries live as long as the process, so a hot path can
    /// use it through `_withUnsafeGuaranteedRef` without reference counting.
    @inline(__always)
    package func unmanagedEntry(for type: Any.Type, build: (Any.Type) -> Entry) -> Unmanaged<Entry> {
        let identifier = ObjectIdentifier(type)
        let bits = UInt(bitPattern: identifier)  // metadata address: no hashing needed
        let slot = Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 13)) & (slotCount - 1)
        let stored = slots[slot].load(ordering: .acquiring)
        if stored != 0 {
            // The sanitizer cannot see the atomic's ordering: tell it about the publication.
            ThreadSanitizer.acquire?(UnsafeMutableRawPointer(bitPattern: stored))
            let cached = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: stored)!)
            if cached._withUnsafeGuaranteedRef({ ObjectIdentifier($0.cachedType) }) == identifier { return cached }
        }
        return Unmanaged.passUnretained(slowEntry(for: type, slot: slot, build: build))
    }

    @inline(never)
    private func slowEntry(for type: Any.Type, slot: Int, build: (Any.Type) -> Entry) -> Entry {
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
        ThreadSanitizer.release?(address)
        slots[slot].store(UInt(bitPattern: address), ordering: .releasing)
        return entry
    }
}
