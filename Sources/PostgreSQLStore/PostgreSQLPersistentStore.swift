// The PostgreSQL store: the store interface over a PostgreSQL database.
import Foundation
import ManagedObjects
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
/// ``StoreSaveError/conflicts(_:)``, which the context hands to its merge policy. Every value
/// travels as a bound parameter.
///
/// - Important: Thread safety: `Sendable`; the store's one connection is behind a lock.
public final class PostgreSQLPersistentStore: PersistentStore {
    /// `"PostgreSQL"`, the store type's name.
    public static let type = "PostgreSQL"

    /// The connection URL (kept for reconnecting; never put in messages).
    let url: String
    /// The schema (namespace) the store's tables live in, or `nil` for the connection's
    /// `search_path`.
    public let schemaName: String?

    struct State {
        var connection: PostgreSQLConnection?
        var schema: PostgreSQLSchema?
        var model: ManagedObjectModel?
        var identifier = ""
        var metadata: [String: any Sendable] = [:]
    }
    let state = Mutex(State())
    /// Persistent history and fan-out (History/, Notifications/); never locked inside `state`'s
    /// lock the other way round: `state` first when both are needed.
    let fanOut = Mutex(PostgreSQLFanOutState())

    /// Creates a store (not connected until ``load(for:)``).
    ///
    /// - Parameters:
    ///   - url: A libpq connection string: `postgresql://user:password@host:port/database`,
    ///     `postgresql:///database?host=/socket/folder`, or `key=value` pairs; what it leaves
    ///     out comes from libpq's environment variables (`PGHOST`, `PGPASSWORD`…).
    ///   - schema: A PostgreSQL schema to keep the tables in, created when missing; `nil` for
    ///     the connection's default (`public`).
    public init(url: String, schema: String? = nil) {
        self.url = url
        self.schemaName = schema
    }

    public var identifier: String { state.withLock { $0.identifier } }
    public var storeType: String { Self.type }
    public var metadata: [String: any Sendable] { state.withLock { $0.metadata } }

    /// Runs `body` with the connection, connecting (again) when needed.
    func withConnection<T>(_ body: (PostgreSQLConnection, inout State) throws -> T) throws -> T {
        try state.withLock { state in
            if state.connection == nil || state.connection?.isConnected == false {
                let connection = try PostgreSQLConnection(url: url)
                if let schemaName {
                    let quoted = SQLDialect.postgreSQL.quoted(schemaName)
                    try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")
                    try connection.execute("SET search_path TO \(quoted)")
                }
                state.connection = connection
            }
            return try body(state.connection!, &state)
        }
    }

    /// The loaded schema and model, or an error.
    static func loaded(_ state: State, _ connection: PostgreSQLConnection) throws -> (PostgreSQLSchema, ManagedObjectModel) {
        guard let schema = state.schema, let model = state.model else {
            throw PostgreSQLStoreError(.unsupported("the store is used before it was loaded"), server: connection.server)
        }
        return (schema, model)
    }

    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let (rows, model) = try withConnection { connection, state -> ([StoreRow], ManagedObjectModel) in
            let (schema, model) = try Self.loaded(state, connection)
            return (try Self.rows(ofEntities: request.entityNames, keys: nil, schema: schema, connection: connection,
                                  identifier: state.identifier), model)
        }
        return try request.evaluate(over: rows, in: model)
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
                state.connection = nil
            } else if let schema = state.schema {
                var tables = Set(schema.tables.keys)
                for entity in schema.entities.values { for (_, table) in entity.joinTables { tables.insert(table) } }
                tables.formUnion(["Z_METADATA", "Z_PRIMARYKEY"] + PostgreSQLHistoryTables.all)
                try connection.execute("DROP TABLE IF EXISTS \(tables.sorted().map(q).joined(separator: ", "))")
            }
            state.schema = nil
            state.model = nil
        }
    }
}
