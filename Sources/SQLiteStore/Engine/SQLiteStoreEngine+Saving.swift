// Saving: primary keys from Z_PRIMARYKEY, and one transaction per save with Z_OPT checks.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// New IDs, keys taken from each inheritance root's `Z_MAX` counter in one transaction.
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        var countByRoot: [String: Int64] = [:]
        for name in entityNames { countByRoot[try entity(name).rootName, default: 0] += 1 }
        var nextByRoot: [String: Int64] = [:]
        try connection.transaction {
            for (root, count) in countByRoot.sorted(by: { $0.key < $1.key }) {
                let number = try entity(root).number
                try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?", [.integer(count), .integer(number)])
                guard let max = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(number)])?.integerValue,
                      max >= count else {
                    throw fail(.notAStore("Z_PRIMARYKEY has no usable Z_MAX for \(root)"))
                }
                nextByRoot[root] = max - count + 1
            }
        }
        var ids: [ManagedObjectID] = []
        for name in entityNames {
            let root = try entity(name).rootName
            ids.append(objectID(name, nextByRoot[root]!))
            nextByRoot[root]! += 1
        }
        return ids
    }

    /// The integer key of an ID of this store.
    private func key(of id: ManagedObjectID) throws -> Int64 {
        guard id.storeIdentifier == identifier, case .integer(let key) = id.referenceObject else {
            throw StoreSaveError.invalidObject(id, reason: "it is not an object of the SQLite store \(identifier) at \(path)")
        }
        return key
    }

    /// The stored version (`Z_OPT`) of an object, 0 when the row is gone.
    private func storedVersion(of id: ManagedObjectID) throws -> Int64 {
        let entity = try entity(id.entityName)
        let sql = "SELECT Z_OPT FROM \(SQLiteSchema.tableName(root: entity.rootName)) WHERE Z_PK = ? AND Z_ENT = ?"
        return try connection.scalar(sql, [.integer(try key(of: id)), .integer(entity.number)])?.integerValue ?? 0
    }

    /// The values of an entity's value columns for a row.
    private func columnValues(of row: StoreRow, entity: SQLiteSchema.Entity) throws -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(entity.attributes.count + entity.relationships.count)
        for position in entity.attributes.indices {
            let kind = entity.attributeKinds[position]
            let constant = row.attributes[kind.name]
            // The common kinds directly (without copying the description); the rest, and every
            // value of another kind (an error), through the schema's full conversion.
            switch (kind.type, constant) {
            case (_, nil), (_, .null?): values.append(.null)
            case (.integer16, .integer(let v)?), (.integer32, .integer(let v)?), (.integer64, .integer(let v)?): values.append(.integer(v))
            case (.boolean, .bool(let v)?): values.append(.integer(v ? 1 : 0))
            case (.double, .double(let v)?) where !v.isNaN, (.float, .double(let v)?) where !v.isNaN: values.append(.real(v))
            case (.string, .string(let text)?): values.append(.text(text))
            case (.date, .date(let date)?): values.append(.real(date.timeIntervalSinceReferenceDate))
            default:
                values.append(try SQLiteSchema.sqlValue(constant, for: entity.attributes[position].attribute, entity: entity.name, path: path))
            }
        }
        for position in entity.relationships.indices {
            guard case .foreignKey(_, let entityColumn, _) = entity.relationships[position].storage else { continue }
            let target = row.relationships[entity.relationships[position].relationship.name]?.first
            values.append(try target.map { .integer(try key(of: $0)) } ?? .null)
            if entityColumn != nil {
                values.append(try target.map { .integer(try self.entity($0.entityName).number) } ?? .null)
            }
        }
        return values
    }

    /// Writes one save in one transaction; conflicts are found before anything is written.
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try connection.transaction {
            var conflicts: [StoreConflict] = []
            for row in changes.updated {
                let stored = try storedVersion(of: row.objectID)
                if stored != row.version {
                    conflicts.append(StoreConflict(objectID: row.objectID, expectedVersion: row.version, storeVersion: stored))
                }
            }
            for (id, version) in changes.deleted {
                let stored = try storedVersion(of: id)
                if stored != version { conflicts.append(StoreConflict(objectID: id, expectedVersion: version, storeVersion: stored)) }
            }
            for (id, version) in changes.locked {   // unchanged objects checked for conflicts
                let stored = try storedVersion(of: id)
                if stored != version { conflicts.append(StoreConflict(objectID: id, expectedVersion: version, storeVersion: stored)) }
            }
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }

            // Deletes first: a value of a uniqueness constraint a deleted row held is free for
            // the rows this save inserts or updates.
            for (id, _) in changes.deleted {
                let entity = try entity(id.entityName)
                let key = try key(of: id)
                try connection.run("DELETE FROM \(SQLiteSchema.tableName(root: entity.rootName)) WHERE Z_PK = ?", [.integer(key)])
                for (_, storage) in entity.relationships {
                    if case .joinTable(let table, let own, _, _, _) = storage {
                        try connection.run("DELETE FROM \(table) WHERE \(own) = ?", [.integer(key)])
                    }
                }
            }
            var versions: [ManagedObjectID: Int64] = [:]
            versions.reserveCapacity(changes.inserted.count + changes.updated.count)
            // Each entity's INSERT and UPDATE text, made once per save (the connection caches
            // the prepared statements by text).
            var statements: [String: (insert: String, update: String)] = [:]
            func sql(for entity: SQLiteSchema.Entity) -> (insert: String, update: String) {
                if let made = statements[entity.name] { return made }
                let table = SQLiteSchema.tableName(root: entity.rootName)
                let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + valueColumns(of: entity)
                let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                let update = "UPDATE \(table) SET " + (["Z_OPT"] + valueColumns(of: entity)).map { "\($0) = ?" }
                    .joined(separator: ", ") + " WHERE Z_PK = ?"
                statements[entity.name] = (insert, update)
                return (insert, update)
            }
            for row in changes.inserted {
                let entity = try entity(row.objectID.entityName)
                let key = try key(of: row.objectID)
                let sql = sql(for: entity).insert
                do {
                    try reportingUniqueness(of: row.objectID, entity: entity) {
                        try connection.run(sql, [.integer(key), .integer(entity.number), .integer(1)] + columnValues(of: row, entity: entity))
                    }
                } catch let error as SQLiteStoreError {
                    // SQLITE_CONSTRAINT_PRIMARYKEY: the key is taken (no query per row to check first).
                    guard case .sqlite(1555, _) = error.code else { throw error }
                    throw StoreSaveError.invalidObject(row.objectID, reason: "a row with Z_PK \(key) already exists in \(SQLiteSchema.tableName(root: entity.rootName))")
                }
                versions[row.objectID] = 1
            }
            for row in changes.updated {
                let entity = try entity(row.objectID.entityName)
                let sql = sql(for: entity).update
                let (version, overflow) = row.version.addingReportingOverflow(1)
                if overflow { throw fail(.unsupported("the version (Z_OPT) of \(row.objectID) cannot grow")) }
                try reportingUniqueness(of: row.objectID, entity: entity) {
                    try connection.run(sql, [.integer(version)] + columnValues(of: row, entity: entity) + [.integer(try key(of: row.objectID))])
                }
                versions[row.objectID] = version
            }
            for row in changes.inserted + changes.updated { try writeToManyRelationships(of: row) }
            return versions
        }
    }

    /// Runs `body`, turning SQLite's unique-index failure into
    /// ``SQLiteStoreError/Code/uniquenessConstraint(objectID:properties:)`` naming the
    /// properties of the constraint.
    private func reportingUniqueness(of id: ManagedObjectID, entity: SQLiteSchema.Entity, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteStoreError {
            // SQLITE_CONSTRAINT_UNIQUE; the message lists "TABLE.COLUMN" of the index.
            guard case .sqlite(2067, let message) = error.code else { throw error }
            let table = SQLiteSchema.tableName(root: entity.rootName) + "."
            let columns = message.components(separatedBy: ": ").last?.components(separatedBy: ", ") ?? []
            let properties = columns.map { column in
                let name = column.hasPrefix(table) ? String(column.dropFirst(table.count)) : column
                return entity.attributes.first { $0.column == name }?.attribute.name
                    ?? entity.relationships.first { pair in
                        if case .foreignKey(name, _, _) = pair.storage { return true }
                        return false
                    }?.relationship.name ?? name
            }
            throw SQLiteStoreError(.uniquenessConstraint(objectID: id, properties: properties), path: path, sql: error.sql)
        }
    }

    /// Join-table pairs and order columns for a row's to-many relationships.
    private func writeToManyRelationships(of row: StoreRow) throws {
        let entity = try entity(row.objectID.entityName)
        let key = try key(of: row.objectID)
        for (relationship, storage) in entity.relationships {
            // An updated row leaves out the relationships the context never loaded: unchanged.
            guard let ids = row.relationships[relationship.name] else { continue }
            let members = try ids.map { try self.key(of: $0) }
            switch storage {
            case .foreignKey:
                continue
            case .inverseForeignKey(let table, _, let orderColumn, _):
                // The members' own rows hold the key; an ordered relationship numbers them here.
                guard let orderColumn else { continue }
                for (position, member) in members.enumerated() {
                    try connection.run("UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?",
                                       [.integer(Int64(position + 1)), .integer(member)])
                }
            case .joinTable(let table, let own, let other, let orderColumn, _):
                let current = Set(try connection.rows("SELECT \(other) FROM \(table) WHERE \(own) = ?", [.integer(key)])
                    .compactMap { $0[0].integerValue })
                let wanted = Set(members)
                for gone in current.subtracting(wanted) {
                    try connection.run("DELETE FROM \(table) WHERE \(own) = ? AND \(other) = ?", [.integer(key), .integer(gone)])
                }
                for member in members where !current.contains(member) {
                    try connection.run("INSERT OR IGNORE INTO \(table) (\(own), \(other)) VALUES (?, ?)", [.integer(key), .integer(member)])
                }
                if let orderColumn {
                    for (position, member) in members.enumerated() {
                        try connection.run("UPDATE \(table) SET \(orderColumn) = ? WHERE \(own) = ? AND \(other) = ?",
                                           [.integer(Int64(position + 1)), .integer(key), .integer(member)])
                    }
                }
            }
        }
    }
}
