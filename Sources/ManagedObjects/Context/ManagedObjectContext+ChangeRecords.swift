// The values a context records about its objects' changes, kept on the objects: committed
// values (since the last save) and event-start values (since the last processPendingChanges).
//
// Every change of a record goes through these methods, which also end the object's quiet
// stores (ManagedObject+QuietStores.swift): a quiet store relies on the records being complete.

import KeyValueCoding
import KeyValueObserving

extension ManagedObjectContext {
    // MARK: First changes

    /// Records `value`, the value of `slot` before a change of `object`, as its event-start
    /// value and, when `committing` (the object is not inserted), as its committed value, each
    /// unless one is recorded already. An object's first change since the last save and event
    /// makes one record of the one value for both (they share its storage until one of them
    /// records more).
    @inline(__always)
    package func recordOldValue(_ value: Any?, slot: Int, of object: ManagedObject, committing: Bool) {
        if committing, object.committedRecord == nil, object.eventRecord == nil {
            let record = SlotRecord.recordingFirst(value, at: slot)
            object.committedRecord = record
            object.eventRecord = record
            committedHolders.insert(object)
            eventHolders.insert(object)
            return
        }
        if committing { recordCommittedValue(value, slot: slot, of: object) }
        recordEventStartValue(value, slot: slot, of: object)
    }

    // MARK: Committed values

    /// Records `value` as the committed value of `slot` unless one is recorded already (the
    /// first change of the slot since the last save).
    @inline(__always)
    package func recordCommittedValue(_ value: Any?, slot: Int, of object: ManagedObject) {
        if object.committedRecord == nil {
            object.committedRecord = SlotRecord()
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
        object.committedRecord = SlotRecord(recorded: values)
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
            object.eventRecord = SlotRecord()
            eventHolders.insert(object)
        }
        object.eventRecord!.recordIfAbsent(value, at: slot)
    }

    /// Records the values of `object`, inserted in the current event, as its event-start
    /// values, every slot at once: what the first change of each slot in this event would
    /// record (its value at the insert). Its attribute slots that notify automatically then
    /// store quietly from their first store on (``allowQuietStores(of:slot:)``'s conditions,
    /// which an inserted object meets without committed values), until the event ends or the
    /// object's change sets change. Does nothing while a change could not be quiet (an undo
    /// manager, a change, restore or inverse maintenance in progress) or when the object
    /// already has a record.
    ///
    /// - Complexity: O(1) for an object whose values are all in its value array (the record
    ///   shares the array); else O(*n*) in its slots.
    package func recordInsertedEventStart(of object: ManagedObject) {
        let layout = object.layout
        guard layout.insertQuietSlots != 0, object.eventRecord == nil, !object.faultFlag, object.faultedRelationshipSlots == 0,
              pendingOldValues.isEmpty, maintenanceDepth == 0, !isRestoring, undoManager == nil else { return }
        let values: ContiguousArray<Any?>
        if layout.hasFields {
            var boxed = ContiguousArray<Any?>()
            boxed.reserveCapacity(layout.properties.count)
            for slot in layout.properties.indices { boxed.append(object.slotValue(slot)) }
            values = boxed
        } else if layout.isNewObjectValues(object.values), let own = layout.newObjectValuesCopiedBitwise() {
            // The object still shares the layout's new-object values: the record shares them,
            // and the object takes an array of its own, copied as memory, so that its first
            // store does not copy the shared array value by value.
            values = object.values
            object.values = own
        } else {
            values = object.values
        }
        object.eventRecord = SlotRecord(allSlots: values)
        // Before the quiet bits: a change of membership clears them.
        eventHolders.insert(object)
        object.quietConfinement = Unmanaged.passUnretained(confinement)
        object.quietSlots = layout.insertQuietSlots
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

    /// Begins a change of attribute `slot` of `object` that only this context hears,
    /// recording what the change seam's will-change would (``observedObject(_:willChange:)``:
    /// the committed value unless the object is inserted, the event-start value) without the
    /// seam, when nothing else would hear of it: no undo manager, no restore or inverse
    /// maintenance running, an attribute (no inverse) notified automatically, and the thread
    /// delivering no other notification (the caller checked that no key-value observer watches
    /// the object and that this is its context). Runs the object's will-change hook first, as
    /// the seam does. After `true`, store the value and call
    /// ``endQuietAttributeChange(of:slot:key:)``.
    ///
    /// - Returns: `false`, having done nothing, when the change must take the full way.
    package func beginQuietAttributeChange(of object: ManagedObject, slot: Int, key: String) -> Bool {
        guard undoManager == nil, !isRestoring, maintenanceDepth == 0,
              object.layout.slotTraits[slot].attributeType != nil, object.layout.notifiesAutomatically[slot],
              NotificationDepth.isIdle
        else { return false }
        object.keyValueWillChange(KeyValueChangeEvent(.willChange, key: key))
        // As the seam: entered from the will-change record to the did-change one.
        enterConfinement("a change of a managed object")
        object.changingSlotHint = slot
        recordOldValue(object.slotValue(slot), slot: slot, of: object, committing: !inserted.contains(object))
        return true
    }

    /// Ends a change begun by ``beginQuietAttributeChange(of:slot:key:)`` once the value is
    /// stored, recording what the seam's did-change would (``observedObject(_:didChange:)``:
    /// the updated sets; quiet stores of the slot from then on), then runs the object's
    /// did-change hook.
    @usableFromInline
    package func endQuietAttributeChange(of object: ManagedObject, slot: Int, key: String) {
        let isInsertedOrDeleted = inserted.contains(object) || deleted.contains(object)
        if !isInsertedOrDeleted && !updated.contains(object) { updated.insert(object) }
        // No undo manager: the old value is not needed.
        noteUpdated(object, key: key, old: nil, isInsertedOrDeleted: isInsertedOrDeleted)
        allowQuietStores(of: object, slot: slot)
        exitConfinement()
        object.keyValueDidChange(KeyValueChangeEvent(.didChange, key: key))
    }

    /// Ends every quiet store: the next store of every object takes the full way.
    package func endQuietStores() {
        for object in eventHolders { object.quietSlots = 0 }
    }
}
