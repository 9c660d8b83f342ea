import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// The observation state (``KeyValueObservationStorage``) of every observed object that does not
/// keep its own, by object.
///
/// Entries are keyed by `ObjectIdentifier` and validated by a weak reference, because the
/// address of a released object can be reused by a new one. Entries of released objects are
/// removed by a sweep that runs when the table has grown, and observer-object registrations
/// whose object is gone are ended then.
///
/// A notification on an object that has no entry takes no lock: the table keeps, per slot of a
/// small hash of object identities, a count of the entries in that slot, read atomically.
///
/// Thread safety: all state is behind one mutex (the counts are atomic); no user code runs
/// under it.
@usableFromInline
final class ObservationTable: Sendable {
    @usableFromInline static let shared = ObservationTable()

    /// `@unchecked Sendable`: the weak reference is only loaded (atomically) to compare
    /// identities, never used to call the object; the storage is Sendable.
    ///
    /// A class, so that reading an entry out of the dictionary retains it rather than copying
    /// (and then destroying) a weak reference.
    private final class Entry: @unchecked Sendable {
        weak var object: AnyObject?
        let storage: KeyValueObservationStorage

        init(object: AnyObject, storage: KeyValueObservationStorage) {
            self.object = object
            self.storage = storage
        }
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepThreshold = 64
    }

    private let state = Mutex(State())
    @usableFromInline static let slotCount = 4_096
    /// Per hash slot, how many entries it has.
    // Set once in `init`; the memory is reached only through atomics.
    @usableFromInline nonisolated(unsafe) let slots: UnsafeMutablePointer<Atomic<Int>>

    /// The address of ``shared``'s slot counts, published once the table exists (0 before:
    /// no object has an entry then).
    ///
    /// A global atomic with a constant initial value is initialised statically, so the check an
    /// unobserved object's notification makes goes through no lazy-initialisation guard
    /// (`swift_once`), which reaching `shared` would cost on every notification.
    @usableFromInline static let publishedSlots = Atomic<UInt>(0)

    private init() {
        slots = .allocate(capacity: Self.slotCount)
        for index in 0..<Self.slotCount { (slots + index).initialize(to: Atomic<Int>(0)) }
        Self.publishedSlots.store(UInt(bitPattern: slots), ordering: .releasing)
    }

    /// Whether `object` may have an entry: its slot's count, read without a lock and without
    /// touching ``shared`` (false, at once, before the table exists).
    @inlinable @inline(__always)
    static func mayHaveEntry(_ identifier: ObjectIdentifier) -> Bool {
        let base = publishedSlots.load(ordering: .acquiring)
        guard base != 0 else { return false }
        let counts = UnsafeMutablePointer<Atomic<Int>>(bitPattern: base).unsafelyUnwrapped
        return counts[slot(of: identifier)].load(ordering: .acquiring) > 0
    }

