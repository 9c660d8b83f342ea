// Recording a save in the persistent history, inside the save's transaction, and announcing it
// to the other processes with NOTIFY.
import Foundation
import ManagedObjects
import Predicates

extension PostgreSQLPersistentStore {
    /// The values of the attributes an entity keeps after deletion
    /// (``AttributeDescription/preservesValueInHistoryOnDeletion``), read before the objects are
    /// deleted, by object.
    static func tombstones(of deleted: [ManagedObjectID], model: ManagedObjectModel, schema: PostgreSQLSchema,
                           connection: PostgreSQLConnection, identifier: String) throws -> [ManagedObjectID: [String: KeyValueConstant]] {
        var keysByEntity: [String: [Int64]] = [:]
        var preserved: [String: [String]] = [:]
        for id in deleted {
            guard case .integer(let key) = id.referenceObject, let entity = model.entity(named: id.entityName) else { continue }
            if preserved[entity.name] == nil {
                preserved[entity.name] = entity.attributesByName.values.filter(\.preservesValueInHistoryOnDeletion).map(\.name)
            }
            if preserved[entity.name]?.isEmpty == false { keysByEntity[entity.name, default: []].append(key) }
        }
        var tombstones: [ManagedObjectID: [String: KeyValueConstant]] = [:]
        for (name, keys) in keysByEntity {
            let names = preserved[name] ?? []
            for row in try rows(ofEntities: [name], keys: keys, schema: schema, connection: connection, identifier: identifier) {
                var values: [String: KeyValueConstant] = [:]
                for attribute in names { if let value = row.attributes[attribute] { values[attribute] = value } }
                tombstones[row.objectID] = values
            }
        }
        return tombstones
    }

    /// Records one save's transaction and its changes, and queues the notification that
    /// announces it; the last statements of the save's transaction.
    ///
    /// The transaction takes its number from the counter row (`ATRANSACTIONCOUNTER`), whose
    /// row lock it then holds until it commits: a concurrent save waits for the commit before
    /// it numbers its own, so transaction numbers follow the commit order, and a reader that
    /// saw transaction *n* will never later find a committed transaction below *n* it had not
    /// seen. The notification (`pg_notify`) is delivered at the commit, and not at all when the
    /// transaction rolls back.
    ///
    /// - Parameters:
    ///   - changes: The save.
    ///   - recordsHistory: Whether to write the transaction (history tracking is on).
    ///   - tombstones: Preserved values of deleted objects.
    ///   - notification: The channel and this store's origin mark, when the store announces
    ///     its saves.
    /// - Returns: The transaction's token (`nil` when no history was written) and whether a
    ///   notification was sent.
    static func recordHistory(of changes: StoreSaveChanges, recordsHistory: Bool,
                              tombstones: [ManagedObjectID: [String: KeyValueConstant]],
                              notification: (channel: String, origin: String)?,
                              model: ManagedObjectModel, schema: PostgreSQLSchema,
                              connection: PostgreSQLConnection, identifier: String) throws -> PostgreSQLRecordedSave {
        let changeCount = changes.inserted.count + changes.updated.count + changes.deleted.count
        guard changeCount > 0 else { return PostgreSQLRecordedSave() }
        var token: PersistentHistoryToken?
        if recordsHistory {
            let q = schema.dialect.quoted
            let counter = try connection.execute(
                "UPDATE \(q(PostgreSQLHistoryTables.counter)) SET \(q("Z_MAXTRANSACTION")) = \(q("Z_MAXTRANSACTION")) + 1, \(q("Z_MAXCHANGE")) = \(q("Z_MAXCHANGE")) + $1::bigint RETURNING \(q("Z_MAXTRANSACTION")), \(q("Z_MAXCHANGE"))",
                [.integer(Int64(changeCount))])
            guard let values = counter.rows.first, let number = PostgreSQLRows.integer(values[0]),
                  let lastChange = PostgreSQLRows.integer(values[1]) else {
                throw PostgreSQLStoreError(.unsupported("the history counter row (\(PostgreSQLHistoryTables.counter)) is missing"), server: connection.server)
            }
            let transaction = PersistentHistoryTransaction(recording: changes, transactionNumber: number,
                                                           firstChangeIdentifier: lastChange - Int64(changeCount) + 1,
                                                           storeIdentifier: identifier, tombstones: tombstones)
            try write(transaction, model: model, schema: schema, connection: connection)
            token = transaction.token
        }
        if let notification {
            let payload = PostgreSQLFanOutPayload(transactionNumber: token?.transactionNumber, origin: notification.origin)
            try connection.execute("SELECT pg_notify($1::text, $2::text)", [.text(notification.channel), .text(payload.text)])
        }
        return PostgreSQLRecordedSave(token: token, wasAnnounced: notification != nil)
    }

