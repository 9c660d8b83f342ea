// Change tracking: the context as its objects' change sink. Committed values, the updated set,
// and relationships kept consistent on both sides.
import Foundation
import KeyValueCoding
import KeyValueObserving

extension ManagedObjectContext: KeyValueChangeSink {
    /// Records the value a property had before a change (its committed value, the first time).
    public func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {
        // Entered until the matching did-change: two threads changing objects at once stop here.
        enterConfinement("a change of a managed object")
        guard !isRestoring else {
            // Not recorded: the object's next save writes its whole row.
            (object as? ManagedObject)?.hasUnrecordedValues = true
            return
        }
        guard let object = object as? ManagedObject, let slot = Self.slot(of: event.key, in: object) else { return }
        object.changingSlotHint = slot
        let old = object.slotValue(slot)
        pendingOldValues.append((ObjectIdentifier(object), slot, old))
        recordOldValue(old, slot: slot, of: object, committing: !inserted.contains(object))
    }

    /// Marks the object updated and keeps the inverse of a changed relationship in step.
    public func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
        defer { exitConfinement() }
        guard !isRestoring, let object = object as? ManagedObject, let slot = Self.slot(of: event.key, in: object) else { return }
        let id = ObjectIdentifier(object)
        guard let pending = pendingOldValues.lastIndex(where: { $0.object == id && $0.slot == slot }) else { return }
        let old = pendingOldValues.remove(at: pending).value
        guard !event.isCancelled else { return }
        // Bit tests (see TrackedObjectSet); an object sends changes here only while registered
        // (its sink is this context), which its context reference says without hashing its ID.
        let isInsertedOrDeleted = inserted.contains(object) || deleted.contains(object)
        // The membership bit first: the context reference is a weak load.
        if !isInsertedOrDeleted && !updated.contains(object) && object.managedObjectContext === self {
            updated.insert(object)
        }
        noteUpdated(object, key: event.key, old: old, isInsertedOrDeleted: isInsertedOrDeleted)
        // An attribute has no inverse: its traits say so without copying its description.
        if object.layout.slotTraits[slot].attributeType != nil {
            // Its next stores in this event have nothing new to record.
            allowQuietStores(of: object, slot: slot)
            return
        }
        guard maintainsInverses,
              case .relationship(let relationship) = object.layout.properties[slot],
              let inverseName = relationship.inverseName else { return }
        maintainInverse(of: relationship, inverseName: inverseName, on: object, old: old, new: object.slotValue(slot))
    }

    /// The slot of `key` in `object`'s entity: the slot announced last when it names `key`
    /// (a typed store passes the layout's own key string, so the comparison is one word),
    /// else a look-up by name.
    @inline(__always)
    private static func slot(of key: String, in object: ManagedObject) -> Int? {
        let hint = object.changingSlotHint
        if hint >= 0, object.layout.keys[hint] == key { return hint }
        return object.layout.slotByName[key]
    }

    // MARK: Inverse maintenance

    /// The objects a relationship value holds.
    package static func members(_ value: Any?) -> [ManagedObject] {
        switch value {
        case let one as ManagedObject: return [one]
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        default: return []
        }
    }

    private func maintainInverse(of relationship: RelationshipDescription, inverseName: String,
                                 on source: ManagedObject, old: Any?, new: Any?) {
        let before = Self.members(old)
        let after = Self.members(new)
        let afterIDs = Set(after.map(ObjectIdentifier.init))
        let beforeIDs = Set(before.map(ObjectIdentifier.init))
        maintenanceDepth += 1
        defer { maintenanceDepth -= 1 }
        for removed in before where !afterIDs.contains(ObjectIdentifier(removed)) {
            unlink(source, from: removed, inverseName: inverseName)
        }
        for added in after where !beforeIDs.contains(ObjectIdentifier(added)) {
            link(source, to: added, inverseName: inverseName, relationshipName: relationship.name)
        }
    }

    /// Removes `source` from `target`'s inverse relationship.
    package func unlink(_ source: ManagedObject, from target: ManagedObject, inverseName: String) {
        // Objects of other contexts are not this context's to change (the save reports them).
        guard target.managedObjectContext === self else { return }
        guard case .relationship(let inverse)? = target.layout.slotByName[inverseName].map({ target.layout.properties[$0] }) else { return }
        do {
            switch inverse.cardinality {
            case .toOne:
                if (try target.value(forKey: inverseName)) as? ManagedObject === source {
                    try target.setValue(nil, forKey: inverseName)
                }
            case .toMany:
                try target.mutableSetValue(forKey: inverseName).remove(AnyHashable(source))
            case .orderedToMany:
                let proxy = try target.mutableArrayValue(forKey: inverseName)
                if let index = proxy.elements.firstIndex(where: { $0 as? ManagedObject === source }) {
                    try proxy.remove(at: index)
                }
            }
        } catch {
            // Only a related object the inverse cannot hold (another entity, another context)
            // refuses, and the save reports that object; the graph stays as the app left it.
        }
    }

    /// Adds `source` to `target`'s inverse relationship; a to-one inverse first leaves its old
    /// owner (moving `target` from one parent to another).
    package func link(_ source: ManagedObject, to target: ManagedObject, inverseName: String, relationshipName: String) {
        guard target.managedObjectContext === self else { return }
        guard case .relationship(let inverse)? = target.layout.slotByName[inverseName].map({ target.layout.properties[$0] }) else { return }
        do {
            switch inverse.cardinality {
            case .toOne:
                if let previous = try target.value(forKey: inverseName) as? ManagedObject {
                    if previous === source { return }
                    unlink(target, from: previous, inverseName: relationshipName)
                }
                try target.setValue(source, forKey: inverseName)
            case .toMany:
                try target.mutableSetValue(forKey: inverseName).insert(AnyHashable(source))
            case .orderedToMany:
                let proxy = try target.mutableArrayValue(forKey: inverseName)
                if !proxy.elements.contains(where: { $0 as? ManagedObject === source }) {
                    try proxy.append(source)
                }
            }
        } catch {
            // As in `unlink`: the save reports what the inverse could not hold.
        }
    }
}
