// The PostgreSQL store: the store interface over a PostgreSQL database.
import Foundation
import ObjectGraphInternals
import ManagedObjects
import SQLCompiling
import Predicates
import Synchronization

/// A store in a PostgreSQL database, shared by every process that opens the same database
/// (Docs/PostgreSQLStore.md).
///
/// ```swift
/// let store = PostgreSQLPersistentStore(url: "postgresql:///shop?host=/run/postgresql")
/// try coordinator.addStore(store)
/// ```
///
/// Saves run in one transaction that locks the saved rows (`SELECT … FOR UPDATE`) and checks
/// their versions (`Z_OPT`): a row another process saved meanwhile is a
/// ``StoreSaveError/conflicts(_:)``, which the context hands to its merge policy; while the
/// policy resolves them and the context writes again, other processes' saves wait (an advisory
/// lock), so a resolving policy does not lose the race. Every value travels as a bound
/// parameter.
///
/// - Important: Thread safety: `Sendable`; calls from several threads run at once on the
///   connections of the store's pool (``PostgreSQLStoreOptions/poolSize``).
public final class PostgreSQLPersistentStore: PersistentStore {
    /// `"PostgreSQL"`, the store type's name.
    public static let type = "PostgreSQL"

    /// The store's connections (its URL is kept there, for reconnecting; never put in
    /// messages).
    package let pool: PostgreSQLConnectionPool
    /// The libpq connection string of the store's listening connection: the pool's URL
    /// without the store's own query keys (never put in messages).
    var url: String { pool.configuration.libpqURL }
    /// The schema (namespace) the store's tables live in, or `nil` for the connection's
    /// `search_path`.
    public let schemaName: String?

    struct State {
        var schema: PostgreSQLSchema?
        var model: ManagedObjectModel?
        var identifier = ""
        var metadata: [String: any Sendable] = [:]
    }
    let state = Mutex(State())
    /// Persistent history and fan-out (History/, Notifications/); never locked inside `state`'s
    /// lock the other way round: `state` first when both are needed.
    let fanOut = Mutex(PostgreSQLFanOutState())
    /// How many resolving saves of this store keep other users' saves out now
    /// (``withOtherSavesExcluded(_:)``): while any do, this store's saves go ahead.
    let excludingOtherSaves = Atomic<Int>(0)

    /// Creates a store (not connected until ``load(for:)``).
    ///
    /// - Parameters:
    ///   - url: A libpq connection string: `postgresql://user:password@host:port/database`,
    ///     `postgresql:///database?host=/socket/folder`, or `key=value` pairs; what it leaves
    ///     out comes from libpq's environment variables (`PGHOST`, `PGPASSWORD`…). Its query
    ///     may also hold the store's `pool_size` and `statement_timeout` (milliseconds).
    ///   - schema: A PostgreSQL schema to keep the tables in, created when missing; `nil` for
    ///     the connection's default (`public`).
    ///   - options: The pool size, timeouts and extra libpq keywords (TLS…); they win over
    ///     the URL's.
    public init(url: String, schema: String? = nil, options: PostgreSQLStoreOptions = PostgreSQLStoreOptions()) {
        self.schemaName = schema
        self.pool = PostgreSQLConnectionPool(configuration: PostgreSQLConnectionConfiguration(url: url, options: options)) { connection in
            guard let schema else { return }
            let quoted = SQLDialect.postgreSQL.quoted(schema)
            // CREATE SCHEMA IF NOT EXISTS needs the right to create schemas even when the
            // schema exists: a role with rights on its schema only must not need it.
            let exists = try connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = $1::text", [.text(schema)])
            if exists.rows.isEmpty { try Self.createSchema(schema, quoted: quoted, on: connection) }
            try connection.execute("SET search_path TO \(quoted)")
        }
    }

