// Lightweight migration and store management on the coordinator.
import Foundation
import ObjectGraphInternals

extension StoreDescription {
    /// `"NSMigratePersistentStoresAutomaticallyOption"`: migrate a store written with an
    /// earlier model version when it is added (value `"YES"`).
    public static let migratesAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
    /// `"NSInferMappingModelAutomaticallyOption"`: infer the mapping between the versions
    /// (value `"YES"`).
    public static let infersMappingAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"

    /// Whether adding the store migrates it from an earlier model version (Apple:
    /// `shouldMigrateStoreAutomatically`; here `false` unless set).
    public var shouldMigrateStoreAutomatically: Bool {
        get { Self.isYes(options[Self.migratesAutomaticallyOption]) }
        set { options[Self.migratesAutomaticallyOption] = newValue ? "YES" : nil }
    }

    /// Whether the migration's mapping is inferred (Apple:
    /// `shouldInferMappingModelAutomatically`; here `false` unless set).
    public var shouldInferMappingModelAutomatically: Bool {
        get { Self.isYes(options[Self.infersMappingAutomaticallyOption]) }
        set { options[Self.infersMappingAutomaticallyOption] = newValue ? "YES" : nil }
    }

    private static func isYes(_ value: String?) -> Bool {
        value.map { ["YES", "1", "TRUE"].contains($0.uppercased()) } ?? false
    }
}

extension PersistentStoreCoordinator {
    /// Opens the store a description names, migrating it first when it was written with one of
    /// `sourceModels` and the description asks for lightweight migration (Apple:
    /// `addPersistentStore(type:configuration:at:options:)` with
    /// `NSMigratePersistentStoresAutomaticallyOption` and
    /// `NSInferMappingModelAutomaticallyOption`).
    ///
    /// The migration infers a ``MappingModel`` from the source model (the one whose version
    /// hashes match the store's metadata) to the coordinator's model (or, when that cannot be
    /// inferred, through each later model of `sourceModels` in turn: list them oldest first),
    /// copies every object into
    /// a new store of the same type built beside the old one, and renames the new store over
    /// the old one: the store at `description.url` is the old one or the migrated one, never a
    /// mix. A change that cannot be inferred is thrown before anything is written.
    ///
    /// ```swift
    /// var description = StoreDescription.sqlite(at: url)
    /// description.shouldMigrateStoreAutomatically = true
    /// description.shouldInferMappingModelAutomatically = true
    /// try coordinator.addStore(with: description, sourceModels: [v1, v2])
    /// ```
    ///
    /// - Parameters:
    ///   - description: The store; its type must be registered.
    ///   - sourceModels: Earlier versions of the model, one of which may have written the store.
    /// - Returns: The loaded (migrated) store.
    /// - Throws: ``StoreManagementError/incompatibleModel(store:entities:)`` when the store was
    ///   written with another model and the options are not set;
    ///   ``StoreManagementError/noSourceModel(store:entities:)``;
    ///   ``StoreManagementError/cannotInferMapping(entity:property:reason:)``; the stores' errors.
    @discardableResult
    public func addStore(with description: StoreDescription, sourceModels: [ManagedObjectModel]) throws -> any PersistentStore {
        let factory = try Self.factory(for: description.type)
        let store = try factory(description)
        guard let saved = try store.savedMetadata() else {
            try addStore(store, configuration: description.configuration)
            return store
        }
        let differing = ModelCompatibility.differingEntities(of: model, metadata: saved)
        guard !differing.isEmpty else {
            try addStore(store, configuration: description.configuration)
            return store
        }
        let name = description.url?.path ?? description.type
        guard description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically else {
            throw StoreManagementError.incompatibleModel(store: name, entities: differing)
        }
        guard let sourceIndex = sourceModels.firstIndex(where: { $0.isCompatible(withStoreMetadata: saved) }) else {
            throw StoreManagementError.noSourceModel(store: name, entities: differing)
        }
        // Every step is inferred before anything is written.
        let steps = try Self.migrationSteps(from: sourceIndex, of: sourceModels, to: model)
        if let migrating = store as? any TransactionallyMigratingStore {
            // A server's store migrates in place, in one transaction of its own.
            try migrating.migrate(through: steps.map { MigrationStep(source: $0.source, destination: $0.destination, mapping: $0.mapping) })
            try addStore(store, configuration: description.configuration)
            return store
        }
        for step in steps {
            try Self.migrateInPlace(description, factory: factory, from: step.source, to: step.destination, mapping: step.mapping)
        }
        let migrated = try factory(description)
        try addStore(migrated, configuration: description.configuration)
        return migrated
    }

