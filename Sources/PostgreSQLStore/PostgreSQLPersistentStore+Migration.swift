// Lightweight migration in place: the store's tables rewritten for a newer model version in one
// transaction (PostgreSQL's DDL is transactional), and the saved metadata read without loading.
import Foundation
import ObjectGraphInternals
import ManagedObjects
import Predicates
import SQLCompiling

extension PostgreSQLPersistentStore: TransactionallyMigratingStore {
    /// The metadata in the database's `Z_METADATA` table (the store's UUID and the entity
    /// version hashes), read without creating or changing a table; `nil` when the database
    /// holds no store yet. The coordinator reads it to decide on a migration.
    ///
    /// - Throws: ``PostgreSQLStoreError`` for a connection or statement failure.
    public func savedMetadata() throws -> [String: any Sendable]? {
        try withConnection { connection, _ in
            guard let stored = try Self.storedMetadata(connection) else { return nil }
            return [
                StoreMetadata.storeTypeKey: Self.type,
                StoreMetadata.storeUUIDKey: stored.identifier,
                StoreMetadataKey.modelVersionHashes: stored.hashes,
            ]
        }
    }

    /// Migrates the tables in one transaction (see Docs/PostgreSQLStore.md, Migration): every
    /// row is read with the source model's layout, mapped through each step (renamed entities
    /// and properties, defaults for new and newly required attributes, removed ones dropped),
    /// the old tables are dropped, the destination model's are created and the rows written
    /// back with their keys, entity numbers and versions. The store keeps its UUID. When
    /// anything fails, the transaction rolls back and the database is as it was.
    ///
    /// - Parameter steps: The inferred steps, oldest first.
    /// - Throws: ``PostgreSQLStoreError/Code/incompatibleModel(_:)`` when the tables were not
    ///   written by the first step's source model; the server's errors (a new uniqueness
    ///   constraint the rows break, a lost connection…).
    package func migrate(through steps: [MigrationStep]) throws {
        guard let first = steps.first, let last = steps.last else { return }
        try withConnection { connection, _ in
            try connection.transaction {
                try connection.execute(Self.loadingLockSQL)
                guard let stored = try Self.storedMetadata(connection) else {
                    throw PostgreSQLStoreError(.unsupported("there is no store to migrate"), server: connection.server)
                }
                let differing = Set(stored.hashes.keys).union(first.source.entityVersionHashesByName.keys)
                    .filter { stored.hashes[$0] != first.source.entityVersionHashesByName[$0] }
                guard differing.isEmpty else {
                    throw PostgreSQLStoreError(.incompatibleModel(differing.sorted()), server: connection.server)
                }
                let source = PostgreSQLSchema(model: first.source, numbers: stored.numbers)
                var rows = try Self.rows(ofEntities: first.source.entities.map(\.name), keys: nil, schema: source,
                                         connection: connection, identifier: stored.identifier)
                var numbers = stored.numbers
                var largestKeys = stored.largestKeys
                for step in steps {
                    rows = Self.mapped(rows, through: step.mapping, identifier: stored.identifier)
                    (numbers, largestKeys) = Self.carried(numbers, largestKeys, through: step)
                }
                let destination = PostgreSQLSchema(model: last.destination, numbers: numbers)
                try Self.dropTables(of: source, connection: connection)
                try Self.create(destination, model: last.destination, identifier: stored.identifier,
                                largestKeys: largestKeys, connection: connection)
                try Self.insert(rows, schema: destination, connection: connection)
            }
        }
        // New connections: none keeps statements prepared against the old tables.
        pool.drain()
        state.withTrackedLock(self) { $0.schema = nil; $0.model = nil }
    }

    /// What `Z_METADATA` and `Z_PRIMARYKEY` hold, or `nil` when there is no store.
    static func storedMetadata(_ connection: PostgreSQLConnection) throws
        -> (identifier: String, hashes: [String: Data], numbers: [String: Int], largestKeys: [String: Int64])? {
        let q = SQLDialect.postgreSQL.quoted
        let exists = try connection.execute("SELECT to_regclass($1::text) IS NOT NULL", [.text(q("Z_METADATA"))])
        guard exists.rows.first?.first == "t" else { return nil }
        var identifier = ""
        var hashes: [String: Data] = [:]
        for row in try connection.execute("SELECT \(q("Z_KEY")), \(q("Z_VALUE")) FROM \(q("Z_METADATA"))").rows {
            guard let key = row[0], let data = row[1].flatMap(PostgreSQLSchema.bytes) else { continue }
            if key == StoreMetadata.storeUUIDKey {
                identifier = String(decoding: data, as: UTF8.self)
            } else if key.hasPrefix("hash:") {
                hashes[String(key.dropFirst(5))] = data
            }
        }
        var numbers: [String: Int] = [:]
        var largest: [String: Int64] = [:]
        for row in try connection.execute("SELECT \(q("Z_ENT")), \(q("Z_NAME")), \(q("Z_MAX")) FROM \(q("Z_PRIMARYKEY"))").rows {
            guard let number = row[0].flatMap({ Int($0) }), let name = row[1] else { continue }
            numbers[name] = number
            largest[name] = PostgreSQLRows.integer(row[2]) ?? 0
        }
        return (identifier, hashes, numbers, largest)
    }