    /// Creates the store's schema. Two connections (threads or processes) creating it at once
    /// are ordered by an advisory lock, and the second finds it made: `CREATE SCHEMA IF NOT
    /// EXISTS` alone can fail with a duplicate key when another transaction creates the same
    /// schema at the same moment. The lock (one per schema name) is not the loading lock: a
    /// connection made while another holds that one must not wait for it.
    private static func createSchema(_ schema: String, quoted: String, on connection: PostgreSQLConnection) throws {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(7019020, hashtext($1::text))", [.text(schema)])
            let exists = try connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = $1::text", [.text(schema)])
            if exists.rows.isEmpty { try connection.execute("CREATE SCHEMA \(quoted)") }
        }
    }

    public var identifier: String { state.withTrackedLock(self) { $0.identifier } }
    public var storeType: String { Self.type }
    public var metadata: [String: any Sendable] { state.withTrackedLock(self) { $0.metadata } }

    /// Runs `body` with a connection of the pool and the store's state as it is now.
    ///
    /// - Parameters:
    ///   - retrying: Whether `body` may run again on a new connection when the connection is
    ///     lost (see ``PostgreSQLConnectionPool/withConnection(retrying:_:)``).
    ///   - body: The work.
    func withConnection<T>(retrying: Bool = true, _ body: (PostgreSQLConnection, State) throws -> T) throws -> T {
        try pool.withConnection(retrying: retrying) { connection in
            try body(connection, state.withTrackedLock(self) { $0 })
        }
    }

    /// The loaded schema and model, or an error.
    static func loaded(_ state: State, _ connection: PostgreSQLConnection) throws -> (PostgreSQLSchema, ManagedObjectModel) {
        guard let schema = state.schema, let model = state.model else {
            throw PostgreSQLStoreError(.unsupported("the store is used before it was loaded"), server: connection.server)
        }
        return (schema, model)
    }

    /// The objects a request selects: its predicate, order, offset and limit compiled to SQL
    /// where SQL decides exactly as the in-memory evaluation does (Docs/PostgreSQLStore.md),
    /// the rest evaluated on the selected rows.
    ///
    /// - Returns: Rows, IDs or a count; ``StoreFetchResult/appliedPredicate`` and
    ///   ``StoreFetchResult/appliedOrderAndLimits`` say exactly what was applied.
    /// - Throws: ``PostgreSQLStoreError`` for a server failure or a value that does not read
    ///   as its attribute's type.
    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try withConnection { connection, state in
            let (schema, model) = try Self.loaded(state, connection)
            return try compiledFetch(request, schema: schema, model: model, connection: connection, identifier: state.identifier)
        }
    }

    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        guard case .integer(let key) = id.referenceObject else { return nil }
        return try withConnection { connection, state in
            let (schema, _) = try Self.loaded(state, connection)
            guard id.storeIdentifier == state.identifier, schema.entities[id.entityName] != nil else { return nil }
            return try Self.rows(ofEntities: [id.entityName], keys: [key], schema: schema, connection: connection,
                                 identifier: state.identifier).first
        }
    }

    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        try withConnection { connection, state in
            let (schema, _) = try Self.loaded(state, connection)
            var counts: [String: Int64] = [:]
            for name in entityNames { counts[try schema.entity(name, server: connection.server).root, default: 0] += 1 }
            var next: [String: Int64] = [:]
            let q = schema.dialect.quoted
            for (root, count) in counts {
                // One statement: atomic across processes.
                let result = try connection.execute(
                    "UPDATE \(q("Z_PRIMARYKEY")) SET \(q("Z_MAX")) = \(q("Z_MAX")) + $2::bigint WHERE \(q("Z_NAME")) = $1::text RETURNING \(q("Z_MAX"))",
                    [.text(root), .integer(count)])
                guard let last = result.rows.first.flatMap({ PostgreSQLRows.integer($0[0]) }) else {
                    throw PostgreSQLStoreError(.unsupported("Z_PRIMARYKEY has no row for \(root)"), server: connection.server)
                }
                next[root] = last - count + 1
            }
            var ids: [ManagedObjectID] = []
            for name in entityNames {
                let root = schema.entities[name]!.root
                ids.append(ManagedObjectID(entityName: name, storeIdentifier: state.identifier, primaryKey: next[root]!))
                next[root]! += 1
            }
            return ids
        }
    }

    /// Drops the store's tables (the whole schema when the store was made with one).
    public func destroy() throws {
        try withConnection { connection, state in
            let q = SQLDialect.postgreSQL.quoted
            if let schemaName {
                try connection.execute("DROP SCHEMA IF EXISTS \(q(schemaName)) CASCADE")
            } else if let schema = state.schema {
                var tables = Set(schema.tables.keys)
                for entity in schema.entities.values { for (_, table) in entity.joinTables { tables.insert(table) } }
                tables.formUnion(["Z_METADATA", "Z_PRIMARYKEY"] + PostgreSQLHistoryTables.all)
                try connection.execute("DROP TABLE IF EXISTS \(tables.sorted().map(q).joined(separator: ", "))")
            }
        }
        // New connections create the schema again and point their search_path at it.
        pool.drain()
        state.withTrackedLock(self) { state in
            state.schema = nil
            state.model = nil
        }
    }
}

extension PostgreSQLPersistentStore: CustomStringConvertible, CustomReflectable {
    /// The store's type, schema and server (never the URL, which may hold a password).
    public var description: String {
        "PostgreSQLPersistentStore(\(schemaName.map { "schema \($0), " } ?? "")\(identifier))"
    }

    /// The store without its connection settings (a debugger or `dump` shows no password).
    public var customMirror: Mirror {
        Mirror(self, children: ["schemaName": schemaName as Any, "identifier": identifier], displayStyle: .class)
    }
}

/// The store's rows are read from its own columns by the model's types: a context does not
/// check them again.
extension PostgreSQLPersistentStore: TrustedRowStore {}
