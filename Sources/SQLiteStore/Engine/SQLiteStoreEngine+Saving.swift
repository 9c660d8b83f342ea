// Saving: primary keys from Z_PRIMARYKEY, and one transaction per save with Z_OPT checks.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// New IDs, keys taken from each inheritance root's `Z_MAX` counter in one transaction.
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        // Each entity's root and an ID to copy (its name's hash made once), looked up once
        // per entity, not per name.
        var templates: [String: (root: String, id: ManagedObjectID)] = [:]
        var countByRoot: [String: Int64] = [:]
        var lastName: String?
        var lastRoot = ""
        for name in entityNames {
            if name != lastName {
                if let known = templates[name] {
                    lastRoot = known.root
                } else {
                    lastRoot = try entity(name).rootName
                    templates[name] = (lastRoot, objectID(name, 0))
                }
                lastName = name
            }
            countByRoot[lastRoot, default: 0] += 1
        }
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
        ids.reserveCapacity(entityNames.count)
        lastName = nil
        var template: ManagedObjectID?
        var next: Int64 = 0
        for name in entityNames {
            if name != lastName {
                if lastName != nil { nextByRoot[lastRoot] = next }
                let known = templates[name]!
                (lastRoot, template) = (known.root, known.id)
                next = nextByRoot[lastRoot]!
                lastName = name
            }
            ids.append(template!.withPrimaryKey(next))
            next += 1
        }
        return ids
    }

    /// Moves the key counter of `name`'s inheritance root up to `key` when it is below.
    func raiseKeyCounter(of name: String, to key: Int64) throws {
        let root = try entity(try entity(name).rootName).number
        try connection.transaction {
            try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX < ?", [.integer(key), .integer(root), .integer(key)])
        }
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

    /// The optimistic-locking conflicts of `changes` (updated, deleted, locked, in order),
    /// read with one query per entity.
    private func conflicts(of changes: StoreSaveChanges,
                           checking ids: [ManagedObjectID]) throws -> [StoreConflict] {
        let stored = ids.isEmpty ? [:] : try storedVersions(of: ids)
        return changes.conflicts { stored[$0] }
    }

    /// Writes one save in one transaction; conflicts are reported before anything is written.
    ///
    /// First the rows are written with their version checks folded into the statements
    /// (`UPDATE`/`DELETE … WHERE Z_PK = ? AND Z_ENT = ? AND Z_OPT = ?`, each expected to change
    /// one row), inside a savepoint. When a row does not match, or anything fails, the
    /// savepoint is rolled back and the save is made again the careful way: every version
    /// read and compared first (so that all conflicts are reported, and before any other
    /// error), then the rows written. Both ways run in the same transaction, which holds the
    /// write lock, so they see the same file.
    ///
    /// Every inserted row gets version (`Z_OPT`) 1 and every updated row its version plus one
    /// (``savedVersions``): no versions are returned.
    func save(_ changes: StoreSaveChanges) throws {
        try connection.transaction {
            let writers = EntityWriters()
            // Inserts alone cannot conflict: nothing to check, no savepoint needed.
            if changes.updated.isEmpty && changes.deleted.isEmpty && changes.locked.isEmpty {
                return try saveCheckingFirst(changes, writers: writers)
            }
            if try saveCheckingWhileWriting(changes, writers: writers) { return }
            try saveCheckingFirst(changes, writers: writers)
        }
    }

    /// The versions a successful ``save(_:)`` gave its rows: 1 for every new row, one more
    /// than the row's version for every updated row.
    static let savedVersions = SavedRowVersions(inserted: 1, updated: nil)

    /// The save with its version checks in the write statements, in a savepoint; `false` (and
    /// nothing written) when a row is not at its expected version or a statement fails.
    private func saveCheckingWhileWriting(_ changes: StoreSaveChanges, writers: EntityWriters) throws -> Bool {
        if !changes.locked.isEmpty {
            // Objects only checked, nothing written: their versions read first.
            let stored = try storedVersions(of: changes.locked.map(\.objectID))
            // A missing row never matches (StoreSaveChanges.conflicts(currentVersion:)).
            for (id, version) in changes.locked where stored[id] != version { return false }
        }
        try connection.execute("SAVEPOINT ZSAVE")
        let written: Bool
        do {
            written = try writeChecked(changes, writers: writers)
        } catch {
            // Made again below with every check first, which reports this error, or the
            // conflicts that come before it. A failure that ended the whole transaction
            // (SQLite rolls back by itself on a full disk and the like) is reported at once.
            guard connection.isInTransaction, (try? connection.execute("ROLLBACK TO ZSAVE; RELEASE ZSAVE")) != nil else {
                throw error
            }
            return false
        }
        try connection.execute(written ? "RELEASE ZSAVE" : "ROLLBACK TO ZSAVE; RELEASE ZSAVE")
        return written
    }

    /// Deletes, updates and inserts the rows, each delete and update only of a row at its
    /// expected version; `false` at the first one that is not.
    private func writeChecked(_ changes: StoreSaveChanges, writers: EntityWriters) throws -> Bool {
        // Runs of one entity's rows at one version, several per statement (DeleteBatches).
        guard try writeCheckedDeletes(changes.deleted, writers: writers) else { return false }
        // The changed columns alone where the saving context says which they are.
        let masks = changes.updatedSlotMasks.count == changes.updated.count ? changes.updatedSlotMasks : []
        // Rows read in place through their buffers (not copied out, which retains each of
        // their parts).
        let allUpdated = try changes.updated.withUnsafeBufferPointer { rows in
            for index in rows.indices {
                let writer = try writers.writer(rows[index].objectID.entityName, engine: self)
                let version = try nextVersion(of: rows[index])
                if !masks.isEmpty, let written = try writeChangedColumns(of: rows[index], mask: masks[index], version: version,
                                                                          writer: writer) {
                    guard written else { return false }
                    continue
                }
                let update = writer.checkedUpdate
                update.start()
                try update.bind(integer: version, at: 1)
                let next = try bindColumnValues(of: rows[index], writer: writer, to: update, from: 2)
                try update.bind(integer: try key(of: rows[index].objectID), at: next)
                try update.bind(integer: writer.number, at: next + 1)
                try update.bind(integer: rows[index].version, at: next + 2)
                guard try update.runBoundCountingChanges() == 1 else { return false }
            }
            return true
        }
        guard allUpdated else { return false }
        // Inserts after the updates: a value of a uniqueness constraint an updated row gave up
        // is free for a new row.
        try changes.inserted.withUnsafeBufferPointer { rows in
            for index in rows.indices {
                let writer = try writers.writer(rows[index].objectID.entityName, engine: self)
                try insert(rows[index], key: try key(of: rows[index].objectID), writer: writer)
            }
        }
        try writeToManyRelationships(of: changes, writers: writers)
        return true
    }

    /// The save with every version read and compared before anything is written, so that all
    /// conflicts are reported together.
    private func saveCheckingFirst(_ changes: StoreSaveChanges, writers: EntityWriters) throws {
        let checked = changes.updated.map(\.objectID) + changes.deleted.map(\.objectID) + changes.locked.map(\.objectID)
        let conflicts = try conflicts(of: changes, checking: checked)
        guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }

        // Deletes first, then updates, then inserts: a value of a uniqueness constraint a
        // deleted or updated row held is free for the rows written after it.
        for (id, _) in changes.deleted {
            let writer = try writers.writer(id.entityName, engine: self)
            let key = try key(of: id)
            let delete = writer.delete
            delete.start()
            try delete.bind(integer: key, at: 1)
            try delete.runBound()
            try deleteJoinRows(of: key, writer: writer)
        }
        for row in changes.updated {
            let writer = try writers.writer(row.objectID.entityName, engine: self)
            let update = writer.update
            let version = try nextVersion(of: row)
            try reportingUniqueness(of: row.objectID, entity: writer.entity) {
                update.start()
                try update.bind(integer: version, at: 1)
                let next = try bindColumnValues(of: row, writer: writer, to: update, from: 2)
                try update.bind(integer: try key(of: row.objectID), at: next)
                try update.runBound()
            }
        }
        // Inserts after the updates, as in `writeChecked`.
        try changes.inserted.withUnsafeBufferPointer { rows in
            for index in rows.indices {
                let id = rows[index].objectID
                let writer = try writers.writer(id.entityName, engine: self)
                let key = try key(of: id)
                do {
                    try insert(rows[index], key: key, writer: writer)
                } catch let error as SQLiteStoreError {
                    // The entity's description read only to report a uniqueness conflict
                    // (not copied for every row).
                    try reportingUniqueness(of: id, entity: writer.entity) { throw error }
                }
            }
        }
        try writeToManyRelationships(of: changes, writers: writers)
    }

    /// Inserts a new row (`Z_OPT` 1); a key already taken is reported as an invalid object.
    private func insert(_ row: StoreRow, key: Int64, writer: EntityWriter) throws {
        let insert = writer.insert
        do {
            insert.start()
            try insert.bind(integer: key, at: 1)
            try insert.bind(integer: writer.number, at: 2)
            try insert.bind(integer: 1, at: 3)
            _ = try bindColumnValues(of: row, writer: writer, to: insert, from: 4)
            try insert.runBound()
        } catch let error as SQLiteStoreError {
            // SQLITE_CONSTRAINT_PRIMARYKEY: the key is taken (no query per row to check first).
            guard case .sqlite(1555, _) = error.code else { throw error }
            throw StoreSaveError.invalidObject(row.objectID, reason: "a row with Z_PK \(key) already exists in \(writer.table)")
        }
    }

    /// The version an updated row gets.
    private func nextVersion(of row: StoreRow) throws -> Int64 {
        let (version, overflow) = row.version.addingReportingOverflow(1)
        if overflow { throw fail(.unsupported("the version (Z_OPT) of \(row.objectID) cannot grow")) }
        return version
    }

    /// Removes a deleted row's pairs from its entity's join tables.
    func deleteJoinRows(of key: Int64, writer: EntityWriter) throws {
        for sql in writer.joinTableDeletes {
            let delete = try connection.statement(sql)
            delete.start()
            try delete.bind(integer: key, at: 1)
            try delete.runBound()
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
            // A fact about the data, not the SQL: the statement (an INSERT or UPDATE of
            // ours) would say nothing more.
            throw SQLiteStoreError(.uniquenessConstraint(objectID: id, properties: properties), path: path)
        }
    }

    /// Join-table pairs and order columns of the inserted and updated rows of entities with
    /// to-many relationships.
    private func writeToManyRelationships(of changes: StoreSaveChanges, writers: EntityWriters) throws {
        // Every entity of the rows has its writer by now: none with to-manys, nothing to do.
        guard writers.anyHasToMany else { return }
        for rows in [changes.inserted, changes.updated] {
            for row in rows where try writers.writer(row.objectID.entityName, engine: self).hasToMany {
                try writeToManyRelationships(of: row)
            }
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
