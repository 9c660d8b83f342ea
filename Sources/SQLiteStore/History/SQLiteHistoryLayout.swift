// Persistent history in Core Data's SQLite layout: ATRANSACTION, ACHANGE, ATRANSACTIONSTRING.
import Foundation
import ManagedObjects

/// The history tables of one store file, as found (or made) when the store loaded with
/// history tracking on (LAYOUT.md §7; Docs/SQLiteStore.md "Persistent history").
///
/// Apple's stores keep the transaction's author, bundle, context and process names in
/// `ATRANSACTIONSTRING` rows that `ATRANSACTION`'s `…TS` columns point at; older ones may
/// keep them in `ATRANSACTION`'s own `VARCHAR` columns. Both are read; new transactions are
/// written the newer way when the file has the `…TS` columns.
struct SQLiteHistoryLayout: Sendable {
    /// `Z_ENT` of the history rows, with `Z_PRIMARYKEY` rows of these numbers and names.
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003
    static let primaryKeyNames: [(Int64, String)] = [(changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"),
                                                     (stringEntity, "TRANSACTIONSTRING")]

    /// The names of the transaction's string fields, in the order of the columns.
    static let stringFields = ["AUTHOR", "BUNDLEID", "CONTEXTNAME", "PROCESSID"]

    /// Whether the file has `ATRANSACTIONSTRING` and `ATRANSACTION`'s `…TS` columns.
    var usesStringTable: Bool
    /// Whether `ATRANSACTION` has the `ZAUTHOR`… `VARCHAR` columns.
    var hasNameColumns: Bool
    /// How many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    var tombstoneColumns: Int

    /// The statements creating the history tables and indexes, as Apple's stores have them,
    /// with `tombstones` tombstone columns on `ACHANGE`.
    static func creationStatements(tombstones: Int) -> [String] {
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        return [
            "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, "
                + "ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstoneColumns) )",
            "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
                + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, "
                + "ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
            "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
            "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
            "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
            "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
            "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
            "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
            "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
        ]
    }

    /// The attributes of an entity whose values a delete keeps (``AttributeDescription/preservesValueInHistoryOnDeletion``),
    /// sorted by name: the `n`-th goes to `ZTOMBSTONE<n>`. (Which attribute Apple puts in
    /// which column could not be observed; this order is this package's.)
    static func tombstoneAttributes(of entity: SQLiteSchema.Entity) -> [(attribute: AttributeDescription, column: String)] {
        entity.attributes.filter(\.attribute.preservesValueInHistoryOnDeletion).sorted { $0.attribute.name < $1.attribute.name }
    }

    /// An entity's saved property names (attributes and relationships, inherited ones included)
    /// sorted by name: bit `n` of `ACHANGE.ZCOLUMNS` (byte `n / 8`, bit `n % 8` from the least
    /// significant) marks the `n`-th as updated. Apple's stores hold such bit sets; which
    /// property each bit stands for there could not be observed.
    static func propertyOrder(of entity: SQLiteSchema.Entity) -> [String] {
        (entity.attributes.map(\.attribute.name) + entity.relationships.map(\.relationship.name)).sorted()
    }

    /// The `ZCOLUMNS` bit set of `names` for an entity, or `nil` when none is in its order.
    static func columnBits(_ names: Set<String>, entity: SQLiteSchema.Entity) -> Data? {
        let order = propertyOrder(of: entity)
        var bytes = [UInt8](repeating: 0, count: (order.count + 7) / 8)
        var any = false
        for (index, name) in order.enumerated() where names.contains(name) {
            bytes[index / 8] |= UInt8(1) << UInt8(index % 8)
            any = true
        }
        return any ? Data(bytes) : nil
    }

    /// The names a `ZCOLUMNS` bit set marks, for an entity; bits past its properties are left out.
    static func propertyNames(ofBits bits: Data, entity: SQLiteSchema.Entity) -> Set<String> {
        let order = propertyOrder(of: entity)
        var names: Set<String> = []
        for (byteIndex, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (UInt8(1) << UInt8(bit)) != 0 {
                let index = byteIndex * 8 + bit
                if index < order.count { names.insert(order[index]) }
            }
        }
        return names
    }

    /// Reads the history tables of a file, creating what is missing (tables, indexes,
    /// `Z_PRIMARYKEY` rows, tombstone columns) for `schema`, in one transaction.
    static func prepare(_ connection: SQLiteConnection, schema: SQLiteSchema) throws -> SQLiteHistoryLayout {
        let wantedTombstones = schema.entities.values.map { tombstoneAttributes(of: $0).count }.max() ?? 0
        return try connection.transaction {
            var tables = try tableNames(connection)
            if !tables.contains("ATRANSACTION") {
                let statements = creationStatements(tombstones: wantedTombstones)
                for statement in statements where !(statement.hasPrefix("CREATE TABLE ACHANGE") && tables.contains("ACHANGE"))
                    && !(statement.hasPrefix("CREATE TABLE ATRANSACTIONSTRING") && tables.contains("ATRANSACTIONSTRING")) {
                    try connection.execute(statement.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ")
                        .replacingOccurrences(of: "CREATE UNIQUE INDEX ", with: "CREATE UNIQUE INDEX IF NOT EXISTS "))
                }
            } else if !tables.contains("ATRANSACTIONSTRING") {
                try connection.execute(creationStatements(tombstones: 0)[2])
                try connection.execute("CREATE UNIQUE INDEX IF NOT EXISTS Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)")
            }
            tables = try tableNames(connection)
            for (number, name) in primaryKeyNames {
                try connection.run("INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, "
                                   + "IFNULL((SELECT MAX(Z_PK) FROM \(table(of: number))), 0))", [.integer(number), .text(name)])
            }
            let changeColumns = try columns(connection, "ACHANGE")
            var tombstones = 0
            while changeColumns.contains("ZTOMBSTONE\(tombstones)") { tombstones += 1 }
            while tombstones < wantedTombstones {
                try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(tombstones) BLOB")
                tombstones += 1
            }
            let transactionColumns = try columns(connection, "ATRANSACTION")
            return SQLiteHistoryLayout(usesStringTable: tables.contains("ATRANSACTIONSTRING") && transactionColumns.contains("ZAUTHORTS"),
                                       hasNameColumns: transactionColumns.contains("ZAUTHOR"), tombstoneColumns: tombstones)
        }
    }

    /// Reads the history tables of a file without changing it, or `nil` when it has none.
    static func existing(in connection: SQLiteConnection) throws -> SQLiteHistoryLayout? {
        let tables = try tableNames(connection)
        guard tables.contains("ATRANSACTION"), tables.contains("ACHANGE") else { return nil }
        let changeColumns = try columns(connection, "ACHANGE")
        var tombstones = 0
        while changeColumns.contains("ZTOMBSTONE\(tombstones)") { tombstones += 1 }
        let transactionColumns = try columns(connection, "ATRANSACTION")
        return SQLiteHistoryLayout(usesStringTable: tables.contains("ATRANSACTIONSTRING") && transactionColumns.contains("ZAUTHORTS"),
                                   hasNameColumns: transactionColumns.contains("ZAUTHOR"), tombstoneColumns: tombstones)
    }

    static func table(of number: Int64) -> String {
        switch number {
        case changeEntity: return "ACHANGE"
        case transactionEntity: return "ATRANSACTION"
        default: return "ATRANSACTIONSTRING"
        }
    }

    private static func tableNames(_ connection: SQLiteConnection) throws -> Set<String> {
        Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            if case .text(let name) = row.first { return name }
            return nil
        })
    }

    private static func columns(_ connection: SQLiteConnection, _ table: String) throws -> Set<String> {
        Set(try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { row -> String? in
            if case .text(let name) = row.first { return name }
            return nil
        })
    }
}