    /// The metadata of the store at a location, read without adding the store (Apple:
    /// `metadataForPersistentStore(ofType:at:options:)`); `nil` when there is none.
    ///
    /// - Parameters:
    ///   - url: The store's location.
    ///   - type: The store type's name.
    /// - Throws: ``ManagedObjectContextError/unknownStoreType(_:)``, the store's errors.
    public static func metadataForStore(at url: URL, type: String) throws -> [String: any Sendable]? {
        try factory(for: type)(StoreDescription(type: type, url: url)).savedMetadata()
    }

    /// Whether the store at a location holds objects of exactly this coordinator's model,
    /// checked from its metadata without adding it (Apple:
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)`).
    ///
    /// - Returns: `true` when the version hashes match; `false` when they differ or there is
    ///   no store there.
    /// - Throws: As ``metadataForStore(at:type:)``.
    public func isStoreCompatible(at url: URL, type: String) throws -> Bool {
        guard let metadata = try Self.metadataForStore(at: url, type: type) else { return false }
        return model.isCompatible(withStoreMetadata: metadata)
    }

    /// Copies a store of this coordinator to a new location and type, adds the copy and
    /// removes the original from the coordinator (Apple:
    /// `migratePersistentStore(_:to:options:type:)`). The original's file stays as it was.
    ///
    /// Objects get new IDs in the new store (its own UUID; integer keys are kept): fetch them
    /// again.
    ///
    /// - Parameters:
    ///   - store: A store of this coordinator.
    ///   - url: Where the new store goes; nothing may be there.
    ///   - type: The new store's type (`"SQLite"`, `"Binary"`, yours).
    /// - Returns: The new store, added to the coordinator.
    /// - Throws: ``StoreManagementError/destinationExists(_:)``, the stores' errors.
    @discardableResult
    public func migratePersistentStore(_ store: any PersistentStore, to url: URL, type: String) throws -> any PersistentStore {
        guard !FileManager.default.fileExists(atPath: url.path) else { throw StoreManagementError.destinationExists(url.path) }
        let configuration = configuration(of: store)
        let destination = try Self.factory(for: type)(StoreDescription(type: type, url: url, configuration: configuration))
        try destination.load(for: model)
        do {
            try StoreMigrator.copy(from: store, sourceModel: model, to: destination, mapping: StoreMigrator.identity(of: model))
        } catch {
            try? destination.destroy()
            throw error
        }
        try addStore(destination, configuration: configuration)
        removeStore(store)
        return destination
    }

    /// Removes the store at a location (Apple: `destroyPersistentStore(at:type:options:)`).
    /// Remove it from any coordinator first.
    ///
    /// - Throws: ``ManagedObjectContextError/unknownStoreType(_:)``, the store's errors
    ///   (``StoreManagementError/unsupported(_:)`` for types without files).
    public static func destroyPersistentStore(at url: URL, type: String) throws {
        try factory(for: type)(StoreDescription(type: type, url: url)).destroy()
    }

    /// Replaces the store at `destination` with a copy of the store at `source`, both of
    /// `type` and of this coordinator's model (Apple: `replacePersistentStore(at:…)`). The
    /// source stays as it was.
    ///
    /// - Throws: ``StoreManagementError/incompatibleModel(store:entities:)`` when the source
    ///   was written with another model; the stores' errors.
    public func replacePersistentStore(at destination: URL, withStoreAt source: URL, type: String) throws {
        let factory = try Self.factory(for: type)
        let sourceDescription = StoreDescription(type: type, url: source)
        if let saved = try factory(sourceDescription).savedMetadata() {
            let differing = ModelCompatibility.differingEntities(of: model, metadata: saved)
            guard differing.isEmpty else { throw StoreManagementError.incompatibleModel(store: source.path, entities: differing) }
        }
        try Self.migrateInPlace(StoreDescription(type: type, url: destination), factory: factory, from: model, to: model,
                                mapping: StoreMigrator.identity(of: model), copyingFrom: sourceDescription)
    }

    // MARK: Helpers

    /// The migration from `models[sourceIndex]` to `destination`: one step when it can be
    /// inferred directly, otherwise one step per later version in `models` (in their order),
    /// when every step can be inferred (renames that build on each other need this).
    ///
    /// - Throws: The direct inference's error when neither way works.
    static func migrationSteps(from sourceIndex: Int, of models: [ManagedObjectModel], to destination: ManagedObjectModel) throws
        -> [(source: ManagedObjectModel, destination: ManagedObjectModel, mapping: MappingModel)] {
        let source = models[sourceIndex]
        do {
            return [(source, destination, try MappingModel.inferred(from: source, to: destination))]
        } catch let direct {
            let later = models[(sourceIndex + 1)...].filter { $0 !== destination && $0.entityVersionHashesByName != destination.entityVersionHashesByName }
            guard !later.isEmpty else { throw direct }
            let chain = [source] + later + [destination]
            var steps: [(source: ManagedObjectModel, destination: ManagedObjectModel, mapping: MappingModel)] = []
            for (from, to) in zip(chain, chain.dropFirst()) {
                guard let mapping = try? MappingModel.inferred(from: from, to: to) else { throw direct }
                steps.append((from, to, mapping))
            }
            return steps
        }
    }

    static func factory(for type: String) throws -> StoreFactory {
        guard let factory = factories.withTrackedLock(ThreadSanitizer.staticOwner, { $0[type] }) else { throw ManagedObjectContextError.unknownStoreType(type) }
        return factory
    }

    /// Builds the migrated store beside `description.url` from the store at `copyingFrom`
    /// (default: the same location), under the hidden name
    /// `.<name>.migrating-<process ID>-<UUID>`, then renames it over `description.url`. Hidden
    /// copies of migrations whose process died (killed midway) are removed first.
    private static func migrateInPlace(_ description: StoreDescription, factory: StoreFactory,
                                       from sourceModel: ManagedObjectModel, to destinationModel: ManagedObjectModel,
                                       mapping: MappingModel, copyingFrom sourceDescription: StoreDescription? = nil) throws {
        guard let url = description.url else { throw StoreManagementError.unsupported("a store without a URL cannot be migrated") }
        var temporary = description
        // The migrated store keeps the UUID of the store it replaces (Apple keeps
        // NSStoreUUIDKey): object URIs saved before the migration still resolve.
        if let uuid = try factory(sourceDescription ?? description).savedMetadata()?[StoreMetadata.storeUUIDKey] as? String {
            temporary.options[StoreDescription.newStoreUUIDOption] = uuid
        }
        // A migration killed midway leaves its hidden copy behind: sweep those of dead
        // processes, then build under a name that records this process.
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).migrating-"
        LeftBehindFiles.removeDeadProcessFiles(in: folder.path, prefix: prefix)
        let temporaryURL = folder.appendingPathComponent(LeftBehindFiles.temporaryName(prefix: prefix))
        temporary.url = temporaryURL
        do {
            try buildCopy(from: sourceDescription ?? description, sourceModel: sourceModel, into: temporary,
                          destinationModel: destinationModel, mapping: mapping, factory: factory)
            // The stores are closed. Companion files of the old store (an SQLite write-ahead
            // log) would be applied to the new file: they go first.
            for suffix in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                try FileManager.default.removeItem(atPath: url.path + suffix)
            }
            try FileRename.replace(url, with: temporaryURL)
        } catch {
            try? factory(temporary).destroy()
            // The hidden copy is gone: the error names the user's store.
            if let located = error as? any StoreLocatedError { throw located.relocated(from: temporaryURL.path, to: url.path) }
            throw error
        }
    }

    /// Opens the source, creates the destination and copies; both are released on return.
    private static func buildCopy(from sourceDescription: StoreDescription, sourceModel: ManagedObjectModel,
                                  into destinationDescription: StoreDescription, destinationModel: ManagedObjectModel,
                                  mapping: MappingModel, factory: StoreFactory) throws {
        let source = try factory(sourceDescription)
        try source.load(for: sourceModel)
        let destination = try factory(destinationDescription)
        try destination.load(for: destinationModel)
        try StoreMigrator.copy(from: source, sourceModel: sourceModel, to: destination, mapping: mapping)
    }
}

/// An error that names a store's file: a migration, which builds the migrated store in a hidden
/// copy, names the user's store instead of the copy in what it throws.
package protocol StoreLocatedError: Error {
    /// The same error naming `path` where it named `temporaryPath`.
    func relocated(from temporaryPath: String, to path: String) -> Self
}

extension FileStoreError: StoreLocatedError {
    package func relocated(from temporaryPath: String, to path: String) -> FileStoreError {
        var copy = self
        if copy.path == temporaryPath { copy.path = path }
        return copy
    }
}
