// Copying every object of one store into another, through a mapping: the data step of a
// migration, of a move to another location or type, and of a replacement.
import Foundation
import Predicates

/// Copies a loaded store's objects into another loaded (empty) store, mapped entity by entity.
enum StoreMigrator {
    /// Copies every object of `source` (loaded for `sourceModel`) into `destination` (loaded
    /// for `destinationModel`, empty) in one save: each object gets an ID of the destination
    /// with the same integer key when the destination's keys are integers (a new one
    /// otherwise), its attributes come through the mapping (defaults filling new and
    /// newly-required ones) and its relationships follow the objects' new IDs.
    ///
    /// - Throws: The stores' errors.
    /// - Complexity: O(*n*) in the number of objects, all held in memory at once.
    static func copy(from source: any PersistentStore, sourceModel: ManagedObjectModel,
                     to destination: any PersistentStore, mapping: MappingModel) throws {
        var pending: [(row: StoreRow, mapping: MappingModel.EntityMapping)] = []
        for entityMapping in mapping.entityMappings {
            guard let sourceName = entityMapping.sourceEntity, let entity = sourceModel.entity(named: sourceName),
                  !entity.isAbstract else { continue }
            let result = try source.fetch(StoreFetchRequest(entityNames: [sourceName]))
            var rows = result.rows.filter { $0.objectID.entityName == sourceName }
            for id in result.objectIDs where id.entityName == sourceName {
                if let row = try source.row(for: id) { rows.append(row) }
            }
            for var row in rows.sorted(by: keyOrder) {
                for relationship in entity.allProperties.compactMap(\.relationship) where !relationship.isTransient
                    && row.relationships[relationship.name] == nil {
                    row.relationships[relationship.name] = try source.objectIDs(forRelationship: relationship.name, of: row.objectID)
                }
                pending.append((row, entityMapping))
            }
        }
        let newIDs = try keptIDs(of: pending.map { ($0.row.objectID, $0.mapping.destinationEntity) }, in: destination)
            ?? destination.newObjectIDs(for: pending.map(\.mapping.destinationEntity))
        var idMap: [ManagedObjectID: ManagedObjectID] = [:]
        for (entry, id) in zip(pending, newIDs) { idMap[entry.row.objectID] = id }
        var inserted: [StoreRow] = []
        inserted.reserveCapacity(pending.count)
        for (entry, id) in zip(pending, newIDs) {
            var row = StoreRow(objectID: id, version: 0)
            for (name, sourceName) in entry.mapping.attributes {
                let value = sourceName.flatMap { entry.row.attributes[$0] }
                if let value, value != .null {
                    row.attributes[name] = value
                } else if let fallback = entry.mapping.defaults[name] {
                    row.attributes[name] = fallback
                }
            }
            for (name, sourceName) in entry.mapping.relationships {
                row.relationships[name] = sourceName.map { (entry.row.relationships[$0] ?? []).compactMap { idMap[$0] } } ?? []
            }
            inserted.append(row)
        }
        guard !inserted.isEmpty else { return }
        _ = try destination.save(StoreSaveChanges(inserted: inserted))
    }

    /// IDs in the destination with the objects' own integer keys (Core Data keeps `Z_PK`
    /// through a migration), or `nil` when the destination cannot give them (its keys are not
    /// integers). The destination's key counter of each entity is first moved up to the
    /// entity's largest key, so that keys it gives out later never collide with kept ones.
    private static func keptIDs(of objects: [(id: ManagedObjectID, entity: String)],
                                in destination: any PersistentStore) throws -> [ManagedObjectID]? {
        var largest: [String: Int64] = [:]   // destination entity → largest key among its objects
        for (id, entity) in objects {
            guard case .integer(let key) = id.referenceObject, key > 0 else { return nil }
            largest[entity] = max(largest[entity] ?? 0, key)
        }
        if let counters = destination as? any KeyCounterRaisingStore {
            // Each counter moved to its largest kept key exactly: no key is given out (Core Data
            // leaves a migrated store's Z_MAX at the largest key of the tree).
            for (entity, key) in largest.sorted(by: { $0.key < $1.key }) { try counters.raiseKeyCounter(of: entity, to: key) }
            return keptIDs(of: objects, storeIdentifier: destination.identifier)
        }
        // Largest first: entities sharing a counter (one inheritance tree) are then mostly past
        // their keys already when their turn comes (each probe still takes a key).
        for (entity, key) in largest.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            guard let next = try destination.newObjectIDs(for: [entity]).first?.referenceObject.integerValue else { return nil }
            guard next < key else { continue }
            let reserved = try destination.newObjectIDs(for: Array(repeating: entity, count: Int(key - next)))
            guard reserved.last?.referenceObject.integerValue == key else { return nil }
        }
        return keptIDs(of: objects, storeIdentifier: destination.identifier)
    }

    /// The objects' IDs in the store `storeID` with their own keys.
    private static func keptIDs(of objects: [(id: ManagedObjectID, entity: String)], storeIdentifier storeID: String) -> [ManagedObjectID] {
        objects.map { id, entity in
            ManagedObjectID(entityName: entity, storeIdentifier: storeID, referenceObject: id.referenceObject)
        }
    }

    private static func keyOrder(_ a: StoreRow, _ b: StoreRow) -> Bool {
        switch (a.objectID.referenceObject, b.objectID.referenceObject) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.string(let x), .string(let y)): return x < y
        default: return false
        }
    }

    /// The identity mapping of a model onto itself (for moving a store).
    static func identity(of model: ManagedObjectModel) -> MappingModel {
        MappingModel(entityMappings: model.entities.map { entity in
            var attributes: [String: String?] = [:]
            var relationships: [String: String?] = [:]
            for property in entity.allProperties where !property.isTransient {
                switch property {
                case .attribute(let a): attributes[a.name] = .some(a.name)
                case .relationship(let r): relationships[r.name] = .some(r.name)
                case .fetchedProperty: break
                }
            }
            return MappingModel.EntityMapping(sourceEntity: entity.name, destinationEntity: entity.name,
                                              attributes: attributes, defaults: [:], relationships: relationships)
        })
    }
}

/// A store whose integer keys come from counters that a migration can move past the keys it
/// keeps without giving any out (the SQLite store: one counter per inheritance tree,
/// `Z_PRIMARYKEY.Z_MAX`). Stores without it are moved past kept keys by asking for keys.
package protocol KeyCounterRaisingStore: PersistentStore {
    /// Moves the counter that gives `entity`'s keys up to `key` when it is below `key`; gives
    /// out no key.
    func raiseKeyCounter(of entity: String, to key: Int64) throws
}
