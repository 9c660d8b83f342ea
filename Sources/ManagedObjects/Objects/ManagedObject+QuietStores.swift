// Quiet stores: a typed store into a slot whose change the context has already recorded.
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
        guard slot < 64, quietSlots & (1 &<< UInt64(truncatingIfNeeded: slot)) != 0,
              let confinement = quietConfinement else { return false }
        // Any observer list (an observer of any key, a dependent key, a key-path chain through
        // the object) needs the full notification.
        // Unretained: the state is a stored `let` of the object, which the caller keeps alive.
        guard let storage = keyValueObservationStorage.map(Unmanaged.passUnretained),
              !storage._withUnsafeGuaranteedRef({ $0.hasObserverLists }) else { return false }
        return confinement._withUnsafeGuaranteedRef { $0.admitsQuietChange }
    }

    /// Forgets what the context recorded about the object's changes (it leaves the context,
    /// or the context forgets every change).
    package func forgetChangeRecords() {
        committedRecord = nil
        eventRecord = nil
        quietSlots = 0
        quietConfinement = nil
    }
}
