// Quiet stores: a typed store into a slot whose change the context has already recorded.
import KeyValueCoding
import KeyValueObserving

extension ManagedObject {
    /// Whether a typed store into `slot` may skip the change seam's listeners: the context
    /// recorded the slot's change for the current event and the next save (its committed value,
    /// its value at the event's start, the object in the updated set and in the event; see
    /// ``quietSlots``), no key-value observer watches the object, and the calling thread may
    /// use the context. The object's own hooks still run (they tell Swift's Observation).
    ///
    /// Inlined into every typed setter: a bit test, two loads and, while the context is inside
    /// an operation, a thread identity check.
    @inlinable @inline(__always)
    func storesQuietly(slot: Int) -> Bool {
        slot < 64 && quietSlots & (1 &<< UInt64(truncatingIfNeeded: slot)) != 0 && quietStoreIsAdmitted
    }

    /// ``storesQuietly(slot:)`` once the slot's bit in ``quietSlots`` was found on: no
    /// key-value observer watches the object, and the calling thread may use the context.
    @inlinable @inline(__always)
    var quietStoreIsAdmitted: Bool {
        guard let confinement = quietConfinement else { return false }
        // Any observer list (an observer of any key, a dependent key, a key-path chain through
        // the object) needs the full notification.
        // Unretained: the object holds its state, and the caller keeps the object alive.
        if let storage = unmanagedObservationStorage, storage._withUnsafeGuaranteedRef({ $0.hasObserverLists }) {
            return false
        }
        return confinement._withUnsafeGuaranteedRef { $0.admitsQuietChange }
    }

    /// Begins a notified change of attribute `slot` that only the object's context hears (no
    /// key-value observer watches the object; see
    /// ``ManagedObjectContext/beginQuietAttributeChange(of:slot:key:)``): the context records
    /// the change directly, without the change seam. After a context is returned, store the
    /// value and call its ``ManagedObjectContext/endQuietAttributeChange(of:slot:key:)``.
    ///
    /// - Returns: The object's context, or `nil` (nothing done) when the change must take the
    ///   full way: observers, no context, an undo manager, a relationship…
    @inlinable @inline(__always)
    func beginQuietChange(slot: Int, key: String) -> ManagedObjectContext? {
        // An object never registered has no context: no call (a store outside a context pays
        // one field load for this way).
        guard registrationSequence != 0 else { return nil }
        return beginRegisteredQuietChange(slot: slot, key: key)
    }

    /// ``beginQuietChange(slot:key:)`` of an object registered in a context at some time.
    @usableFromInline @inline(never)
    func beginRegisteredQuietChange(slot: Int, key: String) -> ManagedObjectContext? {
        // Unretained: the object holds its state, and the caller keeps the object alive.
        if let storage = unmanagedObservationStorage, storage._withUnsafeGuaranteedRef({ $0.hasObserverLists }) {
            return nil
        }
        guard let context = managedObjectContext,
              context.beginQuietAttributeChange(of: self, slot: slot, key: key) else { return nil }
        return context
    }

    /// Stores into `slot` by key-value coding (`store` stores the converted value) as a
    /// notified change, the short way when only the object's context listens: a quiet store
    /// when the context recorded the slot's change already (``storesQuietly(slot:)``), else a
    /// quiet change (``beginQuietChange(slot:key:)``); otherwise the full way: the will-change
    /// and did-change notifications delivered around the store, as `changingValue(forKey:_:)`
    /// delivers them around a store that cannot fail, but inlined (no generic call through the
    /// protocol, no closure context).
    @inline(__always)
    func changeSlot(_ slot: Int, key: String, _ store: () -> Void) {
        if storesQuietly(slot: slot) {
            keyValueWillChange(KeyValueChangeEvent(.willChange, key: key))
            store()
            keyValueDidChange(KeyValueChangeEvent(.didChange, key: key))
        } else if let context = beginQuietChange(slot: slot, key: key) {
            store()
            context.endQuietAttributeChange(of: self, slot: slot, key: key)
        } else if changesReachNobody {
            store()
        } else {
            deliverKeyValueChange(KeyValueChangeEvent(.willChange, key: key))
            store()
            deliverKeyValueChange(KeyValueChangeEvent(.didChange, key: key))
        }
    }

    /// Whether a change of the object has nobody to tell: it was never registered in a context,
    /// it is of the generic class (no subclass can have overridden the change hooks), no
    /// key-value observer or change sink listens, and Swift's Observation tracks none of its
    /// slots. A store by key-value coding then only stores (what the full way would do
    /// after finding nobody to notify).
    @inline(__always)
    var changesReachNobody: Bool {
        guard registrationSequence == 0, type(of: self) == ManagedObject.self else { return false }
        if observationTracking != nil, layout.anySlotMayBeTracked { return false }
        // No state yet: nobody ever observed the object or gave it a sink.
        guard let storage = unmanagedObservationStorage else { return true }
        return !storage._withUnsafeGuaranteedRef { $0.mayHaveListeners }
    }

    /// Whether the object is in none of its context's change sets and has no recorded values
    /// (``committedRecord``, ``eventRecord``): of what ``forgetChangeRecords()`` forgets, only
    /// the quiet stores can be left.
    @inline(__always)
    package var holdsNoChangeRecords: Bool {
        changeSetMembership.isEmpty && committedRecord == nil && eventRecord == nil
    }

    /// Ends the object's quiet stores (``quietSlots``, ``quietConfinement``).
    @inline(__always)
    package func forgetQuietStores() {
        quietSlots = 0
        quietConfinement = nil
    }

    /// Forgets what the context recorded about the object's changes (it leaves the context,
    /// or the context forgets every change).
    package func forgetChangeRecords() {
        committedRecord = nil
        eventRecord = nil
        forgetQuietStores()
    }
}
