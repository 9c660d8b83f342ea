// The container: a model, a coordinator, its stores and a main context, set up in one place.
import Foundation
import ManagedObjects

/// The whole stack in one object: a model, a coordinator, the stores its descriptions name,
/// and a view context (Apple: `NSPersistentContainer`).
///
/// ```swift
/// let container = PersistentContainer(name: "Theater", model: model)
/// container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
/// try container.loadPersistentStores()
/// let context = container.viewContext
/// ```
///
/// The container lives in the `SQLiteStore` module (re-exported by `import ObjectGraph`)
/// because its default store is SQLite: making a container registers the `"SQLite"` store type
/// (``SQLitePersistentStore/registerStoreType()``).
///
/// By default the container opens one SQLite store named after the container in
/// ``defaultDirectoryURL()``; on Linux that directory is `$XDG_DATA_HOME/<name>` (or
/// `~/.local/share/<name>` when the variable is unset), where Apple uses the app's Application
/// Support folder.
///
/// - Important: Thread safety: not `Sendable`, like its view context; use it where it was made
///   (normally the main actor). Background work goes through ``newBackgroundContext()`` and
///   `performBackgroundTask(_:)`, which hand object IDs back.
public final class PersistentContainer {
    /// The container's name: the default store's file name and folder.
    public let name: String
    /// The model (Apple: `managedObjectModel`).
    public let model: ManagedObjectModel
    /// The coordinator (Apple: `persistentStoreCoordinator`).
    public let coordinator: PersistentStoreCoordinator
    /// The stores to open, by ``loadPersistentStores()`` (Apple: `persistentStoreDescriptions`).
    public var storeDescriptions: [StoreDescription]

    /// The context for the app's main work, on the main queue (Apple: `viewContext`): use it on
    /// the main actor, or through its perform blocks.
    public private(set) lazy var viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)

    /// A new private-queue context on the container's coordinator (Apple:
    /// `newBackgroundContext()`): use it inside its perform blocks.
    ///
    /// - Returns: The context; each call makes a new one.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    /// Runs a block on a new private-queue context and returns at once (Apple:
    /// `performBackgroundTask(_:)`).
    ///
    /// - Parameter block: The work; it receives the context, which goes away after it.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        newBackgroundContext().perform(block)
    }

    /// Runs a block on a new private-queue context and waits for its value or its error
    /// (Apple: `performBackgroundTask(_:) async`).
    ///
    /// ```swift
    /// let ids = try await container.performBackgroundTask { context in
    ///     let stand = try context.insertNewObject(forEntityNamed: "Stand")
    ///     try context.save()
    ///     return [stand.objectID]
    /// }
    /// let stand = try container.viewContext.object(with: ids[0])   // on the main actor
    /// ```
    ///
    /// - Parameter block: The work; it receives the context. Return object IDs, not objects.
    /// - Returns: The block's value.
    /// - Throws: The block's error.
    nonisolated(nonsending)
    public func performBackgroundTask<Value: Sendable, Failure: Error>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await newBackgroundContext().perform(schedule: .enqueued, block)
    }

    /// Creates a container for a model; its stores are opened by ``loadPersistentStores()``.
    ///
    /// - Parameters:
    ///   - name: The container's name.
    ///   - model: The model.
    public init(name: String, model: ManagedObjectModel) {
        SQLitePersistentStore.registerStoreType()
        self.name = name
        self.model = model
        self.coordinator = PersistentStoreCoordinator(model: model)
        let url = Self.defaultDirectoryURL(name: name).appendingPathComponent("\(name).sqlite")
        self.storeDescriptions = [StoreDescription(type: SQLitePersistentStore.type, url: url)]
    }

    /// Creates a container with the model in an Xcode data model file (Apple:
    /// `NSPersistentContainer(name:managedObjectModel:)` with a model from a file).
    ///
    /// - Parameters:
    ///   - name: The container's name.
    ///   - modelURL: A `.xcdatamodeld` or `.xcdatamodel` folder.
    /// - Throws: ``ManagedObjectModelError`` when the model does not load.
    public convenience init(name: String, modelURL: URL) throws {
        self.init(name: name, model: try ManagedObjectModel(contentsOf: modelURL))
    }

    /// Opens every store of ``storeDescriptions`` (Apple: `loadPersistentStores(completionHandler:)`).
    ///
    /// - Throws: The first store's error; stores opened before it stay open.
    public func loadPersistentStores() throws {
        try checkName()
        for description in storeDescriptions {
            if let url = description.url, url.isFileURL {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            try coordinator.addStore(with: description)
        }
    }

    /// Opens every store, reporting each outcome to `handler` in the manner of Apple's
    /// completion handler (`nil` error on success).
    public func loadPersistentStores(_ handler: (StoreDescription, (any Error)?) -> Void) {
        for description in storeDescriptions {
            do {
                try checkName()
                if let url = description.url, url.isFileURL {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try coordinator.addStore(with: description)
                handler(description, nil)
            } catch {
                handler(description, error)
            }
        }
    }

    /// The name makes a file and a folder name: it must be one path component.
    private func checkName() throws {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0") {
            throw SQLiteStoreError(.unsupported("the container name '\(name)' cannot name a store file (it must be one non-empty path component)"),
                                   path: name)
        }
    }

    /// The folder default stores go in (Apple: `defaultDirectoryURL()`): on Linux
    /// `$XDG_DATA_HOME/<name>`, or `~/.local/share/<name>`; on Apple platforms the Application
    /// Support folder.
    ///
    /// - Parameter name: The container's name.
    public static func defaultDirectoryURL(name: String) -> URL {
        defaultDirectoryURL(name: name, environment: ProcessInfo.processInfo.environment)
    }

    package static func defaultDirectoryURL(name: String, environment: [String: String]) -> URL {
        #if os(Linux)
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local", isDirectory: true).appendingPathComponent("share", isDirectory: true)
        }
        return base.appendingPathComponent(name, isDirectory: true)
        #else
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent(name, isDirectory: true)
        #endif
    }
}
