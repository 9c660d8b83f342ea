import KeyValueCoding
import Synchronization

/// Maps the storage key path of an `@Observed` property (`\Person._age`) to the byte offset of
/// that storage inside the instance, so the property wrapper can reach its storage directly.
///
/// Key path application through the runtime costs far more than a store; the compiler passes
/// the same key path object on every access to a property, so a small direct-mapped table keyed
/// by that object's address finds the offset in a few nanoseconds. The offset itself comes from
/// key-value coding's reflection (the storage field's name is in the key path's description).
///
/// Thread safety: slots are atomics pointing at immutable entries that are never freed; each
/// entry retains its key path so that its address cannot be reused.
@usableFromInline
enum StorageOffsetCache {
    /// `@unchecked Sendable`: both properties are immutable; key path objects are immutable.
    @usableFromInline
    final class Entry: @unchecked Sendable {
        @usableFromInline let keyPath: AnyKeyPath
        /// The byte offset, or -1 when the storage cannot be reached directly.
        @usableFromInline let offset: Int

        init(keyPath: AnyKeyPath, offset: Int) {
            self.keyPath = keyPath
            self.offset = offset
        }
    }

    @usableFromInline static let slotCount = 512
    @usableFromInline static let slots = AtomicSlots(count: slotCount)

    /// Returns the offset of the storage that `keyPath` names, or -1 when unknown.
    @inlinable @inline(__always)
    static func offset(of keyPath: AnyKeyPath, in type: any KeyValueCodable.Type) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(keyPath))
        let slot = Int(truncatingIfNeeded: address >> 4) & (slotCount - 1)
        let bits = slots.pointer[slot].load(ordering: .acquiring)
        if bits != 0 {
            // Entries are never freed, so no reference counting is needed to read one.
            let offset = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
                ._withUnsafeGuaranteedRef { $0.keyPath === keyPath ? $0.offset : Int.min }
            if offset != Int.min { return offset }
        }
        return lookUp(keyPath, in: type, slot: slot)
    }

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    @usableFromInline @inline(never)
    static func lookUp(_ keyPath: AnyKeyPath, in type: any KeyValueCodable.Type, slot: Int) -> Int {
        let identifier = ObjectIdentifier(keyPath)
        let entry = entries.withTrackedLock(ThreadSanitizer.staticOwner) { table -> Entry in
            if let existing = table[identifier] { return existing }
            let entry = Entry(keyPath: keyPath, offset: findOffset(keyPath, in: type))
            table[identifier] = entry
            return entry
        }
        // Entries are retained by `entries` forever, so publishing an unretained pointer is safe.
        slots.pointer[slot].store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
                                  ordering: .releasing)
        return entry.offset
    }

    private static func findOffset(_ keyPath: AnyKeyPath, in type: any KeyValueCodable.Type) -> Int {
        let description = keyPath.debugDescription
        guard !description.contains("<computed"), let dot = description.lastIndex(of: ".") else { return -1 }
        let field = description[description.index(after: dot)...]
        guard field.hasPrefix("_") else { return -1 }
        let key = String(field.dropFirst())
        guard case .wrapped(let offset, _)? = KeyValueClassDescription.of(type).property(forKey: key)?.storage else {
            return -1
        }
        return offset
    }
}

/// A fixed table of atomic words, allocated once and never freed.
@usableFromInline
final class AtomicSlots: Sendable {
    // The pointer is immutable and the memory it points to is only reached through atomics.
    @usableFromInline nonisolated(unsafe) let pointer: UnsafeMutablePointer<Atomic<UInt>>

    init(count: Int) {
        pointer = .allocate(capacity: count)
        for i in 0..<count { (pointer + i).initialize(to: Atomic<UInt>(0)) }
    }
}
