// To-many relationships served lazily: the members of a relationship fault, on first access.
import Foundation
import ManagedObjects

extension SQLitePersistentStore {
    /// The IDs of the objects a relationship of an object leads to (Apple:
    /// `newValue(forRelationship:forObjectWith:with:)`): the store's rows leave to-many
    /// relationships out, and the context asks for them when a relationship fault fires.
    ///
    /// - Parameters:
    ///   - relationship: The name of a relationship of the object's entity.
    ///   - id: A permanent ID of this store.
    /// - Returns: The related IDs, in order for an ordered relationship; none when the store
    ///   does not have the object.
    /// - Throws: ``SQLiteStoreError`` (not loaded, no such relationship, SQLite's errors).
    /// - Complexity: One query.
    /// - Important: Thread safety: safe from any thread (the store's lock).
    public func objectIDs(forRelationship relationship: String, of id: ManagedObjectID) throws -> [ManagedObjectID] {
        try objectIDs(forRelationship: relationship, ofObjects: [id])[id] ?? []
    }

    /// The IDs of the objects a relationship leads to for several objects, in one query per
    /// entity (a prefetch of a to-many key path).
    ///
    /// - Parameters:
    ///   - relationship: The name of a relationship of every object's entity.
    ///   - ids: Permanent IDs of this store; IDs of other stores and objects the store does not
    ///     have are left out of the result.
    /// - Returns: The related IDs by object, in order for an ordered relationship.
    /// - Throws: ``SQLiteStoreError`` (not loaded, no such relationship, SQLite's errors).
    /// - Complexity: One query per entity among the objects (two when some have no members).
    /// - Important: Thread safety: safe from any thread (the store's lock).
    public func objectIDs(forRelationship relationship: String,
                          ofObjects ids: [ManagedObjectID]) throws -> [ManagedObjectID: [ManagedObjectID]] {
        try withEngine { engine in
            var keysByEntity: [String: [Int64]] = [:]
            for id in ids where id.storeIdentifier == engine.identifier {
                if case .integer(let key) = id.referenceObject { keysByEntity[id.entityName, default: []].append(key) }
            }
            var result: [ManagedObjectID: [ManagedObjectID]] = [:]
            for (name, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
                let entity = try engine.entity(name)
                let destination = entity.relationships.first { $0.relationship.name == relationship }?.relationship.destinationEntityName
                try engine.checkEntityNumbers(inTablesOf: [name] + (destination.map { [$0] } ?? []))
                for (key, members) in try engine.objectIDs(forRelationship: relationship, ofKeys: keys, entity: entity) {
                    result[engine.objectID(name, key)] = members
                }
            }
            return result
        }
    }
}
