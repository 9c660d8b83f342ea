// Writing one save's transaction and changes, inside the save's SQLite transaction.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// The values of the attributes kept in history of each deleted object that has some,
    /// read before the rows go (inside the save's transaction).
    func historyTombstones(for deleted: [(objectID: ManagedObjectID, version: Int64)]) throws
        -> [ManagedObjectID: [String: KeyValueConstant]] {
        var result: [ManagedObjectID: [String: KeyValueConstant]] = [:]
        for (id, _) in deleted {
            guard let entity = schema.entities[id.entityName], case .integer(let key) = id.referenceObject else { continue }
            let kept = SQLiteHistoryLayout.tombstoneAttributes(of: entity)
            if kept.isEmpty { continue }
            let sql = "SELECT " + kept.map(\.column).joined(separator: ", ") + " FROM "
                + SQLiteSchema.tableName(root: entity.rootName) + " WHERE Z_PK = ?"
            guard let values = try connection.rows(sql, [.integer(key)]).first else { continue }
            var tombstone: [String: KeyValueConstant] = [:]
            for (index, pair) in kept.enumerated() where !values[index].isNull {
                if let constant = try SQLiteSchema.constant(values[index], for: pair.attribute, entity: entity.name, path: path) {
                    tombstone[pair.attribute.name] = constant
                }
            }
            result[id] = tombstone
        }
        return result
    }

    /// Takes `count` keys from a history table's `Z_MAX` counter; returns the first. A counter
    /// behind the table's largest key (edited by hand, or damaged) continues after that key,
    /// so that a new transaction is never hidden behind or clashes with an old one.
    private func takeHistoryKeys(_ number: Int64, count: Int64) throws -> Int64 {
        let table = SQLiteHistoryLayout.table(of: number)
        try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), IFNULL((SELECT MAX(Z_PK) FROM \(table)), 0)) + ? "
                           + "WHERE Z_ENT = ?", [.integer(count), .integer(number)])
        guard let maximum = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(number)])?.integerValue else {
            throw fail(.notAStore("Z_PRIMARYKEY has no usable Z_MAX for the history rows \(number)"))
        }
        return maximum - count + 1
    }

    /// The `ATRANSACTIONSTRING` key of a name, adding the row when it is new.
    private func historyStringKey(_ name: String?) throws -> SQLiteValue {
        guard let name else { return .null }
        if let key = try connection.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(name)])?.integerValue {
            return .integer(key)
        }
        let key = try takeHistoryKeys(SQLiteHistoryLayout.stringEntity, count: 1)
        try connection.run("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
                           [.integer(key), .integer(SQLiteHistoryLayout.stringEntity), .text(name)])
        return .integer(key)
    }

    /// Writes the transaction of a save and its changes; call inside the save's SQLite
    /// transaction, after the rows are written. A save that changes no object records nothing.
    ///
    /// - Returns: The transaction's number, or `nil` when nothing was recorded.
    func recordHistory(of changes: StoreSaveChanges, layout: SQLiteHistoryLayout,
                       tombstones: [ManagedObjectID: [String: KeyValueConstant]], timestamp: Date = Date()) throws -> Int64? {
        let changeCount = Int64(changes.inserted.count + changes.updated.count + changes.deleted.count)
        guard changeCount > 0 else { return nil }
        let number = try takeHistoryKeys(SQLiteHistoryLayout.transactionEntity, count: 1)
        let firstChange = try takeHistoryKeys(SQLiteHistoryLayout.changeEntity, count: changeCount)
        let transaction = PersistentHistoryTransaction(recording: changes, transactionNumber: number, firstChangeIdentifier: firstChange,
                                                       storeIdentifier: identifier, timestamp: timestamp, tombstones: tombstones)
        let names = [transaction.author, transaction.bundleIdentifier, transaction.contextName, transaction.processIdentifier]
        let fields = SQLiteHistoryLayout.stringFields
        var columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZTIMESTAMP"]
        var values: [SQLiteValue] = [.integer(number), .integer(SQLiteHistoryLayout.transactionEntity), .null,
                                     .real(timestamp.timeIntervalSinceReferenceDate)]
        if layout.usesStringTable {
            columns += fields.map { "Z\($0)TS" }
            values += try names.map(historyStringKey)
        } else if layout.hasNameColumns {
            columns += fields.map { "Z\($0)" }
            values += names.map { $0.map(SQLiteValue.text) ?? .null }
        }
        try connection.run("INSERT INTO ATRANSACTION (\(columns.joined(separator: ", "))) VALUES ("
                           + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")", values)

        let tombstoneColumns = (0..<layout.tombstoneColumns).map { "ZTOMBSTONE\($0)" }
        let insert = "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"
            + tombstoneColumns.map { ", " + $0 }.joined() + ") VALUES (?, ?, NULL, ?, ?, ?, ?, ?"
            + String(repeating: ", ?", count: tombstoneColumns.count) + ")"
        for change in transaction.changes {
            let entity = try entity(change.changedObjectID.entityName)
            guard case .integer(let key) = change.changedObjectID.referenceObject else { continue }
            var bits: SQLiteValue = .null
            if let names = change.updatedPropertyNames, let data = SQLiteHistoryLayout.columnBits(names, entity: entity) { bits = .blob(data) }
            var row: [SQLiteValue] = [.integer(change.changeIdentifier), .integer(SQLiteHistoryLayout.changeEntity),
                                      .integer(Int64(change.changeType.rawValue)), .integer(entity.number), .integer(key),
                                      .integer(number), bits]
            var kept = [SQLiteValue](repeating: .null, count: tombstoneColumns.count)
            if let tombstone = change.tombstone {
                for (index, pair) in SQLiteHistoryLayout.tombstoneAttributes(of: entity).enumerated() where index < kept.count {
                    kept[index] = try SQLiteSchema.sqlValue(tombstone[pair.attribute.name], for: pair.attribute, entity: entity.name, path: path)
                }
            }
            row += kept
            try connection.run(insert, row)
        }
        return number
    }
}
