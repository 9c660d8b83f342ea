// The values a context records about its objects' changes, kept on the objects: committed
// values (since the last save) and event-start values (since the last processPendingChanges).
//
// Every change of a record goes through these methods, which also end the object's quiet
// stores (ManagedObject+QuietStores.swift): a quiet store relies on the records being complete.

extension ManagedObjectContext {
    // MARK: Committed values

    /// Records `value` as the committed value of `slot` unless one is recorded already (the
    /// first change of the slot since the last save).
    @inline(__always)
    package func recordCommittedValue(_ value: Any?, slot: Int, of object: ManagedObject) {
        if object.committedRecord == nil {
            object.committedRecord = SlotRecord(slotCount: object.layout.keys.count)
            committedHolders.insert(object)
        }
        object.committedRecord!.recordIfAbsent(value, at: slot)
    }

    /// The slots of `object` with a recorded committed value (the slots changed since the last
    /// save), ascending; empty when none.
    package func committedSlots(of object: ManagedObject) -> [Int] {
        object.committedRecord?.slots ?? []
    }

    /// Whether `slot` of `object` changed since the last save (has a recorded committed value).
    package func hasCommittedValue(of object: ManagedObject, slot: Int) -> Bool {
        object.committedRecord?.contains(slot) ?? false
    }

    /// Replaces the committed values recorded for `object` (none: the object has no changes).
    package func replaceCommittedValues(of object: ManagedObject, with values: [Int: Any?]) {
        guard !values.isEmpty else { return forgetCommittedValues(of: object) }
        object.committedRecord = SlotRecord(slotCount: object.layout.keys.count, recorded: values)
        object.quietSlots = 0
        committedHolders.insert(object)
    }

    /// Replaces the recorded committed value of `slot`, if one is recorded.
    package func updateCommittedValue(_ value: Any?, slot: Int, of object: ManagedObject) {
        guard object.committedRecord?.contains(slot) == true else { return }
        object.committedRecord!.record(value, at: slot)
        object.quietSlots = 0
    }

    /// Forgets the committed values recorded for `object`.
    package func forgetCommittedValues(of object: ManagedObject) {
        object.committedRecord = nil
        object.quietSlots = 0
        committedHolders.remove(object)
    }

    /// Forgets every recorded committed value (a save committed them, or a rollback restored
    /// them).
    package func forgetAllCommittedValues() {
        for object in committedHolders { object.committedRecord = nil }
        committedHolders.removeAll()
    }

    // MARK: Event-start values

    /// Records `value` as the value of `slot` at the start of the current event unless one is
    /// recorded already.
    @inline(__always)
    package func recordEventStartValue(_ value: Any?, slot: Int, of object: ManagedObject) {
        if object.eventRecord == nil {
            object.eventRecord = SlotRecord(slotCount: object.layout.keys.count)
            eventHolders.insert(object)
        }
        object.eventRecord!.recordIfAbsent(value, at: slot)
    }

    /// Forgets every value recorded at the start of the current event (the event ends).
    package func forgetAllEventStartValues() {
        for object in eventHolders { object.eventRecord = nil }
        eventHolders.removeAll()
    }

    // MARK: Quiet stores

    /// Lets later typed stores into `slot` of `object` in this event be quiet when nothing but
    /// the records they would repeat is left to do: an attribute slot (no inverse), notified
    /// automatically, with its change recorded (event start; committed value unless inserted),
    /// the object in the change sets, and no undo manager (every change would register an
    /// action).
    package func allowQuietStores(of object: ManagedObject, slot: Int) {
        guard slot < 64, undoManager == nil, pendingOldValues.isEmpty, maintenanceDepth == 0,
              object.layout.notifiesAutomatically[slot],
              object.eventRecord?.contains(slot) == true,
              inserted.contains(object)
                || ((updated.contains(object) || deleted.contains(object)) && object.committedRecord?.contains(slot) == true)
        else { return }
        // The membership bits say the object is this context's (an object is in the change
        // sets of one context at a time), without its weak context reference.
        object.quietConfinement = Unmanaged.passUnretained(confinement)
        object.quietSlots |= 1 << UInt64(slot)
    }

    /// Ends every quiet store: the next store of every object takes the full way.
    package func endQuietStores() {
        for object in eventHolders { object.quietSlots = 0 }
    }
}
