// Uniqueness constraints: a save finds objects that would share a constraint's values, with each
// other or with a stored row, and the merge policy resolves them.
import Foundation
import KeyValueCoding
import Predicates

extension ManagedObjectContext {
    /// The objects of the save that would break a uniqueness constraint (Apple: the
    /// `NSConstraintConflict`s of a save).
    ///
    /// A constraint of an entity holds for the entity and its subentities. Objects with a
    /// `nil` value for a property of the constraint never conflict (as SQL's `NULL`s). Inserted
    /// objects are checked, and saved objects that changed a value of the constraint; for
    /// those, every stored row of the constrained entities is read.
    package func constraintConflicts(coordinator: PersistentStoreCoordinator) throws -> [ConstraintConflict] {
        guard model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else { return [] }
        var groups: [String: (declaring: String, properties: [String], objects: [ManagedObject])] = [:]
        for object in inserted.union(updated).sorted(by: Self.saveOrder) {
            // A saved object is checked only for constraints whose values it changed.
            let changedSlots = inserted.contains(object) ? nil : object.committedRecord?.slotSet ?? []
            var entity: EntityDescription? = object.entity
            while let next = entity {
                for constraint in next.uniquenessConstraints where !constraint.isEmpty {
                    if let changedSlots, !constraint.contains(where: { name in
                        object.layout.slotByName[name].map(changedSlots.contains) ?? false
                    }) { continue }
                    let key = next.name + "\u{0}" + constraint.joined(separator: "\u{0}")
                    groups[key, default: (next.name, constraint, [])].objects.append(object)
                }
                entity = next.parentName.flatMap(model.entity(named:))
            }
        }
        guard !groups.isEmpty else { return [] }
        // Rows the save removes do not keep their stored values. An updated object that changed
        // a value of the constraint is a candidate (its current values count); one that did not
        // keeps its stored values for the constraint, so its row still counts.
        let replaced = Set(deleted.map(\.objectID))
        var conflicts: [ConstraintConflict] = []
        for groupKey in groups.keys.sorted() {
            let group = groups[groupKey]!
            var objectsByValues: [[KeyValueConstant]: [ManagedObject]] = [:]
            var order: [[KeyValueConstant]] = []
            for object in group.objects {
                guard let values = Self.constraintValues(of: row(of: object), group.properties) else { continue }
                if objectsByValues[values] == nil { order.append(values) }
                objectsByValues[values, default: []].append(object)
            }
            guard !order.isEmpty else { continue }
            let candidates = Set(group.objects.map(\.objectID))
            var stored: [[KeyValueConstant]: StoreRow] = [:]
            for row in try storedRows(ofEntityNamed: group.declaring, coordinator: coordinator)
            where !replaced.contains(row.objectID) && !candidates.contains(row.objectID) {
                if let values = Self.constraintValues(of: row, group.properties), objectsByValues[values] != nil {
                    stored[values] = row
                }
            }
            for values in order {
                let objects = objectsByValues[values]!
                let databaseRow = stored[values]
                guard objects.count > 1 || databaseRow != nil else { continue }
                var named: [String: KeyValueConstant] = [:]
                for (name, value) in zip(group.properties, values) { named[name] = value }
                conflicts.append(ConstraintConflict(
                    constraint: group.properties, constraintValues: named,
                    databaseObjectID: databaseRow?.objectID, databaseSnapshot: databaseRow,
                    conflictingObjectIDs: objects.map(\.objectID),
                    conflictingSnapshots: objects.map { inserted.contains($0) ? nil : committedRow(of: $0) }))
            }
        }
        return conflicts
    }

    /// The values of a constraint's properties in a row (a to-one relationship's as its
    /// object's ID), or `nil` when one of them is `nil`.
    private static func constraintValues(of row: StoreRow, _ properties: [String]) -> [KeyValueConstant]? {
        var values: [KeyValueConstant] = []
        values.reserveCapacity(properties.count)
        for name in properties {
            if let value = row.attributeValue(named: name) {
                if case .null = value { return nil }
                values.append(value)
            } else if let ids = row.relationships[name], let id = ids.first {
                values.append(KeyValueConstant(id))
            } else {
                return nil
            }
        }
        return values
    }

