import KeyValueCoding
import ObjectGraphInternals

/// Finds an object's observation state (its own, or the table's) and delivers change
/// notifications: the one path every change takes.
///
/// Order for one change: the will-change hook, the change sink, the observers' prior
/// notifications; the change; then the change sink, the observers, the did-change hook.
@usableFromInline
enum ObservationCenter {
    /// The observation state of `object`, if it has any yet.
    @inlinable @inline(__always)
    static func existingStorage<Object: KeyValueObservable>(of object: Object) -> KeyValueObservationStorage? {
        if let own = object.keyValueObservationStorage { return own }
        return ObservationTable.existingSharedStorage(of: object)
    }

    /// The observation state of `object` for removing an observer, found also while the
    /// object runs its `deinit` (see ``ObservationTable/storageForRemoval(of:)``).
    static func storageForRemoval<Object: KeyValueObservable>(of object: Object) -> KeyValueObservationStorage? {
        if let own = object.keyValueObservationStorage { return own }
        return ObservationTable.shared.storageForRemoval(of: object)
    }

    /// The observation state of `object` (of any class), created in the table on first use
    /// unless the object keeps its own.
    static func storage(of object: AnyObject) -> KeyValueObservationStorage {
        if let keyValueObject = object as? KeyValueObject, keyValueObject.keepsOwnObservationStorage {
            return keyValueObject.makeOwnObservationStorage()
        }
        if let own = StorageLookup.ownStorage(of: object) {
            precondition(StorageLookup.ownStorage(of: object) === own,
                         "\(type(of: object)).keyValueObservationStorage returned a new storage on each access: "
                             + "make one per object and keep it (a stored `let`)")
            return own
        }
        return ObservationTable.shared.storage(of: object)
    }

    /// The observation state of `object` (of any class), if it has any yet.
    static func existingStorage(ofAny object: AnyObject) -> KeyValueObservationStorage? {
        if let own = StorageLookup.ownStorage(of: object) { return own }
        return ObservationTable.shared.existingStorage(of: object)
    }

    /// Delivers one change notification of `object` (see the type's discussion for the order).
    /// Inlined into the object's module, so that an object nobody observes pays for one load.
    @inlinable @inline(__always)
    static func deliver<Object: KeyValueObservable>(_ event: KeyValueChangeEvent, from object: Object) {
        if event.phase == .willChange { object.keyValueWillChange(event) }
        if let own = object.keyValueObservationStorage.map(Unmanaged.passUnretained) {
            // Two flag loads inline: an object keeping its own state that nobody listens to
            // pays no call. Unretained: the object holds its state, and the caller keeps the
            // object alive for the whole delivery (no retain and release per change).
            if own._withUnsafeGuaranteedRef({ $0.mayHaveListeners }) {
                deliverToListeners(event, from: object, unretainedStorage: own)
            }
        } else if ObservationTable.mayHaveEntry(ObjectIdentifier(object)) {
            deliverThroughTable(event, from: object)
        }
        if event.phase == .didChange { object.keyValueDidChange(event) }
    }

    /// ``deliver(_:from:)`` for a ``KeyValueObject``: its state is read unretained, without a
    /// getter call, and one that keeps its own state never looks in the table (no cast: the
    /// class is the generic constraint).
    @inlinable @inline(__always)
    static func deliver<Object: KeyValueObject>(_ event: KeyValueChangeEvent, fromKeyValueObject object: Object) {
        if event.phase == .willChange { object.keyValueWillChange(event) }
        if let own = object.unmanagedObservationStorage {
            if own._withUnsafeGuaranteedRef({ $0.mayHaveListeners }) {
                deliverToListeners(event, from: object, unretainedStorage: own)
            }
        } else if !object.keepsOwnObservationStorage && ObservationTable.mayHaveEntry(ObjectIdentifier(object)) {
            deliverThroughTable(event, from: object)
        }
        if event.phase == .didChange { object.keyValueDidChange(event) }
    }

    /// The rest of ``deliver(_:from:)`` for an object whose slot in the shared table has
    /// entries: kept out of line, so that the inlined check stays a few instructions.
    @usableFromInline @inline(never)
    static func deliverThroughTable<Object: KeyValueObservable>(_ event: KeyValueChangeEvent, from object: Object) {
        guard let storage = ObservationTable.shared.lockedStorage(of: object, identifier: ObjectIdentifier(object))
        else { return }
        deliverToListeners(event, from: object, storage: storage)
    }

    /// ``deliverToListeners(_:from:storage:)`` with the object's own state, unretained (see
    /// ``deliver(_:from:)``).
    @usableFromInline @inline(never)
    static func deliverToListeners<Object: KeyValueObservable>(
        _ event: KeyValueChangeEvent, from object: Object, unretainedStorage: Unmanaged<KeyValueObservationStorage>
    ) {
        unretainedStorage._withUnsafeGuaranteedRef { deliverToListeners(event, from: object, storage: $0) }
    }

    @usableFromInline @inline(never)
    static func deliverToListeners<Object: KeyValueObservable>(
        _ event: KeyValueChangeEvent, from object: Object, storage: KeyValueObservationStorage
    ) {
        if let sink = storage.sink {
            // A sink that changes the object from its callback counts toward the nesting
            // limit, as observers do.
            guard let depth = NotificationDepth.enter() else {
                KeyValueObservingDiagnostics.reportSuppressed(key: event.key, object: object)
                return
            }
            switch event.phase {
            case .willChange: sink.observedObject(object, willChange: event)
            case .didChange: sink.observedObject(object, didChange: event)
            }
            NotificationDepth.leave(depth)
        }
        guard let list = storage.existingObservers(key: event.key) else { return }
        switch event.phase {
        case .willChange:
            let mutation = event.setMutation.map { SetMutation(kind: $0.kind, objects: $0.objects) }
            list.willChange(object: object, kind: event.kind, indexes: event.indexes, setMutation: mutation)
        case .didChange:
            if event.isCancelled { list.cancelChange() } else { list.didChange(object: object) }
        }
    }
}

/// Per class, how to reach the observation state its instances keep themselves.
final class StorageLookup: TypeCacheEntry {
    let type: Any.Type
    @usableFromInline package var cachedType: Any.Type { type }
    let reader: OwnStorageReader?
    init(type: Any.Type) {
        self.type = type
        func make<T: KeyValueObservable>(_: T.Type) -> OwnStorageReader { TypedOwnStorageReader<T>() }
        reader = (type as? any KeyValueObservable.Type).map { make($0) }
    }

    /// The state `object` keeps itself, if its class is observable and keeps one.
    static func ownStorage(of object: AnyObject) -> KeyValueObservationStorage? {
        cache.unmanagedEntry(for: Swift.type(of: object)) { StorageLookup(type: $0) }
            ._withUnsafeGuaranteedRef { $0.reader?.storage(of: object) }
    }

    private static let cache = TypeCache<StorageLookup>()
}

/// Reads the state an instance keeps; one subclass per observable class.
class OwnStorageReader: @unchecked Sendable {
    // @unchecked: no stored state.
    func storage(of object: AnyObject) -> KeyValueObservationStorage? { nil }
}

final class TypedOwnStorageReader<T: KeyValueObservable>: OwnStorageReader, @unchecked Sendable {
    // @unchecked: no stored state.
    override func storage(of object: AnyObject) -> KeyValueObservationStorage? {
        // Lookups are per exact class, so the instance is a `T`.
        unsafeDowncast(object, to: T.self).keyValueObservationStorage
    }
}
