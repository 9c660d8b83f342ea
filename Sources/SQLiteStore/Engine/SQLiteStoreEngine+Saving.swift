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

    /// Binds the values of an entity's value columns for a row to `statement`, from parameter
    /// `first` on; returns the next parameter's index.
    private func bindColumnValues(of row: StoreRow, entity: SQLiteSchema.Entity, to statement: SQLiteStatement,
                                  from first: Int) throws -> Int {
        var index = first
        for position in entity.attributes.indices {
            let kind = entity.attributeKinds[position]
            let constant = row.attributeValue(named: kind.name)
            // The common kinds directly (without copying the description); the rest, and every
            // value of another kind (an error), through the schema's full conversion.
            let value: SQLiteValue
            switch (kind.type, constant) {
            case (_, nil), (_, .null?): value = .null
            case (.integer16, .integer(let v)?), (.integer32, .integer(let v)?), (.integer64, .integer(let v)?): value = .integer(v)
            case (.boolean, .bool(let v)?): value = .integer(v ? 1 : 0)
            case (.double, .double(let v)?) where !v.isNaN, (.float, .double(let v)?) where !v.isNaN: value = .real(v)
            case (.string, .string(let text)?): value = .text(text)
            case (.date, .date(let date)?): value = .real(date.timeIntervalSinceReferenceDate)
            default:
                value = try SQLiteSchema.sqlValue(constant, for: entity.attributes[position].attribute, entity: entity.name, path: path)
            }
            try statement.bind(value, at: index)
            index += 1
        }
        for position in entity.relationships.indices {
            guard case .foreignKey(_, let entityColumn, _) = entity.relationships[position].storage else { continue }
            let target = row.relationships[entity.relationships[position].relationship.name]?.first
            try statement.bind(try target.map { .integer(try key(of: $0)) } ?? .null, at: index)
            index += 1
            if entityColumn != nil {
                try statement.bind(try target.map { .integer(try self.entity($0.entityName).number) } ?? .null, at: index)
                index += 1
            }
        }
        return index
    }

    /// The stored versions (`Z_OPT`) of objects, one query per entity; an object whose row is
    /// gone has none.
    private func storedVersions(of ids: [ManagedObjectID]) throws -> [ManagedObjectID: Int64] {
        var keysByEntity: [String: [Int64]] = [:]
        for id in ids { keysByEntity[id.entityName, default: []].append(try key(of: id)) }
        var versions: [ManagedObjectID: Int64] = [:]
        versions.reserveCapacity(ids.count)
        for (name, keys) in keysByEntity {
            let entity = try entity(name)
            let sql = "SELECT Z_PK, Z_OPT FROM \(SQLiteSchema.tableName(root: entity.rootName)) "
                + "WHERE Z_PK IN (SELECT value FROM json_each(?)) AND Z_ENT = ?"
            let statement = try connection.statement(sql)
            try statement.bind([.text("[" + keys.map(String.init).joined(separator: ",") + "]"), .integer(entity.number)])
            defer { statement.reset() }
            let template = objectID(name, 0)
            while try statement.step() {
                versions[template.withPrimaryKey(statement.integer(at: 0))] = statement.integer(at: 1)
            }
        }
        return versions
    }

    /// An entity's cached save statements.
    private struct SaveStatements {
        var insert: SQLiteStatement
        var update: SQLiteStatement
        var delete: SQLiteStatement
        /// Whether the entity has to-many relationships (join tables or ordered members).
        var hasToMany: Bool
    }

    /// The INSERT, UPDATE and DELETE statements of an entity (prepared once per connection).
    private func saveStatements(for entity: SQLiteSchema.Entity) throws -> SaveStatements {
        let table = SQLiteSchema.tableName(root: entity.rootName)
        let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + valueColumns(of: entity)
        let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let update = "UPDATE \(table) SET " + (["Z_OPT"] + valueColumns(of: entity)).map { "\($0) = ?" }
            .joined(separator: ", ") + " WHERE Z_PK = ?"
        let hasToMany = entity.relationships.contains { pair in
            if case .foreignKey = pair.storage { return false }
            return true
        }
        return SaveStatements(insert: try connection.statement(insert), update: try connection.statement(update),
                              delete: try connection.statement("DELETE FROM \(table) WHERE Z_PK = ?"), hasToMany: hasToMany)
    }


    /// Writes one save in one transaction; conflicts are found before anything is written.
    ///
    /// The versions are checked with one query per entity; rows are written through each
    /// entity's cached statements, values bound one by one.
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try connection.transaction {
            let checked = changes.updated.map(\.objectID) + changes.deleted.map(\.objectID) + changes.locked.map(\.objectID)
            let stored = checked.isEmpty ? [:] : try storedVersions(of: checked)
            var conflicts: [StoreConflict] = []
            func check(_ id: ManagedObjectID, _ expected: Int64) {
                let current = stored[id] ?? 0
                if current != expected { conflicts.append(StoreConflict(objectID: id, expectedVersion: expected, storeVersion: current)) }
            }
            for row in changes.updated { check(row.objectID, row.version) }
            for (id, version) in changes.deleted { check(id, version) }
            for (id, version) in changes.locked { check(id, version) }   // unchanged objects checked for conflicts
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }

            var statementsByEntity: [String: SaveStatements] = [:]
            func statements(for entity: SQLiteSchema.Entity) throws -> SaveStatements {
                if let made = statementsByEntity[entity.name] { return made }
                let made = try saveStatements(for: entity)
                statementsByEntity[entity.name] = made
                return made
            }
            // Deletes first: a value of a uniqueness constraint a deleted row held is free for
            // the rows this save inserts or updates.
            for (id, _) in changes.deleted {
                let entity = try entity(id.entityName)
                let key = try key(of: id)
                let delete = try statements(for: entity).delete
                delete.start()
                try delete.bind(.integer(key), at: 1)
                try delete.runBound()
                for (_, storage) in entity.relationships {
                    if case .joinTable(let table, let own, _, _, _) = storage {
                        try connection.run("DELETE FROM \(table) WHERE \(own) = ?", [.integer(key)])
                    }
                }
            }
            var versions: [ManagedObjectID: Int64] = [:]
            versions.reserveCapacity(changes.inserted.count + changes.updated.count)
            for row in changes.inserted {
                let entity = try entity(row.objectID.entityName)
                let key = try key(of: row.objectID)
                let insert = try statements(for: entity).insert
                do {
                    try reportingUniqueness(of: row.objectID, entity: entity) {
                        insert.start()
                        try insert.bind(.integer(key), at: 1)
                        try insert.bind(.integer(entity.number), at: 2)
                        try insert.bind(.integer(1), at: 3)
                        _ = try bindColumnValues(of: row, entity: entity, to: insert, from: 4)
                        try insert.runBound()
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
                let update = try statements(for: entity).update
                let (version, overflow) = row.version.addingReportingOverflow(1)
                if overflow { throw fail(.unsupported("the version (Z_OPT) of \(row.objectID) cannot grow")) }
                try reportingUniqueness(of: row.objectID, entity: entity) {
                    update.start()
                    try update.bind(.integer(version), at: 1)
                    let next = try bindColumnValues(of: row, entity: entity, to: update, from: 2)
                    try update.bind(.integer(try key(of: row.objectID)), at: next)
                    try update.runBound()
                }
                versions[row.objectID] = version
            }
            for rows in [changes.inserted, changes.updated] {
                for row in rows where try statements(for: entity(row.objectID.entityName)).hasToMany {
                    try writeToManyRelationships(of: row)
                }
            }
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