    /// Inserts a transaction's row and its change rows (one statement for all the changes).
    private static func write(_ transaction: PersistentHistoryTransaction, model: ManagedObjectModel, schema: PostgreSQLSchema,
                              connection: PostgreSQLConnection) throws {
        let q = schema.dialect.quoted
        // The server's clock, as seconds since 2001-01-01 (978 307 200 s after 1970).
        try connection.execute(
            "INSERT INTO \(q(PostgreSQLHistoryTables.transactions)) VALUES ($1::bigint, $2::integer, NULL, extract(epoch FROM clock_timestamp())::double precision - 978307200, $3::text, $4::text, $5::text, $6::text)",
            [.integer(transaction.transactionNumber), .integer(PostgreSQLHistoryTables.transactionEntityNumber),
             optionalText(transaction.author), optionalText(transaction.contextName),
             optionalText(transaction.processIdentifier), optionalText(transaction.bundleIdentifier)])
        var identifiers: [Int64] = []
        var types: [Int64] = []
        var entities: [Int64] = []
        var keys: [Int64] = []
        var columns: [String?] = []
        var tombstones: [String?] = []
        for change in transaction.changes {
            let id = change.changedObjectID
            guard case .integer(let key) = id.referenceObject, let entity = model.entity(named: id.entityName) else { continue }
            identifiers.append(change.changeIdentifier)
            types.append(Int64(change.changeType.rawValue))
            entities.append(Int64(try schema.entity(id.entityName, server: connection.server).number))
            keys.append(key)
            columns.append(PostgreSQLHistoryTables.columnsText(change.updatedPropertyNames))
            tombstones.append(try PostgreSQLHistoryTables.tombstoneText(change.tombstone, entity: entity, server: connection.server))
        }
        guard !identifiers.isEmpty else { return }
        try connection.execute(
            "INSERT INTO \(q(PostgreSQLHistoryTables.changes)) SELECT c.pk, $7::integer, NULL, c.kind, c.entity, c.key, $8::bigint, c.columns, c.tombstone FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::bigint[], $5::text[], $6::text[]) AS c(pk, kind, entity, key, columns, tombstone)",
            [.integers(identifiers), .integers(types), .integers(entities), .integers(keys), .texts(columns), .texts(tombstones),
             .integer(PostgreSQLHistoryTables.changeEntityNumber), .integer(transaction.transactionNumber)])
    }

    private static func optionalText(_ text: String?) -> PostgreSQLValue { text.map { .text($0) } ?? .null }
}

/// What a save wrote to the history and whether it sent a notification.
struct PostgreSQLRecordedSave {
    var token: PersistentHistoryToken?
    var wasAnnounced = false
}

/// The payload of a store's notification: the new transaction's number (its token), and the
/// origin mark of the store object that saved, so that it can skip its own saves (which it
/// reported when it committed them). `"<number> <origin>"`, `-` for no number (history off).
struct PostgreSQLFanOutPayload: Hashable {
    var transactionNumber: Int64?
    var origin: String

    var text: String { (transactionNumber.map(String.init) ?? "-") + " " + origin }

    init(transactionNumber: Int64?, origin: String) {
        self.transactionNumber = transactionNumber
        self.origin = origin
    }

    /// Reads a payload; `nil` for text that is not one.
    init?(_ text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        if parts[0] == "-" {
            transactionNumber = nil
        } else {
            guard let number = Int64(parts[0]) else { return nil }
            transactionNumber = number
        }
        origin = String(parts[1])
    }
}

extension PostgreSQLPersistentStore {
    /// Creates the history tables when the store records history and they are missing (a
    /// database first used without history gains them), under the loading advisory lock.
    func prepareHistory(on connection: PostgreSQLConnection) throws {
        guard tracksPersistentHistory else { return }
        try connection.transaction {
            try connection.execute(Self.loadingLockSQL)
            try PostgreSQLHistoryTables.create(on: connection)
        }
    }
}
