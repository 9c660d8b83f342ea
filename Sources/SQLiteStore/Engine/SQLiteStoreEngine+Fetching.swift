// Fetching: a request's predicate, order and limits as one SQL query per entity.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// The rows a fetch selects, and what of the request they honour.
    struct Selection {
        var rows: [StoreRow]
        /// Exactly the rows matching the predicate (not a superset).
        var isExact: Bool
        /// In the request's order, offset and limit applied.
        var isOrdered: Bool
    }

    /// The rows of the request's entities (exactly these entities, not their subentities),
    /// narrowed by what SQL can decide of the predicate, and ordered and limited in SQL when
    /// one entity is fetched and SQL decides the whole predicate and every sort key.
    ///
    /// Each to-many relationship's members are read for all selected rows in one query.
    func rows(for request: StoreFetchRequest, compilesPredicate: Bool) throws -> Selection {
        let names = try request.entityNames.filter { try !entity($0).isAbstract }
        var rows: [StoreRow] = []
        var exact = true
        var ordered = names.count <= 1
        for name in names {
            let entity = try entity(name)
            var condition = "t0.Z_ENT = ?"
            var arguments: [SQLiteValue] = [.integer(entity.number)]
            let compiler = SQLitePredicateCompiler(entity: entity, schema: schema, storeIdentifier: identifier)
            if let predicate = request.predicate {
                if compilesPredicate, let compiled = compiler.compile(predicate) {
                    condition += " AND " + compiled.sql
                    arguments += compiled.arguments
                    exact = exact && compiled.isExact
                } else {
                    exact = false
                }
            }
            var order = " ORDER BY t0.Z_PK"
            var limits = ""
            var limitArguments: [SQLiteValue] = []
            if ordered, exact, compilesPredicate, let keys = compiler.orderTerms(request.sortDescriptors) {
                order = " ORDER BY " + (keys + ["t0.Z_PK"]).joined(separator: ", ")
                if request.fetchLimit > 0 || request.fetchOffset > 0 {
                    limits = " LIMIT ? OFFSET ?"
                    limitArguments = [.integer(request.fetchLimit > 0 ? Int64(request.fetchLimit) : -1),
                                      .integer(Int64(request.fetchOffset))]
                }
            } else {
                ordered = false
            }
            let selected = try connection.rows(selectSQL(of: entity) + " WHERE " + condition + order + limits,
                                               arguments + limitArguments)
            guard !selected.isEmpty else { continue }
            let members: [String: [Int64: [ManagedObjectID]]]
            if !limits.isEmpty {
                // Only the rows within the limits: their keys as one JSON array argument.
                let keys = selected.compactMap { $0[0].integerValue.map(String.init) }.joined(separator: ",")
                members = try toManyMembers(of: entity, selectedBy: "SELECT value FROM json_each(?)", arguments: [.text("[" + keys + "]")])
            } else {
                let keys = "SELECT t0.Z_PK FROM \(SQLiteSchema.tableName(root: entity.rootName)) t0 WHERE \(condition)"
                members = try toManyMembers(of: entity, selectedBy: keys, arguments: arguments)
            }
            rows.reserveCapacity(rows.count + selected.count)
            for values in selected {
                rows.append(try row(of: entity, values, members: members))
            }
        }
        return Selection(rows: rows, isExact: exact, isOrdered: ordered)
    }
}

extension SQLitePredicateCompiler {
    /// `ORDER BY` terms giving the order of `descriptors` in memory (nil first ascending, last
    /// descending; strings as Swift's `String`, or case-folded for `caseInsensitiveCompare`),
    /// or `nil` when a key is not a number, date or string attribute (through to-ones) or the
    /// comparison is localized or a closure.
    func orderTerms(_ descriptors: [KeyValueSortDescriptor]) -> [String]? {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let key = descriptor.key,
                  case .attribute(let sql, let attribute)? = operand(.keyPath(key), in: root, variables: [:]) else { return nil }
            let direction = descriptor.ascending ? "" : " DESC"
            switch (attribute.attributeType, descriptor.comparison) {
            case (.integer16, .compare), (.integer32, .compare), (.integer64, .compare), (.boolean, .compare), (.date, .compare):
                terms.append(sql + direction)
            case (.double, .compare), (.float, .compare):
                // NaN (stored as text) sorts before every number and after nil.
                terms.append("(CASE WHEN \(sql) IS NULL THEN 0 WHEN typeof(\(sql)) = 'text' THEN 1 ELSE 2 END)" + direction)
                terms.append(sql + direction)
            case (.string, .compare):
                terms.append(sql + " COLLATE \(SQLiteConnection.swiftCollation)" + direction)
            case (.string, .caseInsensitiveCompare):
                terms.append(sql + " COLLATE \(SQLiteConnection.caseInsensitiveCollation)" + direction)
            default:
                return nil
            }
        }
        return terms
    }
}
