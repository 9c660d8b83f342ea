// Fetching: a request's predicate, order and limits as one SQL query per entity.
import Foundation
import ManagedObjects
import Predicates

extension SQLiteStoreEngine {
    /// The rows a fetch selects, and what of the request they honour.
    struct Selection {
        var rows: [StoreRow] = []
        /// For an object-ID fetch SQL decided exactly.
        var objectIDs: [ManagedObjectID]?
        /// For a fetch of faults (values not included) SQL decided exactly: each ID's version.
        var objectVersions: [Int64] = []
        /// For a count SQL decided exactly.
        var count: Int?
        /// Exactly the rows matching the predicate (not a superset).
        var isExact: Bool
        /// In the request's order, offset and limit applied.
        var isOrdered: Bool
    }

    /// The rows of the request's entities (exactly these entities, not their subentities),
    /// narrowed by what SQL can decide of the predicate, and ordered and limited in SQL when
    /// one entity is fetched and SQL decides the whole predicate and every sort key.
    ///
    /// To-many relationships are left out of the rows: the context makes them relationship
    /// faults, read on first access (``objectIDs(forRelationship:ofKeys:entity:)``).
    func rows(for request: StoreFetchRequest, compilesPredicate: Bool) throws -> Selection {
        let names = try request.entityNames.filter { try !entity($0).isAbstract }
        var rows: [StoreRow] = []
        var exact = true
        var ordered = names.count <= 1
        // IDs (with versions, for faults) and counts without rows only when SQL decides the
        // whole predicate.
        let keysOnly = request.resultType != .rows || !request.includesPropertyValues
        var compiled: [(entity: SQLiteSchema.Entity, condition: String, arguments: [SQLiteValue], order: String)] = []
        for name in names {
            let entity = try entity(name)
            // The entity's test comes last: SQLite tests a row's terms in the order written
            // (index terms first), so a guarded table's number test meets the rows that the
            // predicate selects rather than every row scanned.
            var condition = ""
            var arguments: [SQLiteValue] = []
            let compiler = SQLitePredicateCompiler(entity: entity, schema: schema, storeIdentifier: identifier)
            if let predicate = request.predicate {
                if compilesPredicate, let compiled = compiler.compile(predicate) {
                    condition = compiled.sql + " AND "
                    arguments = compiled.arguments
                    exact = exact && compiled.isExact
                } else {
                    exact = false
                }
            }
            let entityTest = entityCondition(of: entity)
            condition += entityTest.sql
            arguments += entityTest.arguments
            var order = " ORDER BY t0.Z_PK"
            var limits = ""
            var limitArguments: [SQLiteValue] = []
            var inMemory: IntegerRowOrder?
            if ordered, exact, compilesPredicate, let keys = compiler.orderTerms(request.sortDescriptors) {
                order = " ORDER BY " + (keys + ["t0.Z_PK"]).joined(separator: ", ")
                if request.fetchLimit > 0 || request.fetchOffset > 0 {
                    limits = " LIMIT ? OFFSET ?"
                    limitArguments = [.integer(request.fetchLimit > 0 ? Int64(request.fetchLimit) : -1),
                                      .integer(Int64(request.fetchOffset))]
                } else {
                    inMemory = IntegerRowOrder(request.sortDescriptors, entity: entity)
                }
            } else {
                ordered = false
            }
            if keysOnly {
                compiled.append((entity, condition, arguments, order))
                continue
            }
            let selected = try orderedRows(of: entity, condition: condition, order: order + limits,
                                           arguments + limitArguments, inMemory: inMemory)
            guard !selected.isEmpty else { continue }
            if rows.isEmpty { rows = selected } else { rows += selected }
        }
        if keysOnly {
            guard exact else {
                var rowsRequest = request
                rowsRequest.resultType = .rows
                rowsRequest.includesPropertyValues = true
                return try self.rows(for: rowsRequest, compilesPredicate: compilesPredicate)
            }
            return try identifiers(compiled, request, ordered: ordered)
        }
        return Selection(rows: rows, isExact: exact, isOrdered: ordered)
    }

