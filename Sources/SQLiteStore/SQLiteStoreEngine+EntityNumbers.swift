// Rows whose entity number (Z_ENT) names no entity of the model: refused, never skipped.
import Foundation
import ManagedObjects

extension SQLiteStoreEngine {
    /// Throws ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)`` when the table of any
    /// of the entities named holds a row whose `Z_ENT` is not the number of an entity of its
    /// inheritance tree (a row another program or model wrote, which every fetch would
    /// otherwise pass over without a word).
    ///
    /// A table is read once per state of the file: again only after another connection
    /// committed (SQLite's `PRAGMA data_version` moved); this store writes only known numbers.
    ///
    /// - Parameter names: Entities about to be read (unknown names are ignored).
    /// - Complexity: One query per table not checked since the file last changed; it reads
    ///   the `Z_ENT` index where the table has one, every row otherwise.
    mutating func checkEntityNumbers(inTablesOf names: some Sequence<String>) throws {
        var roots = Set<String>()
        for name in names { if let root = schema.entities[name]?.rootName { roots.insert(root) } }
        guard !roots.isEmpty else { return }
        let version = try connection.scalar("PRAGMA data_version")?.integerValue ?? 0
        for root in roots.sorted() {
            let table = SQLiteSchema.tableName(root: root)
            if entityNumbersChecked[table] == version { continue }
            let known = schema.entities.values.filter { $0.rootName == root }.map { String($0.number) }.sorted()
            // One number (a root without subentities): `IS NOT` is the same test, and SQLite
            // evaluates it for every row in about four fifths of the instructions.
            let unknown = known.count == 1 ? "Z_ENT IS NOT \(known[0])"
                : "Z_ENT IS NULL OR Z_ENT NOT IN (\(known.joined(separator: ", ")))"
            let sql = "SELECT IFNULL(Z_ENT, 0) FROM \(table) WHERE \(unknown) LIMIT 1"
            if let number = try connection.scalar(sql)?.integerValue {
                throw fail(.unknownEntityNumber(table: table, number: number))
            }
            entityNumbersChecked[table] = version
        }
    }
}