    @inlinable @inline(__always)
    static func slot(of identifier: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: identifier)
        return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 16)) & (slotCount - 1)
    }

    /// The state of `object`, when it has an entry. Takes no lock when its slot is empty.
    @inlinable @inline(__always)
    func existingStorage(of object: AnyObject) -> KeyValueObservationStorage? {
        let identifier = ObjectIdentifier(object)
        guard slots[Self.slot(of: identifier)].load(ordering: .acquiring) > 0 else { return nil }
        return lockedStorage(of: object, identifier: identifier)
    }

    /// ``existingStorage(of:)`` of the shared table, reaching it only when `object`'s slot
    /// has entries (see ``publishedSlots``).
    @inlinable @inline(__always)
    static func existingSharedStorage(of object: AnyObject) -> KeyValueObservationStorage? {
        let identifier = ObjectIdentifier(object)
        guard mayHaveEntry(identifier) else { return nil }
        return shared.lockedStorage(of: object, identifier: identifier)
    }

    @usableFromInline @inline(never)
    func lockedStorage(of object: AnyObject, identifier: ObjectIdentifier) -> KeyValueObservationStorage? {
        state.withTrackedLock(self) { state in
            guard let entry = state.entries[identifier], entry.object === object else { return nil }
            return entry.storage
        }
    }

    /// The state of `object` for removing an observer, also while `object` runs its `deinit`.
    ///
    /// A weak reference to an object reads `nil` once its `deinit` has started, so an entry
    /// whose reference is `nil` is taken as `object`'s: the caller holds `object`, so its
    /// address cannot belong to a newer object yet. (The entry may also be that of an older,
    /// released object at the same address that was not swept yet; its registrations are
    /// ended anyway, and only an observer registered there and never removed could match.)
    func storageForRemoval(of object: AnyObject) -> KeyValueObservationStorage? {
        let identifier = ObjectIdentifier(object)
        guard slots[Self.slot(of: identifier)].load(ordering: .acquiring) > 0 else { return nil }
        return state.withTrackedLock(self) { state in
            guard let entry = state.entries[identifier] else { return nil }
            let current = entry.object
            return current == nil || current === object ? entry.storage : nil
        }
    }

    /// The state of `object`, created on first use.
    func storage(of object: AnyObject) -> KeyValueObservationStorage {
        let identifier = ObjectIdentifier(object)
        var ended: [Registration] = []
        let storage = state.withTrackedLock(self) { state -> KeyValueObservationStorage in
            if state.entries.count >= state.sweepThreshold { ended = sweep(&state) }
            if let entry = state.entries[identifier] {
                if entry.object === object { return entry.storage }
                // The address of a released object, reused.
                ended += entry.storage.takeAllObserverRegistrations()
                slots[Self.slot(of: identifier)].subtract(1, ordering: .releasing)
            }
            let entry = Entry(object: object, storage: KeyValueObservationStorage())
            state.entries[identifier] = entry
            slots[Self.slot(of: identifier)].add(1, ordering: .releasing)
            return entry.storage
        }
        for registration in ended { registration.invalidate() }
        return storage
    }

    /// Removes the entries of released objects now. Returns how many entries remain.
    @discardableResult
    func sweepNow() -> Int {
        let (ended, count) = state.withTrackedLock(self) { state in (sweep(&state), state.entries.count) }
        for registration in ended { registration.invalidate() }
        return count
    }

    /// How many of the objects named by `identifiers` still have an entry whose object was
    /// released (for tests: after `sweepNow()` there should be none).
    func releasedEntryCount(among identifiers: Set<ObjectIdentifier>) -> Int {
        state.withTrackedLock(self) { state in
            identifiers.count { identifier in state.entries[identifier].map { $0.object == nil } ?? false }
        }
    }

    private func sweep(_ state: inout State) -> [Registration] {
        var ended: [Registration] = []
        state.entries = state.entries.filter { identifier, entry in
            if entry.object != nil { return true }
            ended += entry.storage.takeAllObserverRegistrations()
            slots[Self.slot(of: identifier)].subtract(1, ordering: .releasing)
            return false
        }
        state.sweepThreshold = max(64, state.entries.count * 2)
        return ended
    }
}

extension KeyObservers {
    /// Makes the list for `key` of `object`, attached to the storage of an `@Observed`
    /// property when the key is one.
    static func make(for object: AnyObject, key: String, in owner: KeyValueObservationStorage) -> KeyObservers {
        guard let codable = object as? any KeyValueCodable else {
            return KeyObservers(key: key, notifiesAutomatically: false, valueIsOptional: false, owner: owner)
        }
        let type = type(of: codable)
        let property = KeyValueKeyTable.of(object: codable).property(forKey: key)
        let dependencies = DependencyCache.keyPaths(affecting: key, of: object)
        if case .wrapped(let offset, let wrapperType)? = property?.storage,
           let observedType = wrapperType as? any ObservedStorage.Type {
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
            if let existing = observedType.attachedObservers(at: address) { return existing }
            let list = KeyObservers(key: key, notifiesAutomatically: type.automaticallyNotifiesObservers(forKey: key),
                                    valueIsOptional: property?.isOptional ?? false, storageOffset: offset,
                                    dependencyKeyPaths: dependencies, owner: owner)
            observedType.attach(list, at: address)
            return list
        }
        return KeyObservers(key: key, notifiesAutomatically: type.automaticallyNotifiesObservers(forKey: key),
                            valueIsOptional: property?.isOptional ?? false, dependencyKeyPaths: dependencies,
                            owner: owner)
    }
}

/// Storage that can hold a key's observer list: the `@Observed` wrapper.
protocol ObservedStorage {
    static func attachedObservers(at address: UnsafeMutableRawPointer) -> KeyObservers?
    static func attach(_ observers: KeyObservers, at address: UnsafeMutableRawPointer)
}

/// Per type and key, the key paths that affect the key, as the type declares them.
enum DependencyCache {
    private struct CacheKey: Hashable {
        var type: ObjectIdentifier
        var key: String
    }

    private static let cache = Mutex<[CacheKey: [String]]>([:])

    static func keyPaths(affecting key: String, of object: AnyObject) -> [String] {
        guard let type = type(of: object) as? any KeyValueObservable.Type else { return [] }
        let cacheKey = CacheKey(type: ObjectIdentifier(type), key: key)
        if let cached = cache.withTrackedLock(ThreadSanitizer.staticOwner, { $0[cacheKey] }) { return cached }
        let found = type.keyPathsForValuesAffectingValue(forKey: key).sorted()
        cache.withTrackedLock(ThreadSanitizer.staticOwner) { $0[cacheKey] = found }
        return found
    }
}
