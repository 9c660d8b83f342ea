// Loading: create a new file in Core Data's layout, or open an existing store and check it.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ManagedObjects

extension SQLitePersistentStore {
    /// Creates the file with the model's tables and metadata, or opens an existing store
    /// (Apple: `loadMetadata()`).
    ///
    /// A file that is not an SQLite database (an empty file included), an SQLite database
    /// without Core Data's tables or metadata, and a store written by a model with other
    /// version hashes are refused with an error naming the file; such files are left as
    /// they were. An existing store is switched to WAL journal mode once it is accepted.
    ///
    /// - Parameter model: The coordinator's model.
    /// - Throws: ``SQLiteStoreError``: ``SQLiteStoreError/Code/notADatabase(_:)``,
    ///   ``SQLiteStoreError/Code/notAStore(_:)``, ``SQLiteStoreError/Code/incompatibleModel(_:)``,
    ///   ``SQLiteStoreError/Code/unsupported(_:)`` (the model has something the layout cannot
    ///   hold), or SQLite's own error.
    public func load(for model: ManagedObjectModel) throws {
        let path = url.path
        try state.withLock { state in
            if FileManager.default.fileExists(atPath: path) {
                state.engine = try SQLiteStoreEngine.open(path: path, model: model)
            } else {
                state.engine = try SQLiteStoreEngine.create(path: path, model: model, identifier: state.identifier)
            }
            if let engine = state.engine { state.identifier = engine.identifier }
        }
    }
}

