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
import ObjectGraphInternals

extension SQLitePersistentStore {
    /// Creates the file with the model's tables and metadata, or opens an existing store
    /// (Apple: `loadMetadata()`).
    ///
    /// A file that is not an SQLite database (an empty file included), an SQLite database
    /// without Core Data's tables or metadata, and a store written by a model with other
    /// version hashes are refused with an error naming the file; such files are left as
    /// they were. An existing store is switched to WAL journal mode once it is accepted.
    /// Temporary files that a creation of this store killed midway left beside it
    /// (`<name>.creating-<process ID>-<UUID>`, whose process is gone) are removed first.
    ///
    /// - Parameter model: The coordinator's model.
    /// - Throws: ``SQLiteStoreError``: ``SQLiteStoreError/Code/notADatabase(_:)``,
    ///   ``SQLiteStoreError/Code/notAStore(_:)``, ``SQLiteStoreError/Code/incompatibleModel(_:)``,
    ///   ``SQLiteStoreError/Code/unsupported(_:)`` (the model has something the layout cannot
    ///   hold), or SQLite's own error.
    public func load(for model: ManagedObjectModel) throws {
        let path = url.path
        // A creation killed midway left its temporary file beside the store: removed now.
        SQLiteStoreEngine.removeStaleCreationFiles(besides: path)
        try state.withTrackedLock(self) { state in
            if FileManager.default.fileExists(atPath: path) {
                state.engine = try SQLiteStoreEngine.open(path: path, model: model)
            } else {
                state.engine = try SQLiteStoreEngine.create(path: path, model: model, identifier: state.identifier)
            }
            if let engine = state.engine {
                state.identifier = engine.identifier
                state.history = tracksPersistentHistory ? try SQLiteHistoryLayout.prepare(engine.connection, schema: engine.schema) : nil
            }
        }
    }
}

extension SQLiteStoreEngine {
    /// Creates a new store file for `model`.
    static func create(path: String, model: ManagedObjectModel, identifier: String) throws -> SQLiteStoreEngine {
        if let reason = readOnlyReason(path: path, exists: false) { throw SQLiteStoreError(.unsupported(reason), path: path) }
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
        let temporary = creationPath(for: path)
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
        guard FileManager.default.isReadableFile(atPath: path) else { throw refuse(.notADatabase("it cannot be read")) }
        // The header is read through the connection's own handle of the file: this process may
        // have the file open already (another coordinator's store), and on POSIX closing a
        // descriptor of our own would drop that store's locks; another process would then take
        // itself for the file's last user and remove the write-ahead log those connections
        // still write to. Opening reads nothing; nothing is written before the checks pass.
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let header = try connection.fileHeader(count: 16)
        if header.isEmpty { throw refuse(.notADatabase("the file is empty")) }
        guard header == Array("SQLite format 3\0".utf8) else { throw refuse(.notADatabase("no SQLite header")) }
        if let reason = readOnlyReason(path: path, exists: true) { throw refuse(.unsupported(reason)) }

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
        var metadata: [String: any Sendable]
        do {
            metadata = try SQLiteStoreMetadata.decode(plist)
        } catch {
            throw refuse(.notAStore("Z_METADATA.Z_PLIST cannot be read: \(error.reason)"))
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
        var entries: [Int64: (superNumber: SQLiteValue, maximum: SQLiteValue)] = [:]
        for entry in try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") {
            guard case .integer(let number) = entry[0], case .text(let name) = entry[1], number < 16000 else { continue }
            if recorded[name] != nil { throw refuse(.notAStore("Z_PRIMARYKEY lists the entity \(name) twice")) }
            recorded[name] = number
            entries[number] = (entry[2], entry[3])
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
        try checkPrimaryKeys(entries, schema: schema, connection: connection, refuse: refuse)
        try connection.execute("PRAGMA journal_mode = WAL")
        return SQLiteStoreEngine(connection: connection, schema: schema, identifier: identifier, metadata: metadata)
    }

    /// Refuses a damaged `Z_PRIMARYKEY`: an entity whose recorded parent number is not its
    /// parent's, or an inheritance root whose key counter (`Z_MAX`) is missing, negative or
    /// below the largest key in its table (new objects would reuse keys).
    private static func checkPrimaryKeys(_ entries: [Int64: (superNumber: SQLiteValue, maximum: SQLiteValue)], schema: SQLiteSchema,
                                         connection: SQLiteConnection,
                                         refuse: (SQLiteStoreError.Code) -> SQLiteStoreError) throws {
        for entity in schema.entities.values.sorted(by: { $0.number < $1.number }) {
            guard let entry = entries[entity.number] else { throw refuse(.notAStore("Z_PRIMARYKEY has no row for \(entity.name)")) }
            if let recorded = entry.superNumber.integerValue, recorded != entity.superNumber {
                throw refuse(.notAStore("Z_PRIMARYKEY gives \(entity.name) the parent number \(recorded), not \(entity.superNumber)"))
            }
            guard entity.superNumber == 0 else { continue }
            let table = SQLiteSchema.tableName(root: entity.rootName)
            guard let recordedMaximum = entry.maximum.integerValue, recordedMaximum >= 0 else {
                throw refuse(.notAStore("Z_PRIMARYKEY has no usable key counter (Z_MAX) for \(entity.name)"))
            }
            // The counter and the largest key read in one statement (one snapshot): another
            // process may save between two separate reads, which would look like a counter
            // behind its keys.
            let pair = try connection.rows("SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), IFNULL(MAX(Z_PK), 0) FROM \(table)",
                                           [.integer(entity.number)]).first ?? []
            let maximum = pair.first?.integerValue ?? recordedMaximum
            let largest = pair.count > 1 ? pair[1].integerValue ?? 0 : 0
            if maximum < largest {
                throw refuse(.notAStore("Z_PRIMARYKEY's key counter for \(entity.name) is \(maximum), below the largest key \(largest) in \(table)"))
            }
        }
    }

    /// Why the store cannot be written at `path` (the file or its folder is read-only: no write
    /// permission, or no write bit at all, which also stops a process running as root), or
    /// `nil`. Opening stores read-only is not supported, and SQLite needs the folder to create
    /// the `-wal` and `-shm` files.
    static func readOnlyReason(path: String, exists: Bool) -> String? {
        func isReadOnly(_ item: String) -> Bool {
            // The mode bits from stat(2) alone: `attributesOfItem` would also look up the
            // owner's and group's names (the user and group databases) on every store opened.
            var status = stat()
            let permissions = stat(item, &status) == 0 ? Int(status.st_mode) & 0o7777 : nil
            return !FileManager.default.isWritableFile(atPath: item) || permissions.map { $0 & 0o222 == 0 } == true
        }
        if exists, isReadOnly(path) { return "the file is read-only (stores open for reading and writing only)" }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: folder), isReadOnly(folder) {
            return "its folder is read-only (SQLite creates the -wal and -shm files beside the store)"
        }
        return nil
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
