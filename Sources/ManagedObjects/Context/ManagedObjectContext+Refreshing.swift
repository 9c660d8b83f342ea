// Refreshing and resetting: bringing the context's objects up to date with the store.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// Brings an object up to date with its store (Apple: `refresh(_:mergeChanges:)`).
    ///
    /// With `mergeChanges` `false` the object's unsaved changes are dropped and it turns into a
    /// fault: its values load on next access, from the coordinator's row cache or the store
    /// (see ``stalenessInterval``). Observers of the properties whose unsaved values are
    /// dropped are told, as by ``rollback()`` (reading the new value fulfils the fault); an
    /// object without unsaved changes turns into a fault without notifications. With `true` the properties the context did not change take
    /// the current row's values (observers are told) and the changed ones keep their unsaved
    /// values, which a later save writes over the store's; the object's store version moves on,
    /// so that save does not conflict. Inserted objects are left alone. The object is reported
    /// under ``ChangeKey/refreshed`` by the next ``processPendingChanges()``.
    ///
    /// - Parameters:
    ///   - object: A registered object.
    ///   - mergeChanges: Whether to keep the object's unsaved changes.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        enterConfinement("refresh(_:mergeChanges:)")
        defer { exitConfinement() }
        guard object.managedObjectContext === self, !inserted.contains(object) else { return }
        if !mergeChanges {
            // Observers hear the unsaved values go back, as after a rollback or an undo; the
            // new values load from the row when an observer asks for them (trial12 N8).
            let dropped = droppedChangeKeys(of: object)
            let wasRestoring = isRestoring
            let hadUnrecordedValues = object.hasUnrecordedValues
            isRestoring = true
            for key in dropped { object.willChangeValue(forKey: key) }
            object.willTurnIntoFault()
            updated.remove(object)
            forgetCommittedValues(of: object)
            object.faultFlag = true
            object.clearSlotValues()
            object.didTurnIntoFault()
            for key in dropped.reversed() { object.didChangeValue(forKey: key) }
            object.hasUnrecordedValues = hadUnrecordedValues
            isRestoring = wasRestoring
        } else if !object.faultFlag, let row = try? sourceRow(for: object.objectID) {   // the parent's values, or the store's
            takeValues(of: row, into: object, keeping: object.committedRecord?.slotSet ?? [])
        }
        pendingEvent.refreshed.insert(object)
    }

    /// The keys of `object`'s unsaved changes whose values differ from the saved ones, in slot
    /// order: what turning it into a fault takes back.
    private func droppedChangeKeys(of object: ManagedObject) -> [String] {
        guard !object.faultFlag, let committed = object.committedRecord else { return [] }
        var keys: [(slot: Int, key: String)] = []
        for (slot, value) in committed.entries where !ManagedObject.sameValue(value, object.slotValue(slot)) {
            keys.append((slot, object.layout.properties[slot].name))
        }
        return keys.sorted { $0.slot < $1.slot }.map(\.key)
    }

    /// Refreshes every registered object, keeping unsaved changes (Apple: `refreshAllObjects()`):
    /// objects without changes turn into faults (which also breaks retain cycles between
    /// them), changed ones take the current rows' values under their changes as
    /// ``refresh(_:mergeChanges:)`` with `true` does. Inserted objects and faults are left alone.
    public func refreshAllObjects() {
        enterConfinement("refreshAllObjects()")
        defer { exitConfinement() }
        for object in registered.values.sorted(by: Self.saveOrder) where !inserted.contains(object) && !object.faultFlag {
            refresh(object, mergeChanges: updated.contains(object) || deleted.contains(object))
        }
        processPendingChanges()
    }

    /// Forgets every registered object and every change: the objects leave the context (their
    /// values stay as they were, but nothing tracks them) and the undo manager's actions are
    /// removed (Apple: `reset()`). Posts ``objectsDidChangeNotification`` with
    /// ``ChangeKey/invalidatedAll``.
    public func reset() {
        enterConfinement("reset()")
        defer { exitConfinement() }
        undoManager?.removeAllActions()
        forgetChanges()
        for object in registered.values {
            object.managedObjectContext = nil
            object.setOwnerObservationStorage(nil)
            object.forgetChangeRecords()
        }
        registered.removeAll()
        var changes = Changes()
        changes.invalidatedAll = true
        postObjectsDidChange(changes)
    }

    // MARK: Taking a row's values

    /// Puts a row's values into a loaded object, except into the slots in `keeping` (the
    /// object's unsaved changes, whose committed values become the row's): observers are told
    /// of every value that changes, nothing is recorded as a change. The object's version
    /// becomes the row's; a kept change equal to the row's value stops being a change.
    package func takeValues(of row: StoreRow, into object: ManagedObject, keeping: Set<Int>) {
        let wasRestoring = isRestoring
        isRestoring = true
        var stillChanged: [Int: Any?] = [:]
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            // A relationship fault the row leaves out stays a fault: it loads the current members.
            if object.isRelationshipFaulted(slot: slot), row.relationships[property.name] == nil { continue }
            let current = object.slotValue(slot)
            // Most values of a merged row are the object's already: seen without converting.
            if case .attribute = property, Self.constant(row.attributeValue(named: object.layout.keys[slot]), isSurely: current) { continue }
            guard let rowValue = value(of: row, for: property) else { continue }
            if keeping.contains(slot) {
                if !ManagedObject.sameValue(current, rowValue) { stillChanged.updateValue(rowValue, forKey: slot) }
            } else if !ManagedObject.sameValue(current, rowValue) {
                object.willChangeValue(forKey: property.name)
                object.storeLoadedSlotValue(rowValue, slot)
                object.didChangeValue(forKey: property.name)
            }
        }
        isRestoring = wasRestoring
        object.storeVersion = row.version
        replaceCommittedValues(of: object, with: stillChanged)
        if stillChanged.isEmpty, !deleted.contains(object) { updated.remove(object) }
    }

    /// Whether a row's attribute constant is certainly the value a slot holds (same type,
    /// equal); `false` means "convert and compare".
    @inline(__always)
    private static func constant(_ constant: KeyValueConstant?, isSurely value: Any?) -> Bool {
        switch (constant, value) {
        case (.none, .none), (.null?, .none): return true
        case let (.string(a)?, b as String): return a == b
        case let (.integer(a)?, b as Int64): return a == b
        case let (.integer(a)?, b as Int32): return a == Int64(b)
        case let (.integer(a)?, b as Int16): return a == Int64(b)
        case let (.double(a)?, b as Double): return a == b
        case let (.bool(a)?, b as Bool): return a == b
        case let (.date(a)?, b as Date): return a == b
        default: return false
        }
    }

    /// The value a row gives a property, as a slot holds it; `nil` for a fetched property
    /// (not stored). A related object not registered yet becomes a fault.
    package func value(of row: StoreRow, for property: PropertyDescription) -> Any?? {
        switch property {
        case .attribute(let attribute):
            return .some(row.attributeValue(named: attribute.name).flatMap { attribute.typedValue(from: $0) ?? nil })
        case .relationship(let relationship):
            // A relationship the row left out (a store serving to-many lazily): asked for now.
            let ids = row.relationships[relationship.name]
                ?? (try? sourceObjectIDs(forRelationship: relationship.name, of: row.objectID)) ?? []
            let related = ids.compactMap { try? self.object(with: $0) }
            switch relationship.cardinality {
            case .toOne: return .some(related.first)
            case .toMany: return .some(Set(related))
            case .orderedToMany: return .some(related)
            }
        case .fetchedProperty:
            return nil
        }
    }
}