    /// The rows of one step's destination: entity and property names mapped, defaults filled,
    /// relationships to removed entities dropped; keys and versions kept.
    static func mapped(_ rows: [StoreRow], through mapping: MappingModel, identifier: String) -> [StoreRow] {
        var bySource: [String: MappingModel.EntityMapping] = [:]
        for entityMapping in mapping.entityMappings {
            if let source = entityMapping.sourceEntity { bySource[source] = entityMapping }
        }
        func moved(_ id: ManagedObjectID) -> ManagedObjectID? {
            guard let destination = bySource[id.entityName]?.destinationEntity else { return nil }
            return ManagedObjectID(entityName: destination, storeIdentifier: identifier, referenceObject: id.referenceObject)
        }
        return rows.compactMap { row -> StoreRow? in
            guard let entityMapping = bySource[row.objectID.entityName], let id = moved(row.objectID) else { return nil }
            var mappedRow = StoreRow(objectID: id, version: row.version)
            for (name, sourceName) in entityMapping.attributes {
                if let value = sourceName.flatMap({ row.attributes[$0] }), value != .null {
                    mappedRow.attributes[name] = value
                } else if let fallback = entityMapping.defaults[name] {
                    mappedRow.attributes[name] = fallback
                }
            }
            for (name, sourceName) in entityMapping.relationships {
                mappedRow.relationships[name] = sourceName.map { (row.relationships[$0] ?? []).compactMap(moved) } ?? []
            }
            return mappedRow
        }
    }

    /// Entity numbers and each root's last key, by destination name: a mapped entity keeps its
    /// number and counter; a new one gets none (the layout numbers it).
    static func carried(_ numbers: [String: Int], _ largestKeys: [String: Int64],
                        through step: MigrationStep) -> ([String: Int], [String: Int64]) {
        var newNumbers: [String: Int] = [:]
        var newLargest: [String: Int64] = [:]
        for entityMapping in step.mapping.entityMappings {
            guard let source = entityMapping.sourceEntity else { continue }
            if let number = numbers[source] { newNumbers[entityMapping.destinationEntity] = number }
            if let largest = largestKeys[source] { newLargest[entityMapping.destinationEntity] = largest }
        }
        return (newNumbers, newLargest)
    }

    /// Drops a layout's tables, its join tables and the bookkeeping tables.
    static func dropTables(of schema: PostgreSQLSchema, connection: PostgreSQLConnection) throws {
        let q = schema.dialect.quoted
        var tables = Set(schema.tables.keys)
        for entity in schema.entities.values { for (_, table) in entity.joinTables { tables.insert(table) } }
        tables.formUnion(["Z_METADATA", "Z_PRIMARYKEY"])
        try connection.execute("DROP TABLE IF EXISTS \(tables.sorted().map(q).joined(separator: ", "))")
    }

    /// Creates a layout's tables and fills the bookkeeping tables.
    static func create(_ schema: PostgreSQLSchema, model: ManagedObjectModel, identifier: String,
                       largestKeys: [String: Int64], connection: PostgreSQLConnection) throws {
        let q = schema.dialect.quoted
        for statement in schema.creationStatements { try connection.execute(statement) }
        let insertMetadata = "INSERT INTO \(q("Z_METADATA")) VALUES ($1::text, $2::bytea)"
        try connection.execute(insertMetadata, [.text(StoreMetadata.storeUUIDKey), .bytes(Data(identifier.utf8))])
        for (name, hash) in model.entityVersionHashesByName { try connection.execute(insertMetadata, [.text("hash:" + name), .bytes(hash)]) }
        for entity in model.entities {
            let stored = try schema.entity(entity.name, server: connection.server)
            let parent = entity.parentName.flatMap { schema.entities[$0]?.number } ?? 0
            try connection.execute("INSERT INTO \(q("Z_PRIMARYKEY")) VALUES ($1::integer, $2::text, $3::integer, $4::bigint)",
                                   [.integer(Int64(stored.number)), .text(entity.name), .integer(Int64(parent)),
                                    .integer(largestKeys[entity.name] ?? 0)])
        }
    }

    /// Inserts rows with their keys and versions (a migration's copy).
    static func insert(_ rows: [StoreRow], schema: PostgreSQLSchema, connection: PostgreSQLConnection) throws {
        let q = schema.dialect.quoted
        func key(_ id: ManagedObjectID) throws -> Int64 {
            guard case .integer(let key) = id.referenceObject else {
                throw PostgreSQLStoreError(.unsupported("the object \(id) has no integer key"), server: connection.server)
            }
            return key
        }
        for row in rows {
            let entity = try schema.entity(row.objectID.entityName, server: connection.server)
            let (names, values) = try columnValues(of: row, entity: entity, schema: schema, server: connection.server, key: key)
            let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + names
            let placeholders = (1...columns.count).map { "$\($0)" }
            try connection.execute(
                "INSERT INTO \(q(entity.table)) (\(columns.map(q).joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))",
                [.integer(try key(row.objectID)), .integer(Int64(entity.number)), .integer(max(1, row.version))] + values)
            try writeToMany(of: row, entity: entity, replacing: false, connection: connection, schema: schema, key: key)
        }
    }
}
