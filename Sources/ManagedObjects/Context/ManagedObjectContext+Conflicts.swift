// Optimistic-locking conflicts: a save meets rows that changed in the store since the context read
// them; the merge policy resolves them and the write is tried again.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// How many times a save looks for conflicts and resolves them before it gives up with
    /// the conflicts of its last attempt. Other contexts of the coordinator wait meanwhile
    /// (``PersistentStoreCoordinator/saveLock``), and so do other processes' saves to a store
    /// that can keep them out (``ExclusiveResolutionStore``), so more than two rounds are
    /// needed only when another coordinator or process writes the same rows of a store that
    /// cannot, or a custom policy leaves conflicts unresolved.
    package static let conflictRounds = 4

    /// Writes the changes, resolving constraint conflicts (found before writing) and
    /// optimistic-locking conflicts (reported by a store) with ``mergePolicy`` and trying again.
    ///
    /// Runs holding the coordinator's ``PersistentStoreCoordinator/saveLock``: the rows a
    /// resolution read from the store stay as they are until the retry writes (no other
    /// context of the coordinator can save in between), so a resolving policy's save does not
    /// fail because other contexts keep changing the same rows. A store that other processes
    /// write too (``ExclusiveResolutionStore``) keeps their saves out from the first conflict
    /// until the write, so they cannot change the rows either.
    ///
    /// `storeOf` gives the store of the inserted objects of each layout, by the layout's identity.
    ///
    /// - Throws: ``ManagedObjectMergeError`` when the policy does not resolve them; the stores'
    ///   other errors.
    package func writeResolvingConflicts(storeOf: [ObjectIdentifier: any PersistentStore],
                                         coordinator: PersistentStoreCoordinator,
                                         sortedInserted: [ManagedObject]? = nil) throws {
        coordinator.saveLock.lock()
        defer { coordinator.saveLock.unlock() }
        // The inserted objects in save order: as given for the first write, sorted again after
        // the merge policy changed the graph.
        var sortedInserted = sortedInserted
        // The stores that took their part of this save in an earlier round (a later store
        // reported conflicts): their rows are committed, so a retry leaves them out.
        var savedStores: Set<ObjectIdentifier> = []
        resolutionMovedRelationships = false
        defer {
            if resolutionMovedRelationships {
                // Undo would replay relationship changes over members the resolution moved,
                // leaving the two sides apart: the context's actions go (saved or not).
                resolutionMovedRelationships = false
                undoManager?.removeAllActions(withTarget: self)
            }
        }
        var round = 0
        // Optimistic-locking conflicts of the last write, resolved at the start of the next round.
        var pending: [StoreConflict] = []
        var excluding = false
        func rounds() throws {
            while round < Self.conflictRounds {
                round += 1
                let given = sortedInserted
                sortedInserted = nil
                if !pending.isEmpty {
                    // The rows are read now: inside `excluding`, they stay as read until the write.
                    let conflicts = mergeConflicts(from: pending)
                    pending = []
                    try mergePolicy.resolve(optimisticLockingConflicts: conflicts, in: self)
                }
                let constraintConflicts = try self.constraintConflicts(coordinator: coordinator)
                if !constraintConflicts.isEmpty {
                    if round == Self.conflictRounds { throw ManagedObjectMergeError(constraintConflicts: constraintConflicts) }
                    try mergePolicy.resolve(constraintConflicts: constraintConflicts, in: self)
                    continue
                }
                do {
                    try writeChanges(newObjects: given ?? Self.inSaveOrder(inserted), storeOf: storeOf, coordinator: coordinator, savedStores: &savedStores)
                    return
                } catch StoreSaveError.conflicts(let found) {
                    if round == Self.conflictRounds { throw ManagedObjectMergeError(mergeConflicts: mergeConflicts(from: found)) }
                    pending = found
                    // Stores shared with other processes keep their saves out from here until
                    // the write: the rest of the rounds run inside.
                    let shared = Self.exclusiveResolutionStores(of: found, in: coordinator)
                    if !excluding, !shared.isEmpty {
                        excluding = true
                        try Self.excludingOtherSaves(of: shared[...], rounds)
                        return
                    }
                } catch StoreSaveError.uniquenessConstraint where round < Self.conflictRounds {
                    // Another writer saved a duplicate since the check: the next round finds it.
                    continue
                }
            }
        }
        try rounds()
    }

    /// The stores of conflicting objects that can keep other processes' saves out, in a fixed
    /// order (by identifier: two saves take them in the same order).
    private static func exclusiveResolutionStores(of conflicts: [StoreConflict],
                                                  in coordinator: PersistentStoreCoordinator) -> [any ExclusiveResolutionStore] {
        let identifiers = Set(conflicts.compactMap { $0.objectID.storeIdentifier })
        return identifiers.sorted().compactMap { coordinator.store(withIdentifier: $0) as? any ExclusiveResolutionStore }
    }

    /// Runs `body` with the saves of other users of every store kept out.
    private static func excludingOtherSaves(of stores: ArraySlice<any ExclusiveResolutionStore>,
                                            _ body: () throws -> Void) throws {
        guard let first = stores.first else { return try body() }
        try first.withOtherSavesExcluded { try excludingOtherSaves(of: stores.dropFirst(), body) }
    }

    /// The conflicts a store reported, with the objects' snapshots and the rows the store has
    /// now (read from the store, and cached).
    private func mergeConflicts(from found: [StoreConflict]) -> [MergeConflict] {
        found.map { conflict in
            let object = registered[conflict.objectID]
            let persisted = try? currentStoreRow(for: conflict.objectID)
            return MergeConflict(objectID: conflict.objectID, objectSnapshot: object.map(row(of:)),
                                 cachedSnapshot: object.map(committedRow(of:)), persistedSnapshot: persisted,
                                 newVersionNumber: persisted?.version ?? 0, oldVersionNumber: conflict.expectedVersion,
                                 isDeletedInContext: object.map { deleted.contains($0) } ?? false)
        }
    }

    /// The row of an object's committed values (those it was read or last saved with).
    package func committedRow(of object: ManagedObject) -> StoreRow {
        var row = StoreRow(objectID: object.objectID, version: object.storeVersion)
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            let value = committedValue(of: object, slot: slot)
            switch property {
            case .attribute(let attribute):
                if let value { row.attributes[attribute.name] = KeyValueConstant(value) }
            case .relationship(let relationship):
                row.relationships[relationship.name] = Self.members(value).map(\.objectID)
            case .fetchedProperty:
                break
            }
        }
        return row
    }

    /// Resolves one optimistic-locking conflict the way a built-in policy does (see
    /// ``MergePolicy``); the object is reported as refreshed. For a custom policy that starts
    /// from a built-in behaviour.
    ///
    /// - Parameters:
    ///   - conflict: A conflict of this context's last save attempt.
    ///   - kind: The behaviour; ``MergePolicy/Kind/error`` changes nothing.
    public func resolve(_ conflict: MergeConflict, by kind: MergePolicy.Kind) {
        guard kind != .error, let object = registered[conflict.objectID] else { return }
        guard let persisted = conflict.persistedSnapshot else {
            // The store deleted the row: it stays deleted, whatever the policy.
            letGoOfDestinations(ofGone: object)
            forgetObjectDeletedElsewhere(object)
            return
        }
        if deleted.contains(object) {
            switch kind {
            case .mergeByPropertyObjectTrump, .overwrite, .error:
                object.storeVersion = persisted.version              // the delete wins
                applyDeleteRules(ofDeleted: object, toStoreRow: persisted)
            case .mergeByPropertyStoreTrump, .rollback:
                deleted.remove(object)                                // the store's row wins
                resolutionMovedRelationships = true
                let before = inverseMembers(of: object)
                forgetCommittedValues(of: object)
                takeValues(of: persisted, into: object, keeping: [])
                mendInverses(of: object, before: before, persisted: persisted)
                pendingEvent.refreshed.insert(object)
            }
            return
        }
        let before = inverseMembers(of: object)
        var keeping = Set<Int>()
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            let changedHere = hasCommittedValue(of: object, slot: slot)
            if changedHere, kind == .mergeByPropertyObjectTrump || kind == .mergeByPropertyStoreTrump,
               mergeToMany(slot, of: object, with: persisted) {
                keeping.insert(slot)
                continue
            }
            switch kind {
            case .overwrite, .error:
                keeping.insert(slot)                                  // every value of the object
            case .mergeByPropertyObjectTrump:
                if changedHere { keeping.insert(slot) }               // the object's changes
            case .mergeByPropertyStoreTrump:
                // The object's change survives where the store left the property as it was read.
                guard changedHere, let storeValue = value(of: persisted, for: property) else { continue }
                if ManagedObject.sameValue(committedValue(of: object, slot: slot), storeValue) { keeping.insert(slot) }
            case .rollback:
                break                                                 // none of its changes
            }
        }
        takeValues(of: persisted, into: object, keeping: keeping)
        mendInverses(of: object, before: before, persisted: persisted)
        if !resolutionMovedRelationships, inverseMembersDiffer(before, inverseMembers(of: object)) {
            resolutionMovedRelationships = true
        }
        pendingEvent.refreshed.insert(object)
    }

    /// For a to-many relationship changed both in the context and in the store, merges the
    /// two changes member by member (the store's members, less those the context removed,
    /// plus those it added; an ordered relationship keeps the store's order and appends) into
    /// the object, telling observers. Two changes of members never collide (a member one side
    /// removed was there when both read it, so the other side cannot have added it).
    ///
    /// - Returns: Whether the slot was merged (`false`: not a to-many, or the store left it
    ///   as the context read it).
    private func mergeToMany(_ slot: Int, of object: ManagedObject, with persisted: StoreRow) -> Bool {
        let property = object.layout.properties[slot]
        guard case .relationship(let relationship) = property, relationship.isToMany,
              let storeValue = value(of: persisted, for: property) else { return false }
        let read = Self.members(committedValue(of: object, slot: slot))
        let stored = Self.members(storeValue)
        guard !ManagedObject.sameValue(committedValue(of: object, slot: slot), storeValue) else { return false }
        let current = Self.members(object.slotValue(slot))
        let readIDs = Set(read.map(ObjectIdentifier.init))
        let currentIDs = Set(current.map(ObjectIdentifier.init))
        let removed = readIDs.subtracting(currentIDs)
        var merged = stored.filter { !removed.contains(ObjectIdentifier($0)) }
        var mergedIDs = Set(merged.map(ObjectIdentifier.init))
        for member in current where !readIDs.contains(ObjectIdentifier(member)) && mergedIDs.insert(ObjectIdentifier(member)).inserted {
            merged.append(member)
        }
        let value: Any? = relationship.cardinality == .orderedToMany ? merged : Set(merged)
        guard !ManagedObject.sameValue(object.slotValue(slot), value) else { return true }
        storeQuietly(value, into: object, slot: slot, key: property.name)
        return true
    }
}