    /// The rows `condition` selects, in `order` (`ORDER BY`, then any limits). With an
    /// in-memory order (integer keys, no limits: `order` has no placeholders) the rows are
    /// read without the `ORDER BY` and put in its order here, which costs less than SQLite's
    /// sorter; a row whose keys only SQL can place (not integers), or an error, sends the query
    /// to SQL with its order after all.
    private func orderedRows(of entity: SQLiteSchema.Entity, condition: String, order: String,
                             _ arguments: [SQLiteValue], inMemory: IntegerRowOrder?) throws -> [StoreRow] {
        let select = selectSQL(of: entity) + " WHERE " + condition
        if inMemory != nil {
            var keys = inMemory
            // On any error, or a key only SQL can place, the query is asked again with its
            // ORDER BY: it meets the rows (an unreadable value among them) as it always did.
            if var rows = try? readRows(of: entity, select, arguments, keys: &keys), let keys, keys.isComplete {
                keys.sort(&rows)
                return rows
            }
        }
        return try readRows(of: entity, select + order, arguments)
    }

    /// The IDs or the number of the rows selected by exact conditions, per entity.
    private func identifiers(_ compiled: [(entity: SQLiteSchema.Entity, condition: String, arguments: [SQLiteValue], order: String)],
                             _ request: StoreFetchRequest, ordered: Bool) throws -> Selection {
        let limited = ordered && (request.fetchLimit > 0 || request.fetchOffset > 0)
        let limits = limited ? " LIMIT ? OFFSET ?" : ""
        let limitArguments: [SQLiteValue] = limited ? [.integer(request.fetchLimit > 0 ? Int64(request.fetchLimit) : -1),
                                                       .integer(Int64(request.fetchOffset))] : []
        var selection = Selection(isExact: true, isOrdered: ordered)
        if request.resultType == .count {
            var total = 0
            for part in compiled {
                let table = SQLiteSchema.tableName(root: part.entity.rootName)
                let sql = "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(table) t0 WHERE \(part.condition)\(limits))"
                total += Int(try connection.scalar(sql, part.arguments + limitArguments)?.integerValue ?? 0)
            }
            if !limited {
                // Limits over several entities apply to the total (order does not matter for a count).
                total = max(0, total - request.fetchOffset)
                if request.fetchLimit > 0 { total = min(total, request.fetchLimit) }
            }
            selection.count = total
            selection.isOrdered = true
            return selection
        }
        var ids: [ManagedObjectID] = []
        // A fetch of faults reads each row's version with its key (optimistic locking).
        let withVersions = request.resultType == .rows
        let columns = withVersions ? "t0.Z_PK, t0.Z_OPT" : "t0.Z_PK"
        for part in compiled {
            let table = SQLiteSchema.tableName(root: part.entity.rootName)
            let statement = try connection.statement("SELECT \(columns) FROM \(table) t0 WHERE \(part.condition)\(part.order)\(limits)")
            try statement.bind(part.arguments + limitArguments)
            defer { statement.reset() }
            let template = objectID(part.entity.name, 0)
            while try statement.step() {
                ids.append(template.withPrimaryKey(statement.integer(at: 0)))
                if withVersions { selection.objectVersions.append(statement.integer(at: 1)) }
            }
        }
        selection.objectIDs = ids
        return selection
    }

    /// The rows of several objects: one query per entity (keys as one JSON array argument);
    /// to-many relationships left out.
    func rows(for ids: [ManagedObjectID]) throws -> [StoreRow] {
        var keysByEntity: [String: [Int64]] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if case .integer(let key) = id.referenceObject { keysByEntity[id.entityName, default: []].append(key) }
        }
        var rows: [StoreRow] = []
        rows.reserveCapacity(ids.count)
        for (name, keys) in keysByEntity {
            guard let entity = schema.entities[name] else { continue }
            let list: SQLiteValue = .text("[" + keys.map(String.init).joined(separator: ",") + "]")
            let condition = entityCondition(of: entity)
            rows += try readRows(of: entity, selectSQL(of: entity) + " WHERE t0.Z_PK IN (SELECT value FROM json_each(?)) AND " + condition.sql,
                                 [list] + condition.arguments)
        }
        return rows
    }
}
