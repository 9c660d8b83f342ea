// Saving: one transaction, rows locked and versions checked first (optimistic locking).
import Foundation
import ManagedObjects
import SQLCompiling
import Predicates

extension PostgreSQLPersistentStore {
    /// Writes one save in one transaction: takes the saves' lock in shared mode (it waits while
    /// another user's resolving save keeps saves out, ``withOtherSavesExcluded(_:)``), locks
    /// the rows of every updated, deleted and locked object (`SELECT … FOR UPDATE`), compares
    /// their versions (`Z_OPT`) with the ones the context saw, then deletes, updates and inserts.
    ///
    /// - Throws: ``StoreSaveError/conflicts(_:)`` when a row moved on or is gone (nothing is
    ///   written); ``StoreSaveError/uniquenessConstraint(_:properties:)`` when another row has
    ///   the same values for a uniqueness constraint; ``StoreSaveError/invalidObject(_:reason:)``
    ///   for an insert of an existing object or an object of another store;
    ///   ``PostgreSQLStoreError`` for a server failure (the transaction is rolled back).
    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        guard !changes.isEmpty else { return [:] }
        var recorded = PostgreSQLRecordedSave()
        let saved = try withConnection { connection, state in
            let (schema, model) = try Self.loaded(state, connection)
            let identifier = state.identifier
            // History and fan-out (History/, Notifications/).
            let recordsHistory = tracksPersistentHistory
            let notification = fanOutNotification(identifier: identifier)
            func key(_ id: ManagedObjectID) throws -> Int64 {
                guard id.storeIdentifier == identifier, schema.entities[id.entityName] != nil,
                      case .integer(let key) = id.referenceObject else {
                    throw StoreSaveError.invalidObject(id, reason: "it does not belong to this store")
                }
                return key
            }
            return try connection.transaction {
                // First: wait while another user's resolving save keeps saves out.
                if excludingOtherSaves.load(ordering: .sequentiallyConsistent) == 0 { try connection.execute(Self.sharingSavesSQL) }
                // Lock and read the versions, one statement per root table.
                var checked: [String: [Int64]] = [:]
                for id in changes.updated.map(\.objectID) + changes.deleted.map(\.objectID) + changes.locked.map(\.objectID) {
                    checked[try schema.entity(id.entityName, server: connection.server).table, default: []].append(try key(id))
                }
                var versions: [String: [Int64: Int64]] = [:]
                let q = schema.dialect.quoted
                for (table, keys) in checked {
                    let result = try connection.execute(
                        "SELECT \(q("Z_PK")), \(q("Z_OPT")) FROM \(q(table)) WHERE \(q("Z_PK")) = ANY($1::bigint[]) FOR UPDATE",
                        [.integers(keys)])
                    for row in result.rows {
                        if let pk = PostgreSQLRows.integer(row[0]), let version = PostgreSQLRows.integer(row[1]) { versions[table, default: [:]][pk] = version }
                    }
                }
                let conflicts = try changes.conflicts { id in
                    versions[try schema.entity(id.entityName, server: connection.server).table]?[try key(id)]
                }
                guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
                let tombstones = recordsHistory && !changes.deleted.isEmpty
                    ? try Self.tombstones(of: changes.deleted.map(\.objectID), model: model, schema: schema, connection: connection, identifier: identifier)
                    : [:]

                var saved: [ManagedObjectID: Int64] = [:]
                for (id, _) in changes.deleted {
                    let entity = try schema.entity(id.entityName, server: connection.server)
                    let pk = try key(id)
                    try connection.execute("DELETE FROM \(q(entity.table)) WHERE \(q("Z_PK")) = $1::bigint", [.integer(pk)])
                    for (_, table) in entity.joinTables {
                        try connection.execute("DELETE FROM \(q(table)) WHERE \(q("Z_OWNER")) = $1::bigint", [.integer(pk)])
                    }
                }
                for row in changes.updated {
                    let entity = try schema.entity(row.objectID.entityName, server: connection.server)
                    let (names, values) = try Self.columnValues(of: row, entity: entity, schema: schema, server: connection.server, key: key)
                    var assignments = ["\(q("Z_OPT")) = \(q("Z_OPT")) + 1"]
                    for (offset, name) in names.enumerated() { assignments.append("\(q(name)) = $\(offset + 2)") }
                    try Self.writing(row.objectID, schema: schema) {
                        try connection.execute("UPDATE \(q(entity.table)) SET \(assignments.joined(separator: ", ")) WHERE \(q("Z_PK")) = $1::bigint",
                                               [.integer(try key(row.objectID))] + values)
                    }
                    try Self.writeToMany(of: row, entity: entity, replacing: true, connection: connection, schema: schema, key: key)
                    saved[row.objectID] = row.version + 1
                }
                for row in changes.inserted {
                    let entity = try schema.entity(row.objectID.entityName, server: connection.server)
                    let (names, values) = try Self.columnValues(of: row, entity: entity, schema: schema, server: connection.server, key: key)
                    let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + names
                    let placeholders = (1...columns.count).map { "$\($0)" }
                    let parameters: [PostgreSQLValue] = [.integer(try key(row.objectID)), .integer(Int64(entity.number)), .integer(1)] + values
                    try Self.writing(row.objectID, schema: schema) {
                        try connection.execute("INSERT INTO \(q(entity.table)) (\(columns.map(q).joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))",
                                               parameters)
                    }
                    try Self.writeToMany(of: row, entity: entity, replacing: false, connection: connection, schema: schema, key: key)
                    saved[row.objectID] = 1
                }
                // Last: the history counter's lock is held until the commit.
                recorded = try Self.recordHistory(of: changes, recordsHistory: recordsHistory, tombstones: tombstones,
                                                  notification: notification, model: model, schema: schema,
                                                  connection: connection, identifier: identifier)
                return saved
            }
        }
        if recorded.wasAnnounced { reportSave(token: recorded.token) }
        return saved
    }

    /// The stored columns of a row and their parameters (a to-one as key and entity number).
    static func columnValues(of row: StoreRow, entity: PostgreSQLSchema.Entity, schema: PostgreSQLSchema, server: String,
                                     key: (ManagedObjectID) throws -> Int64) throws -> ([String], [PostgreSQLValue]) {
        var names: [String] = []
        var values: [PostgreSQLValue] = []
        for column in entity.columns {
            if let attribute = column.attribute {
                names.append(column.name)
                values.append(try PostgreSQLSchema.parameter(row.attributes[attribute.name], for: attribute, entity: entity.name, server: server))
            } else if let relationship = column.relationship {
                names.append(column.name)
                names.append(column.name + "_ENT")
                if let target = row.relationships[relationship.name]?.first {
                    values.append(.integer(try key(target)))
                    values.append(.integer(Int64(try schema.entity(target.entityName, server: server).number)))
                } else {
                    values.append(.null)
                    values.append(.null)
                }
            }
        }
        return (names, values)
    }

    /// Writes a row's to-many relationships to their join tables, in order.
    static func writeToMany(of row: StoreRow, entity: PostgreSQLSchema.Entity, replacing: Bool,
                                    connection: PostgreSQLConnection, schema: PostgreSQLSchema,
                                    key: (ManagedObjectID) throws -> Int64) throws {
        let q = schema.dialect.quoted
        let owner = try key(row.objectID)
        for (relationship, table) in entity.joinTables {
            // An updated row leaves out the relationships the context never loaded: unchanged.
            if replacing && row.relationships[relationship.name] == nil { continue }
            if replacing {
                try connection.execute("DELETE FROM \(q(table)) WHERE \(q("Z_OWNER")) = $1::bigint", [.integer(owner)])
            }
            let members = row.relationships[relationship.name] ?? []
            guard !members.isEmpty else { continue }
            var targets: [Int64] = []
            var numbers: [Int64] = []
            for member in members {
                targets.append(try key(member))
                numbers.append(Int64(try schema.entity(member.entityName, server: connection.server).number))
            }
            // One statement per relationship: the arrays unnest with their positions.
            try connection.execute(
                "INSERT INTO \(q(table)) SELECT $1::bigint, ord, target, ent FROM unnest($2::bigint[], $3::integer[]) WITH ORDINALITY AS m(target, ent, ord)",
                [.integer(owner), .integers(targets), .integers(numbers)])
        }
    }

    /// Runs one row's statement, turning unique violations into store save errors.
    private static func writing(_ id: ManagedObjectID, schema: PostgreSQLSchema, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PostgreSQLStoreError where error.sqlState == "23505" {
            if case .statementFailed(let message, _, _) = error.code,
               let constraint = schema.constraints.first(where: { message.contains("\"\($0.index)\"") }) {
                throw StoreSaveError.uniquenessConstraint(id, properties: constraint.properties)
            }
            throw StoreSaveError.invalidObject(id, reason: "it already exists")
        }
    }
}
