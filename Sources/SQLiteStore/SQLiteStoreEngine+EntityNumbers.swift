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
    /// - Parameters:
    ///   - names: Entities about to be read (unknown names are ignored).
    ///   - queriesGuarded: Whether the caller reads these entities only through
    ///     ``entityCondition(of:)``: then the tables of roots with one entity number are left
    ///     to the queries, which check every row they visit.
    /// - Complexity: One query per table not checked since the file last changed; it reads
    ///   the `Z_ENT` index where the table has one, every row otherwise.
    mutating func checkEntityNumbers(inTablesOf names: some Sequence<String>, queriesGuarded: Bool = false) throws {
        var roots = Set<String>()
        for name in names {
            guard let root = schema.entities[name]?.rootName else { continue }
            if queriesGuarded, soleEntityNumber(ofRoot: root) != nil { continue }
            roots.insert(root)
        }
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

    /// The entity number of every row of the root's table when the root has no subentities
    /// (then the table has no `Z_ENT` index), else `nil`.
    func soleEntityNumber(ofRoot root: String) -> Int64? {
        var found: Int64?
        for entity in schema.entities.values where entity.rootName == root {
            guard found == nil else { return nil }
            found = entity.number
        }
        return found
    }

    /// The condition selecting the rows of `entity` (`t0` is its table), with its arguments.
    ///
    /// For a root without subentities, a row of any other number visited by the query fails
    /// it with ``SQLiteStoreError/Code/unknownEntityNumber(table:number:)`` (through
    /// `og_unknown_entity`, called only for such rows), instead of being passed over: the
    /// check of such a table is the query's own, made on the rows the query reads, in place
    /// of a scan of the whole table.
    func entityCondition(of entity: SQLiteSchema.Entity) -> (sql: String, arguments: [SQLiteValue]) {
        guard soleEntityNumber(ofRoot: entity.rootName) == entity.number else {
            return ("t0.Z_ENT = ?", [.integer(entity.number)])
        }
        return ("(t0.Z_ENT = ? OR \(SQLiteConnection.unknownEntityFunction)(?, t0.Z_ENT))",
                [.integer(entity.number), .text(SQLiteSchema.tableName(root: entity.rootName))])
    }
}