    /// Every stored row of an entity and its subentities.
    private func storedRows(ofEntityNamed name: String, coordinator: PersistentStoreCoordinator) throws -> [StoreRow] {
        let names = try entityNames(for: EntityFetchRequest(entityName: name))
        var rows: [StoreRow] = []
        var seen: [ObjectIdentifier] = []
        for entityName in names {
            for store in coordinator.stores(forEntityNamed: entityName) where !seen.contains(ObjectIdentifier(store)) {
                seen.append(ObjectIdentifier(store))
                rows += try store.fetch(StoreFetchRequest(entityNames: names)).rows
            }
        }
        return rows
    }

    /// Resolves one constraint conflict the way a built-in policy does (see ``MergePolicy``).
    ///
    /// Store trump and rollback: the stored row wins (or, between objects of the context, the
    /// first registered); the other objects are dropped when new, and lose their changes when
    /// saved before. Object trump and overwrite: the last registered object wins and the other
    /// objects of the context go away (deleted); a new winner takes the stored row's identity
    /// (its ID and version: the save updates that row), with its own values over the row's
    /// (object trump: the values it was given; overwrite: every value); when the stored row's
    /// object is registered in the context, that object takes the winner's values instead and
    /// the winner goes away. A winner saved before replaces the stored row, which is deleted.
    ///
    /// - Parameters:
    ///   - conflict: A conflict of this context's last save attempt.
    ///   - kind: The behaviour.
    /// - Throws: ``ManagedObjectMergeError`` for ``MergePolicy/Kind/error``; key-value coding
    ///   errors from moving values.
    public func resolve(_ conflict: ConstraintConflict, by kind: MergePolicy.Kind) throws {
        let objects = conflict.conflictingObjectIDs.compactMap { registered[$0] }.filter { !deleted.contains($0) }
        guard let newest = objects.last else { return }
        switch kind {
        case .error:
            throw ManagedObjectMergeError(constraintConflicts: [conflict])
        case .mergeByPropertyStoreTrump, .rollback:
            for object in conflict.databaseObjectID == nil ? Array(objects.dropFirst()) : objects {
                if inserted.contains(object) { delete(object) } else { refresh(object, mergeChanges: false) }
            }
        case .mergeByPropertyObjectTrump, .overwrite:
            for object in objects.dropLast() { delete(object) }
            guard let databaseID = conflict.databaseObjectID, let databaseRow = conflict.databaseSnapshot else { return }
            let overwrite = kind == .overwrite
            if !inserted.contains(newest) {
                delete(try object(with: databaseID))
            } else if let existing = registered[databaseID] {
                try fold(newest, into: existing, overwrite: overwrite)
            } else {
                takeOver(databaseRow, by: newest, overwrite: overwrite)
            }
        }
    }

    /// A new object becomes the update of a stored row: the row's ID and version, the row's
    /// values as committed ones, the object's values (all, or those it was given) over them.
    private func takeOver(_ row: StoreRow, by object: ManagedObject, overwrite: Bool) {
        inserted.remove(object)
        reassign(object, to: row.objectID)
        updated.insert(object)
        var keeping = Set<Int>()
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            if overwrite || !ManagedObject.isEmpty(object.slotValue(slot)) { keeping.insert(slot) }
        }
        takeValues(of: row, into: object, keeping: keeping)
        pendingEvent.refreshed.insert(object)
    }

    /// A registered object takes a new object's values (as changes), and the new object goes
    /// away.
    private func fold(_ object: ManagedObject, into existing: ManagedObject, overwrite: Bool) throws {
        for (slot, property) in object.layout.properties.enumerated() where !property.isTransient {
            let value = object.slotValue(slot)
            guard overwrite || !ManagedObject.isEmpty(value), existing.layout.slotByName[property.name] != nil else { continue }
            try existing.setValue(value, forKey: property.name)
        }
        delete(object)
    }
}
