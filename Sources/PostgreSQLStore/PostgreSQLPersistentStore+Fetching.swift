// Fetching: a request's predicate, order, limits and result type compiled to SQL.
import Foundation
import ManagedObjects
import Predicates
import SQLCompiling

extension PostgreSQLPersistentStore {
    /// One fetched entity's query parts.
    private struct EntityQuery {
        var entity: PostgreSQLSchema.Entity
        /// The `WHERE` condition (`t0.Z_ENT = ?` and the compiled predicate) and its values.
        var condition: SQLFragment
        /// `ORDER BY` terms giving the request's order, or `nil` when SQL cannot give it.
        var order: SQLFragment?
    }

    /// Answers a fetch with SQL: the predicate compiled by the shared compiler in PostgreSQL's
    /// dialect (what it cannot decide is left out of the `WHERE` clause and evaluated on the
    /// selected rows in memory), and, when one entity is fetched and SQL decides the whole
    /// predicate and every sort key, the order, offset and limit, counts and object IDs too.
    ///
    /// The queries of one fetch run in one read-only `REPEATABLE READ` transaction, so that
    /// the check of a compiled test's assumption about the data and the query relying on it
    /// see the same rows.
    func compiledFetch(_ request: StoreFetchRequest, schema: PostgreSQLSchema, model: ManagedObjectModel,
                       connection: PostgreSQLConnection, identifier: String) throws -> StoreFetchResult {
        try connection.readOnlyTransaction {
            let (queries, exact) = try plan(request, schema: schema, connection: connection, identifier: identifier)
            let ordered = exact && queries.count <= 1 && queries.allSatisfy { $0.order != nil }
            let limited = ordered && (request.fetchLimit > 0 || request.fetchOffset > 0)
            if exact, request.resultType == .count {
                return StoreFetchResult(count: try count(queries, request, limited: limited, schema: schema, connection: connection))
            }
            // IDs alone for an ID fetch; IDs with their rows' versions for a fetch of faults
            // (the context's `includesPropertyValues` turned off).
            let faults = request.resultType == .rows && !request.includesPropertyValues
            if exact, request.resultType == .objectIDs || faults {
                let (ids, versions) = try objectIDs(queries, request, ordered: ordered, limited: limited, schema: schema,
                                                    connection: connection, identifier: identifier, versions: faults)
                return StoreFetchResult(rows: [], objectIDs: ids, objectVersions: versions,
                                        appliedPredicate: true, appliedOrderAndLimits: ordered)
            }
            var rows: [StoreRow] = []
            for query in queries {
                let (sql, arguments) = select(query, request, ordered: ordered, limited: limited, schema: schema,
                                              columns: schema.tables[query.entity.table]?.map(\.name) ?? [])
                var selected = try Self.decodedRows(try connection.execute(sql, arguments), schema: schema,
                                                    server: connection.server, identifier: identifier)
                try Self.fillToMany(&selected, schema: schema, connection: connection, identifier: identifier)
                // The first entity's rows are taken as they are (no copy of each row).
                if rows.isEmpty { rows = selected } else { rows += selected }
            }
            if ordered { return StoreFetchResult(rows: rows, appliedPredicate: true, appliedOrderAndLimits: true) }
            // The rest in memory: the predicate only when SQL did not decide it.
            var rest = request
            if exact { rest.predicate = nil }
            return try rest.evaluate(over: rows, in: model)
        }
    }

    /// The query parts of each fetched entity, and whether SQL decides the whole predicate.
    ///
    /// A compiled test that relies on an assumption about the data (ASCII text) is used only
    /// when a check finds no row breaking it; otherwise the predicate is compiled again
    /// without such tests.
    private func plan(_ request: StoreFetchRequest, schema: PostgreSQLSchema, connection: PostgreSQLConnection,
                      identifier: String) throws -> ([EntityQuery], Bool) {
        var queries: [EntityQuery] = []
        var exact = true
        for name in request.entityNames where schema.layouts[name]?.isAbstract == false {
            guard let layout = schema.layouts[name] else { continue }
            let entity = try schema.entity(name, server: connection.server)
            var compiler = SQLPredicateCompiler(entity: layout, entities: schema.layouts, storeIdentifier: identifier,
                                                dialect: schema.dialect)
            var compiled = request.predicate.flatMap(compiler.compile)
            if compiled != nil, try Self.assumptionsFail(compiler.assumptions, schema: schema, connection: connection) {
                compiler = SQLPredicateCompiler(entity: layout, entities: schema.layouts, storeIdentifier: identifier,
                                                dialect: schema.dialect, mayAssume: false)
                compiled = request.predicate.flatMap(compiler.compile)
            }
            var condition = SQLFragment("t0.\(schema.dialect.quoted("Z_ENT")) = ?", [.integer(layout.number)])
            if request.predicate != nil {
                if let compiled {
                    condition.sql += " AND " + compiled.sql
                    condition.arguments += compiled.arguments
                    exact = exact && compiled.isExact
                } else {
                    exact = false
                }
            }
            queries.append(EntityQuery(entity: entity, condition: condition, order: compiler.orderTerms(request.sortDescriptors)))
        }
        return (queries, exact)
    }

