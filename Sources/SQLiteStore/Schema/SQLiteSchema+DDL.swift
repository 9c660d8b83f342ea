// The SQL that creates a new store: Core Data's bookkeeping tables, entity and join tables,
// indexes.
import Foundation

extension SQLiteSchema {
    /// Core Data's bookkeeping tables, byte for byte as Apple's stores have them.
    package static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// The statements creating the model's tables and indexes, in order.
    package var creationStatements: [String] {
        var statements: [String] = []
        for table in tables {
            if table.isJoinTable {
                let columns = table.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")
                statements.append("CREATE TABLE \(table.name) ( \(columns), PRIMARY KEY (\(table.primaryKey.joined(separator: ", "))) )")
            } else {
                let columns = (["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                    + table.columns.map { "\($0.name) \($0.type)" }).joined(separator: ", ")
                statements.append("CREATE TABLE \(table.name) ( \(columns) )")
            }
        }
        for table in tables {
            if table.isJoinTable {
                let (first, second) = (table.primaryKey[0], table.primaryKey[1])
                statements.append("CREATE INDEX \(table.name)_\(second)_INDEX ON \(table.name) (\(second), \(first))")
                continue
            }
            for column in table.indexedColumns {
                statements.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
            }
            if table.hasSubentities {
                statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
            }
        }
        return statements + indexStatements
    }

    /// The rows of `Z_PRIMARYKEY` for a new store: every entity, counters at 0.
    package var primaryKeyRows: [[SQLiteValue]] {
        entities.values.sorted { $0.number < $1.number }.map { entity in
            [.integer(entity.number), .text(entity.name), .integer(entity.superNumber), .integer(0)]
        }
    }
}
