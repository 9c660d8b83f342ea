// The atomic file store: the whole graph in memory, written whole to one file on every save.
import Foundation
import ObjectGraphInternals
import Synchronization

/// A store that keeps every object in memory and writes the whole store to one file on each
/// save, atomically (Apple: `NSAtomicStore`, and its binary store type `NSBinaryStoreType`).
///
/// The file is JSON (its layout is in Docs/Stores.md). Loading reads it whole; a save builds
/// the new file in a temporary file beside it, flushes it to disk, and renames it over the old
/// one, so the file on disk is always either the previous save or the new one, never a mix.
/// A file that cannot be read (damaged, truncated, another format, another model) is a thrown
/// ``FileStoreError`` naming it, and the file is left as it is.
///
/// ```swift
/// try coordinator.addStore(with: StoreDescription(type: AtomicFileStore.type, url: url))
/// ```
///
/// Primary keys are counted per inheritance root, as in the in-memory and SQLite stores.
/// Other processes are not coordinated: the last process to save wins (Apple's atomic stores
/// behave the same way); use the SQLite store for files shared by several processes.
///
/// - Important: Thread safety: `Sendable`; every operation takes the store's lock.
public final class AtomicFileStore: PersistentStore {
    /// `"Binary"`, Apple's `NSBinaryStoreType`.
    public static let type = "Binary"

    /// The store file.
    public let url: URL

    private struct State {
        var identifier = ""
        var model: ManagedObjectModel?
        var metadata: [String: any Sendable] = [:]
        var rows: [ManagedObjectID: StoreRow] = [:]
        var nextKeys: [String: Int64] = [:]
        var roots: [String: String] = [:]
    }
    private let state = Mutex(State())

    /// A store for a file; nothing is read until the coordinator loads it.
    ///
    /// - Parameter url: The store file; created on load when missing.
    public init(url: URL) {
        self.url = url
        self.newStoreIdentifier = nil
    }

    /// A store for a file that, when created, gets `newStoreIdentifier` as its UUID.
    init(url: URL, newStoreIdentifier: String?) {
        self.url = url
        self.newStoreIdentifier = newStoreIdentifier
    }

    /// The UUID a file created by ``load(for:)`` gets (``StoreDescription/newStoreUUIDOption``);
    /// `nil`: a new one.
    let newStoreIdentifier: String?

