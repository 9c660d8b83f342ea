import KeyValueCoding
import ObjectGraphInternals
import Synchronization

/// Every observed object's observer lists, by object and key.
///
/// Entries are keyed by `ObjectIdentifier` and validated by a weak reference, because the
/// address of a released object can be reused by a new one. Entries of released objects are
/// removed by a sweep that runs when the table has grown, and observer-object registrations
/// whose object is gone are ended then.
///
/// Thread safety: all state is behind one mutex; no user code runs under it except
/// `automaticallyNotifiesObservers(forKey:)` while a list is first created.
final class ObservationTable: Sendable {
    static let shared = ObservationTable()

    /// `@unchecked Sendable`: the weak reference is only loaded (atomically) to compare
    /// identities, never used to call the object; the other members are Sendable.
    private struct Entry: @unchecked Sendable {
        weak var object: AnyObject?
        var lists: [String: KeyObservers] = [:]
        /// Registrations made with `addObserver(_:forKeyPath:options:context:)`, newest last.
        var observerRegistrations: [Registration] = []
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepThreshold = 64
    }

    private let state = Mutex(State())
    /// The number of entries, read without the lock to skip the table when nothing is observed.
    private let entryCount = Atomic<Int>(0)

    /// Returns the list for `key` of `object`, creating it (and attaching it to an `@Observed`
    /// property's storage) on first use.
    func observers(of object: AnyObject, key: String) -> KeyObservers {
        let identifier = ObjectIdentifier(object)
        var ended: [Registration] = []
        let list = state.withTrackedLock(self) { state -> KeyObservers in
            if state.entries.count >= state.sweepThreshold { ended = sweep(&state) }
            var entry = state.entries[identifier] ?? Entry(object: object)
            if entry.object !== object {
                ended += entry.observerRegistrations
                entry = Entry(object: object)
            }
            if let existing = entry.lists[key] { return existing }
            let list = Self.makeList(for: object, key: key)
            entry.lists[key] = list
            state.entries[identifier] = entry
            entryCount.store(state.entries.count, ordering: .relaxed)
            return list
        }
        for registration in ended { registration.invalidate() }
        return list
    }

    /// Returns the list for `key` of `object` when someone has observed it.
    func existingObservers(of object: AnyObject, key: String) -> KeyObservers? {
        guard entryCount.load(ordering: .relaxed) > 0 else { return nil }
        let identifier = ObjectIdentifier(object)
        return state.withTrackedLock(self) { state in
            guard let entry = state.entries[identifier], entry.object === object else { return nil }
            return entry.lists[key]
        }
    }

    /// Remembers an observer-object registration so that `removeObserver` can find it.
    func addObserverRegistration(_ registration: Registration, on object: AnyObject) {
        let identifier = ObjectIdentifier(object)
        state.withTrackedLock(self) { state in
            guard var entry = state.entries[identifier], entry.object === object else { return }
            entry.observerRegistrations.append(registration)
            state.entries[identifier] = entry
        }
    }

    /// Finds and forgets the newest observer-object registration matching the arguments
    /// (any context when `context` is nil).
    func takeObserverRegistration(on object: AnyObject, observer: ObjectIdentifier,
                                  keyPath: String, context: UInt?) -> Registration? {
        let identifier = ObjectIdentifier(object)
        return state.withTrackedLock(self) { state in
            guard var entry = state.entries[identifier], entry.object === object,
                  let position = entry.observerRegistrations.lastIndex(where: {
                      $0.observerIdentity == observer && $0.keyPath == keyPath
                          && (context == nil || $0.context == context)
                  }) else { return nil }
            let registration = entry.observerRegistrations.remove(at: position)
            state.entries[identifier] = entry
            return registration
        }
    }

    /// Called when a registration ends; forgets it if it was an observer-object registration.
    func registrationEnded(_ registration: Registration) {
        guard registration.observerIdentity != nil, let root = registration.root else { return }
        let identifier = ObjectIdentifier(root)
        state.withTrackedLock(self) { state in
            guard var entry = state.entries[identifier], entry.object === root else { return }
            entry.observerRegistrations.removeAll { $0 === registration }
            state.entries[identifier] = entry
        }
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
        state.entries = state.entries.filter { _, entry in
            if entry.object != nil { return true }
            ended += entry.observerRegistrations
            return false
        }
        state.sweepThreshold = max(64, state.entries.count * 2)
        entryCount.store(state.entries.count, ordering: .relaxed)
        return ended
    }

    private static func makeList(for object: AnyObject, key: String) -> KeyObservers {
        guard let codable = object as? any KeyValueCodable else {
            return KeyObservers(key: key, notifiesAutomatically: false, valueIsOptional: false)
        }
        let type = type(of: codable)
        let property = KeyValueKeyTable.of(object: codable).property(forKey: key)
        if case .wrapped(let offset, let wrapperType)? = property?.storage,
           let observedType = wrapperType as? any ObservedStorage.Type {
            let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
            if let existing = observedType.attachedObservers(at: address) { return existing }
            let list = KeyObservers(key: key, notifiesAutomatically: type.automaticallyNotifiesObservers(forKey: key),
                                    valueIsOptional: property?.isOptional ?? false, storageOffset: offset)
            observedType.attach(list, at: address)
            return list
        }
        return KeyObservers(key: key, notifiesAutomatically: type.automaticallyNotifiesObservers(forKey: key),
                            valueIsOptional: property?.isOptional ?? false)
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