extension SQLiteStoreEngine {
    /// Creates a new store file for `model`.
    static func create(path: String, model: ManagedObjectModel, identifier: String) throws -> SQLiteStoreEngine {
        let schema = try SQLiteSchema(model: model, path: path)
        var metadata = SQLiteStoreMetadata.initial(for: model)
        let plist: Data
        do {
            plist = try SQLiteStoreMetadata.encode(metadata)
        } catch {
            throw SQLiteStoreError(.unsupported("metadata that is not a property list (\(error))"), path: path)
        }
        metadata[SQLiteStoreMetadata.uuidKey] = identifier
        // Built under a temporary name and linked into place whole, so that a process killed
        // while creating leaves no half-made store at `path` (only a stray temporary file).
        let temporary = path + ".creating-" + UUID().uuidString
        func removeTemporary() {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        }
        do {
            do {
                let connection = try SQLiteConnection(path: temporary, mode: .create)
                try connection.execute("PRAGMA auto_vacuum = 2")
                try connection.execute("PRAGMA journal_mode = WAL")
                try connection.transaction {
                    for statement in SQLiteSchema.bookkeepingStatements + schema.creationStatements {
                        try connection.execute(statement)
                    }
                    for row in schema.primaryKeyRows {
                        try connection.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)", row)
                    }
                    try connection.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                       [.text(identifier), .blob(plist)])
                }
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }   // closed here: the file is complete on disk
            // link(2) refuses to replace a file another process created meanwhile.
            guard link(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                removeTemporary()
                if FileManager.default.fileExists(atPath: path) { return try open(path: path, model: model) }
                throw SQLiteStoreError(.unsupported("the store file cannot be created (\(reason))"), path: path)
            }
            removeTemporary()
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            return SQLiteStoreEngine(connection: connection, schema: schema, identifier: identifier, metadata: metadata)
        } catch {
            removeTemporary()
            throw error
        }
    }

    /// Opens an existing store file and checks it against `model`; the file is not written
    /// before every check has passed.
    static func open(path: String, model: ManagedObjectModel) throws -> SQLiteStoreEngine {
        func refuse(_ code: SQLiteStoreError.Code) -> SQLiteStoreError { SQLiteStoreError(code, path: path) }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue { throw refuse(.notADatabase("it is a directory")) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw refuse(.notADatabase("it cannot be read")) }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if header.isEmpty { throw refuse(.notADatabase("the file is empty")) }
        guard header == Data("SQLite format 3\0".utf8) else { throw refuse(.notADatabase("no SQLite header")) }

        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            if case .text(let name) = row.first { return name }
            return nil
        })
        for required in ["Z_PRIMARYKEY", "Z_METADATA"] where !tables.contains(required) {
            throw refuse(.notAStore("it has no \(required) table"))
        }
        guard let row = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1").first,
              row.count == 2 else { throw refuse(.notAStore("Z_METADATA has no row")) }
        guard case .blob(let plist) = row[1] else {
            throw refuse(.notAStore("Z_METADATA has no metadata property list (Z_PLIST is \(row[1].isNull ? "NULL" : "not a blob"))"))
        }
        guard var metadata = SQLiteStoreMetadata.decode(plist) else {
            throw refuse(.notAStore("Z_PLIST is not a property-list dictionary"))
        }
        guard case .text(let identifier) = row[0], !identifier.isEmpty else {
            throw refuse(.notAStore("Z_METADATA has no store UUID"))
        }
        metadata[SQLiteStoreMetadata.uuidKey] = identifier
        if let type = metadata[SQLiteStoreMetadata.typeKey] as? String, type != SQLiteStoreMetadata.storeType {
            throw refuse(.notAStore("its metadata says store type \(type)"))
        }
        guard model.isConfiguration(nil, compatibleWithStoreMetadata: metadata) else {
            throw refuse(.incompatibleModel(incompatibility(model: model, metadata: metadata)))
        }

        var recorded: [String: Int64] = [:]
        for entry in try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            if case .integer(let number) = entry[0], case .text(let name) = entry[1], number < 16000 { recorded[name] = number }
        }
        // A store migrated by Core Data keeps an entity's old name in Z_PRIMARYKEY after a
        // rename (CoreDataPlus SampleModel_V2: LuxuryCar, renamed from ExpensiveSportCar, is
        // still "ExpensiveSportCar"); the entity's renaming identifier finds it.
        var numbers: [String: Int64] = [:]
        for entity in model.entities {
            numbers[entity.name] = recorded[entity.name] ?? entity.renamingIdentifier.flatMap { recorded[$0] }
        }
        let schema = try SQLiteSchema(model: model, numbers: numbers, path: path)
        for table in schema.tables {
            guard tables.contains(table.name) else { throw refuse(.notAStore("it has no table \(table.name)")) }
            let present = Set(try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table.name)]).compactMap { row -> String? in
                if case .text(let name) = row.first { return name }
                return nil
            })
            let required = (table.isJoinTable ? [] : ["Z_PK", "Z_ENT", "Z_OPT"]) + table.columns.map(\.name)
            if let missing = required.first(where: { !present.contains($0) }) {
                throw refuse(.notAStore("table \(table.name) has no column \(missing)"))
            }
        }
        try connection.execute("PRAGMA journal_mode = WAL")
        return SQLiteStoreEngine(connection: connection, schema: schema, identifier: identifier, metadata: metadata)
    }

    /// Which entities differ between the model and the store's version hashes.
    private static func incompatibility(model: ManagedObjectModel, metadata: [String: any Sendable]) -> String {
        let modelHashes = model.entityVersionHashesByName
        let stored = (metadata[StoreMetadataKey.modelVersionHashes] as? [String: any Sendable])?.compactMapValues { $0 as? Data }
        guard let stored else { return "its metadata has no \(StoreMetadataKey.modelVersionHashes)" }
        let onlyModel = Set(modelHashes.keys).subtracting(stored.keys).sorted()
        let onlyStore = Set(stored.keys).subtracting(modelHashes.keys).sorted()
        let changed = modelHashes.filter { stored[$0.key] != nil && stored[$0.key] != $0.value }.keys.sorted()
        var parts: [String] = []
        if !onlyModel.isEmpty { parts.append("entities only in the model: " + onlyModel.joined(separator: ", ")) }
        if !onlyStore.isEmpty { parts.append("entities only in the store: " + onlyStore.joined(separator: ", ")) }
        if !changed.isEmpty { parts.append("entities with other version hashes: " + changed.joined(separator: ", ")) }
        return parts.isEmpty ? "version hash algorithm differs" : parts.joined(separator: "; ")
    }
}