    /// Registers the `"Binary"` store type. The coordinator's registry knows it from the start
    /// too; calling this again changes nothing.
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type, factory: factory)
    }

    static let factory: StoreFactory = { description in
        guard let url = description.url else {
            throw FileStoreError(.io("an atomic file store description needs a file URL"), path: "(no URL)")
        }
        let uuid = description.options[StoreDescription.newStoreUUIDOption].flatMap { UUID(uuidString: $0) != nil ? $0 : nil }
        return AtomicFileStore(url: url, newStoreIdentifier: uuid)
    }

    public var identifier: String { state.withTrackedLock(self) { $0.identifier } }
    public var storeType: String { Self.type }
    public var metadata: [String: any Sendable] { state.withTrackedLock(self) { $0.metadata } }

    /// Reads the file whole, or creates it (empty, with a new UUID) when missing.
    ///
    /// First removes the temporary copies (`.<name>.saving-<process ID>-<UUID>`) that saves of
    /// processes no longer running left beside the file (killed midway).
    ///
    /// - Throws: ``FileStoreError``: `.damaged` for a file that cannot be read or does not fit
    ///   the model (an unknown entity, a key used twice, a negative version, a value of the wrong
    ///   type, a relationship to a missing object or to one of another entity), naming the
    ///   entity, key and property; `.incompatibleModel` naming the entities whose version hashes
    ///   differ from the model's. The file is left untouched.
    public func load(for model: ManagedObjectModel) throws {
        let path = url.path
        // A save killed midway leaves its temporary copy behind: remove those of dead processes.
        LeftBehindFiles.removeDeadProcessFiles(in: url.deletingLastPathComponent().path, prefix: temporaryPrefix)
        var roots: [String: String] = [:]
        for entity in model.entities { roots[entity.name] = model.rootEntity(of: entity).name }
        let contents: AtomicFileContents
        if FileManager.default.fileExists(atPath: path) {
            var read = try AtomicFileContents(data: try readFile(), path: path)
            let differing = ModelCompatibility.differingEntities(of: model, metadata: read.metadata)
            guard differing.isEmpty else { throw FileStoreError(.incompatibleModel(differing), path: path) }
            try read.reverseTransformed(with: model, path: path)
            try read.validate(against: model, roots: roots, path: path)
            // A counter the file lacks starts after the largest key in use.
            for row in read.rows {
                let root = roots[row.objectID.entityName] ?? row.objectID.entityName
                let key = row.objectID.referenceObject.integerValue ?? 0
                if read.nextKeys[root, default: 0] < key { read.nextKeys[root] = key }
            }
            contents = read
        } else {
            let identifier = newStoreIdentifier ?? UUID().uuidString
            contents = AtomicFileContents(metadata: StoreMetadata.standard(storeType: Self.type, identifier: identifier, model: model),
                                          nextKeys: [:], rows: [], model: model)
            try write(contents)
        }
        let identifier = contents.metadata[StoreMetadata.storeUUIDKey] as? String ?? ""
        state.withTrackedLock(self) { state in
            state.identifier = identifier
            state.model = model
            state.metadata = contents.metadata
            state.metadata[StoreMetadata.storeTypeKey] = Self.type
            state.rows = Dictionary(contents.rows.map { ($0.objectID, $0) }, uniquingKeysWith: { $1 })
            state.nextKeys = contents.nextKeys
            state.roots = roots
        }
    }

    /// The metadata in the file, read without loading the store; `nil` when there is no file.
    ///
    /// - Throws: ``FileStoreError`` `.damaged` for a file that cannot be read.
    public func savedMetadata() throws -> [String: any Sendable]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try AtomicFileContents(data: try readFile(), path: url.path).metadata
    }

    /// Removes the store file.
    ///
    /// - Throws: ``FileStoreError`` `.io` when the file exists and cannot be removed.
    public func destroy() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw FileStoreError(.io("cannot remove the file (\(error.localizedDescription))"), path: url.path)
        }
        state.withTrackedLock(self) { $0.rows = [:] }
    }

    public func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let (rows, model) = state.withTrackedLock(self) { state in
            (request.entityNames.count == 1 ? state.rows.values.filter { $0.objectID.entityName == request.entityNames[0] }
                                           : Array(state.rows.values), state.model)
        }
        guard let model else { return StoreFetchResult(rows: [], appliedPredicate: true, appliedOrderAndLimits: true) }
        return try request.evaluate(over: rows.sorted { ($0.objectID.referenceObject.integerValue ?? 0) < ($1.objectID.referenceObject.integerValue ?? 0) },
                                    in: model)
    }

    public func row(for id: ManagedObjectID) throws -> StoreRow? {
        state.withTrackedLock(self) { $0.rows[id] }
    }

    /// New IDs, each one key past its inheritance root's counter.
    ///
    /// - Throws: ``FileStoreError`` `.unsupportedValue` when a counter read from the file is at
    ///   `Int64.max` (no key is left); no counter changes then.
    public func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        try state.withTrackedLock(self) { state throws -> [ManagedObjectID] in
            var nextKeys = state.nextKeys
            let ids = try entityNames.map { name in
                let root = state.roots[name] ?? name
                let (key, overflow) = nextKeys[root, default: 0].addingReportingOverflow(1)
                guard !overflow else {
                    throw FileStoreError(.unsupportedValue("no key is left for a new \(name): the \(root) keys reached \(Int64.max)"),
                                         path: url.path)
                }
                nextKeys[root] = key
                return ManagedObjectID(entityName: name, storeIdentifier: state.identifier, primaryKey: key)
            }
            state.nextKeys = nextKeys
            return ids
        }
    }

    /// Applies the save to a copy of the graph, writes the copy to the file atomically, and
    /// keeps it only when the write succeeded.
    ///
    /// - Throws: ``StoreSaveError`` `.conflicts` for rows saved meanwhile; `.invalidObject` for
    ///   an insert that exists or belongs to another store, or an update of a row whose version
    ///   (read from the file) is `Int64.max` and cannot grow; ``FileStoreError`` when the file
    ///   cannot be written. The file and the store are unchanged then.
    public func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        try state.withTrackedLock(self) { state throws -> [ManagedObjectID: Int64] in
            let conflicts = changes.conflicts { state.rows[$0]?.version }
            guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
            var rows = state.rows
            var versions: [ManagedObjectID: Int64] = [:]
            for var row in changes.inserted {
                guard rows[row.objectID] == nil, row.objectID.storeIdentifier == state.identifier,
                      row.objectID.referenceObject.integerValue != nil else {
                    throw StoreSaveError.invalidObject(row.objectID, reason: "it already exists or belongs to another store")
                }
                row.version = 1
                versions[row.objectID] = 1
                rows[row.objectID] = row
            }
            for var row in changes.updated {
                // A version read from the file may be at the top of its range.
                let (version, overflow) = row.version.addingReportingOverflow(1)
                guard !overflow else { throw StoreSaveError.invalidObject(row.objectID, reason: "its version \(row.version) cannot grow") }
                row.version = version
                versions[row.objectID] = row.version
                // Relationships the row leaves out (never loaded) keep their stored members.
                if let stored = rows[row.objectID] {
                    for (name, ids) in stored.relationships where row.relationships[name] == nil { row.relationships[name] = ids }
                }
                rows[row.objectID] = row
            }
            for (id, _) in changes.deleted { rows[id] = nil }
            try write(AtomicFileContents(metadata: state.metadata, nextKeys: state.nextKeys, rows: Array(rows.values), model: state.model))
            state.rows = rows
            return versions
        }
    }

    // MARK: The file

    private func readFile() throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw FileStoreError(.io("cannot read the file (\(error.localizedDescription))"), path: url.path)
        }
    }

    /// The start of a save's temporary file name: `.<name>.saving-`, followed by the process ID
    /// and a UUID (``LeftBehindFiles``), so that a later load can tell a dead process's copy
    /// from one being written.
    private var temporaryPrefix: String { ".\(url.lastPathComponent).saving-" }

    /// Writes the contents to a temporary file beside the store file, flushes it, and renames
    /// it over the store file.
    private func write(_ contents: AtomicFileContents) throws {
        let data = try contents.data(path: url.path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(LeftBehindFiles.temporaryName(prefix: temporaryPrefix))
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw FileStoreError(.io("cannot create a temporary file in \(url.deletingLastPathComponent().path)"), path: url.path)
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            try FileRename.replace(url, with: temporary)
        } catch let error as FileStoreError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FileStoreError(.io("cannot write the file (\(error.localizedDescription))"), path: url.path)
        }
    }
}
