// Relationship faults: the members of one relationship of some objects, read when first accessed.
import Foundation
import ManagedObjects

extension SQLiteStoreEngine {
    /// The members of the relationship `name` of the objects of `entity` with `keys`, by key:
    /// one query (the keys as one JSON array argument), in order for an ordered relationship.
    /// Keys the store does not have get no entry.
    ///
    /// - Throws: ``SQLiteStoreError`` naming the entity when it has no such relationship, and
    ///   SQLite's errors.
    func objectIDs(forRelationship name: String, ofKeys keys: [Int64],
                   entity: SQLiteSchema.Entity) throws -> [Int64: [ManagedObjectID]] {
        guard let storage = entity.relationships.first(where: { $0.relationship.name == name })?.storage else {
            throw fail(.unsupported("the entity \(entity.name) has no relationship \(name)"))
        }
        guard !keys.isEmpty else { return [:] }
        let list: SQLiteValue = .text("[" + keys.map(String.init).joined(separator: ",") + "]")
        if case .foreignKey = storage {
            // A to-one is a column of the object's own row.
            let rows = try readRows(of: entity, selectSQL(of: entity) + " WHERE t0.Z_PK IN (SELECT value FROM json_each(?)) AND t0.Z_ENT = ?",
                                    [list, .integer(entity.number)])
            var result: [Int64: [ManagedObjectID]] = [:]
            for row in rows {
                if case .integer(let key) = row.objectID.referenceObject { result[key] = row.relationships[name] ?? [] }
            }
            return result
        }
        let members = try toManyMembers(of: entity, only: name, selectedBy: "SELECT value FROM json_each(?)", arguments: [list])
        var result = members[name] ?? [:]
        // Objects without members: empty, when the store has them.
        if result.count < keys.count {
            let table = SQLiteSchema.tableName(root: entity.rootName)
            for row in try connection.rows("SELECT Z_PK FROM \(table) WHERE Z_PK IN (SELECT value FROM json_each(?)) AND Z_ENT = ?",
                                           [list, .integer(entity.number)]) {
                if let key = row[0].integerValue, result[key] == nil { result[key] = [] }
            }
        }
        return result
    }
}