    /// What of a request SQL decides on the store's current data: the whole predicate, and
    /// the order with offset and limit (for tests and diagnostics).
    ///
    /// - Throws: ``PostgreSQLStoreError`` for a server failure.
    package func sqlDecides(_ request: StoreFetchRequest) throws -> (predicate: Bool, orderAndLimits: Bool) {
        try withConnection { connection, state in
            let (schema, _) = try Self.loaded(state, connection)
            return try connection.readOnlyTransaction {
                let (queries, exact) = try plan(request, schema: schema, connection: connection, identifier: state.identifier)
                return (exact, exact && queries.count <= 1 && queries.allSatisfy { $0.order != nil })
            }
        }
    }

    /// Whether any of the compiler's assumptions about the data fails (one query).
    private static func assumptionsFail(_ assumptions: [SQLFragment], schema: PostgreSQLSchema,
                                        connection: PostgreSQLConnection) throws -> Bool {
        guard !assumptions.isEmpty else { return false }
        let sql = "SELECT " + assumptions.map { "EXISTS (\($0.sql))" }.joined(separator: " OR ")
        let arguments = assumptions.flatMap(\.arguments)
        let result = try connection.execute(schema.dialect.numbered(sql, arguments: arguments), arguments.map(PostgreSQLValue.init))
        return result.rows.first?.first != "f"
    }

    /// `SELECT columns FROM table t0 WHERE … ORDER BY … LIMIT … OFFSET …`, numbered, with its
    /// parameters.
    private func select(_ query: EntityQuery, _ request: StoreFetchRequest, ordered: Bool, limited: Bool,
                        schema: PostgreSQLSchema, columns: [String]) -> (String, [PostgreSQLValue]) {
        let q = schema.dialect.quoted
        var sql = "SELECT \(columns.map { "t0." + q($0) }.joined(separator: ", ")) FROM \(q(query.entity.table)) t0 WHERE \(query.condition.sql)"
        var arguments = query.condition.arguments
        if ordered, let order = query.order {
            sql += " ORDER BY " + (order.sql.isEmpty ? "" : order.sql + ", ") + "t0." + q("Z_PK")
            arguments += order.arguments
        }
        if limited {
            sql += " LIMIT ? OFFSET ?"
            arguments += [request.fetchLimit > 0 ? .integer(Int64(request.fetchLimit)) : .null, .integer(Int64(request.fetchOffset))]
        }
        return (schema.dialect.numbered(sql, arguments: arguments), arguments.map(PostgreSQLValue.init))
    }

    /// The number of rows the exact conditions select (offset and limit applied).
    private func count(_ queries: [EntityQuery], _ request: StoreFetchRequest, limited: Bool, schema: PostgreSQLSchema,
                       connection: PostgreSQLConnection) throws -> Int {
        var total = 0
        for query in queries {
            let (inner, arguments) = select(query, request, ordered: false, limited: limited, schema: schema, columns: ["Z_PK"])
            let result = try connection.execute("SELECT COUNT(*) FROM (\(inner)) counted", arguments)
            total += Int(PostgreSQLRows.integer(result.rows.first?.first ?? nil) ?? 0)
        }
        if !limited {
            // Limits over several entities apply to the total (order does not matter for a count).
            total = max(0, total - request.fetchOffset)
            if request.fetchLimit > 0 { total = min(total, request.fetchLimit) }
        }
        return total
    }

    /// The IDs of the rows the exact conditions select, in order with limits when `ordered`.
    private func objectIDs(_ queries: [EntityQuery], _ request: StoreFetchRequest, ordered: Bool, limited: Bool,
                           schema: PostgreSQLSchema, connection: PostgreSQLConnection, identifier: String,
                           versions withVersions: Bool) throws -> (ids: [ManagedObjectID], versions: [Int64]) {
        var ids: [ManagedObjectID] = []
        var versions: [Int64] = []
        for query in queries {
            let (sql, arguments) = select(query, request, ordered: ordered, limited: limited, schema: schema,
                                          columns: withVersions ? ["Z_PK", "Z_OPT"] : ["Z_PK"])
            // Every ID shares the template's scope.
            let template = ManagedObjectID(entityName: query.entity.name, storeIdentifier: identifier, primaryKey: 0)
            for row in try connection.execute(sql, arguments).rows {
                guard let key = PostgreSQLRows.integer(row[0]) else { continue }
                ids.append(template.withPrimaryKey(key))
                if withVersions { versions.append(PostgreSQLRows.integer(row[1]) ?? 0) }
            }
        }
        return (ids, versions)
    }
}

extension PostgreSQLValue {
    /// A compiled condition's argument in PostgreSQL's text form (the statement's cast names
    /// its type): doubles with `NaN` and `Infinity` spelled the server's way.
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .text(PostgreSQLSchema.text(of: v))
        case .text(let v): self = .text(v)
        case .blob(let v): self = .bytes(v)
        case .boolean(let v): self = .text(v ? "true" : "false")
        case .uuid(let v): self = .text(v.uuidString)
        }
    }
}
