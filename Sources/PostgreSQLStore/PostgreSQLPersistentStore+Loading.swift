// Loading: create the tables on first use, or check the stored model's version hashes.
import Foundation
import ObjectGraphInternals
import ManagedObjects
import SQLCompiling

extension PostgreSQLPersistentStore {
    /// Takes the loading lock of the connection's schema until the transaction ends: loading,
    /// migrating and adding history tables are ordered per schema (stores on other schemas of
    /// the database do not wait for each other).
    static let loadingLockSQL = "SELECT pg_advisory_xact_lock(7019019, hashtext(current_schema()))"

    /// Creates the tables on first use, or opens them and checks that they were written by a
    /// model with the same entity version hashes.
    ///
    /// Two processes loading an empty database at once are serialised by an advisory lock:
    /// one creates the tables, the other opens them.
    ///
    /// - Throws: ``PostgreSQLStoreError`` for a connection or statement failure, or
    ///   ``PostgreSQLStoreError/Code/incompatibleModel(_:)`` naming the differing entities.
    public func load(for model: ManagedObjectModel) throws {
        try withConnection { connection, _ in
            let q = SQLDialect.postgreSQL.quoted
            let loaded = try connection.transaction { () throws -> (PostgreSQLSchema, String) in
                try connection.execute(Self.loadingLockSQL)
                let exists = try connection.execute("SELECT to_regclass($1::text) IS NOT NULL", [.text(q("Z_METADATA"))])
                let hashes = model.entityVersionHashesByName
                if exists.rows.first?.first == "t" {
                    var stored: [String: Data] = [:]
                    var identifier = ""
                    for row in try connection.execute("SELECT \(q("Z_KEY")), \(q("Z_VALUE")) FROM \(q("Z_METADATA"))").rows {
                        guard let key = row[0], let data = row[1].flatMap(PostgreSQLSchema.bytes) else { continue }
                        if key == StoreMetadata.storeUUIDKey {
                            identifier = String(decoding: data, as: UTF8.self)
                        } else if key.hasPrefix("hash:") {
                            stored[String(key.dropFirst(5))] = data
                        }
                    }
                    var differing = Set<String>()
                    for (name, hash) in hashes where stored[name] != hash { differing.insert(name) }
                    for name in stored.keys where hashes[name] == nil { differing.insert(name) }
                    guard differing.isEmpty else {
                        throw PostgreSQLStoreError(.incompatibleModel(differing.sorted()), server: connection.server)
                    }
                    var numbers: [String: Int] = [:]
                    for row in try connection.execute("SELECT \(q("Z_ENT")), \(q("Z_NAME")) FROM \(q("Z_PRIMARYKEY"))").rows {
                        if let number = row[0].flatMap({ Int($0) }), let name = row[1] { numbers[name] = number }
                    }
                    return (PostgreSQLSchema(model: model, numbers: numbers), identifier)
                }
                let schema = PostgreSQLSchema(model: model)
                for statement in schema.creationStatements { try connection.execute(statement) }
                let identifier = UUID().uuidString
                let insertMetadata = "INSERT INTO \(q("Z_METADATA")) VALUES ($1::text, $2::bytea)"
                try connection.execute(insertMetadata, [.text(StoreMetadata.storeUUIDKey), .bytes(Data(identifier.utf8))])
                for (name, hash) in hashes { try connection.execute(insertMetadata, [.text("hash:" + name), .bytes(hash)]) }
                for entity in model.entities {
                    let stored = schema.entities[entity.name]!
                    let parent = entity.parentName.flatMap { schema.entities[$0]?.number } ?? 0
                    try connection.execute("INSERT INTO \(q("Z_PRIMARYKEY")) VALUES ($1::integer, $2::text, $3::integer, 0)",
                                           [.integer(Int64(stored.number)), .text(entity.name), .integer(Int64(parent))])
                }
                return (schema, identifier)
            }
            try prepareHistory(on: connection)
            self.state.withTrackedLock(self) { state in
                state.schema = loaded.0
                state.model = model
                state.identifier = loaded.1
                state.metadata = StoreMetadata.standard(storeType: Self.type, identifier: loaded.1, model: model)
            }
        }
    }
}
