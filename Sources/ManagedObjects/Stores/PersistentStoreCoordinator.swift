// The coordinator: one model, the stores that hold its objects, and the way from an entity or an
// object ID to its store.
import Foundation
import ObjectGraphInternals
import Synchronization

/// The link between contexts and stores: it holds the model and the stores, and routes each
/// entity's fetches and saves to the store that holds it (Apple:
/// `NSPersistentStoreCoordinator`).
///
/// Creating a coordinator puts its model in use: from then on the model cannot change
/// (``ManagedObjectModel/isEditable`` is `false`).
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(model: model)
/// try coordinator.addStore(InMemoryStore())
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
///
/// - Important: Thread safety: `Sendable`; the store list takes a lock. Stores synchronise
///   themselves. The saves of the coordinator's contexts take turns (one lock from the first
///   write attempt until the conflicts are resolved and the rows written), so that a merge
///   policy's resolution is never overtaken by another of these contexts.
public final class PersistentStoreCoordinator: Sendable {
    /// The model (Apple: `managedObjectModel`).
    public let model: ManagedObjectModel

    private struct Entry: Sendable {
        let store: any PersistentStore
        let configuration: String?
        let entities: Set<String>
    }
    private let entries = Mutex<[Entry]>([])
    /// The contexts on this coordinator (not children) that merge each other's saves
    /// (``ManagedObjectContext/automaticallyMergesChangesFromParent``).
    package let autoMergingContexts = ContextRegistry()
    /// The last rows read or saved by the coordinator's contexts (see ``RowCache``).
    package let rowCache = RowCache()
    /// Held by a context's save from its first write attempt until its conflicts are resolved
    /// and its rows written (``ManagedObjectContext/writeResolvingConflicts(storeOf:coordinator:sortedInserted:)``):
    /// saves through one coordinator take turns, so a save whose merge policy resolved its
    /// conflicts writes before another context of the coordinator can change the rows again
    /// (Apple's coordinator serialises its requests likewise). Recursive: a merge policy may
    /// save on the same thread.
    package let saveLock = NSRecursiveLock()
    /// Counts the saves and `obtainPermanentIDs(for:)` calls of the coordinator's contexts that
    /// gave objects permanent IDs (after the contexts recorded them): a child context whose
    /// objects are known by temporary IDs re-keys them only when it has moved on.
    package let permanentIDGeneration = Atomic<Int>(0)
    /// The handlers of ``onRemoteChange(_:)``, by the identity of their registration.
    package let remoteChangeObservers = Mutex<[(token: ObjectIdentifier, handler: RemoteChangeHandler)]>([])

    /// Creates a coordinator for a model and marks the model in use.
    ///
    /// - Parameter model: The model; it can no longer change afterwards.
    public init(model: ManagedObjectModel) {
        self.model = model
        model.markInUse()
    }

    /// Loads a store and adds it (Apple: `addPersistentStore(type:configuration:at:options:)`).
    ///
    /// A store can be added once: the same store again, a store on a file already added (by
    /// whatever path: symbolic links and `..` are resolved), or a store whose identifier (the
    /// UUID in its metadata) an added store has, as a copy of its file does, is refused.
    /// Apple's coordinator refuses the same store file twice as well.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - configuration: The model configuration whose entities the store holds; `nil` for
    ///     every entity.
    /// - Throws: ``ManagedObjectContextError/unknownConfiguration(_:)``;
    ///   ``StoreManagementError/storeAlreadyAdded(_:)`` naming the file (checked before the
    ///   store is loaded) or the identifier (checked after); the store's error from loading.
    public func addStore(_ store: any PersistentStore, configuration: String? = nil) throws {
        guard let members = model.entities(forConfiguration: configuration) else {
            throw ManagedObjectContextError.unknownConfiguration(configuration ?? "")
        }
        try entries.withTrackedLock(self) { try Self.checkNotAdded(store, loaded: false, among: $0) }
        try store.load(for: model)
        let entry = Entry(store: store, configuration: configuration, entities: Set(members.map(\.name)))
        try entries.withTrackedLock(self) {
            try Self.checkNotAdded(store, loaded: true, among: $0)
            $0.append(entry)
        }
        startRemoteChanges(of: store)
    }

    /// Throws ``StoreManagementError/storeAlreadyAdded(_:)`` when `store` is among `entries`,
    /// or one of them is on the same file; once `loaded`, also when one has its identifier.
    private static func checkNotAdded(_ store: any PersistentStore, loaded: Bool, among entries: [Entry]) throws {
        let file = (store as? any StoreFileLocating).map { Self.resolvedPath(of: $0.storeFileURL) }
        for entry in entries {
            let other = entry.store
            if other === store { throw StoreManagementError.storeAlreadyAdded(file ?? "the store \(store.identifier)") }
            if let file, let otherFile = (other as? any StoreFileLocating).map({ Self.resolvedPath(of: $0.storeFileURL) }),
               file == otherFile {
                throw StoreManagementError.storeAlreadyAdded(file)
            }
            if loaded, other.identifier == store.identifier {
                throw StoreManagementError.storeAlreadyAdded("the store \(store.identifier)" + (file.map { " (\($0))" } ?? ""))
            }
        }
    }

    /// A file's path with `.`, `..` and symbolic links resolved (those of its folder when the
    /// file does not exist yet).
    package static func resolvedPath(of url: URL) -> String {
        let standard = url.standardizedFileURL
        if FileManager.default.fileExists(atPath: standard.path) { return standard.resolvingSymlinksInPath().path }
        let folder = standard.deletingLastPathComponent().resolvingSymlinksInPath()
        return folder.appendingPathComponent(standard.lastPathComponent).path
    }

    /// Removes a store (Apple: `remove(_:)`). Its objects become unreachable.
    public func removeStore(_ store: any PersistentStore) {
        entries.withTrackedLock(self) { $0.removeAll { $0.store === store } }
        stopRemoteChanges(of: store)
    }

    /// The stores, in the order they were added (Apple: `persistentStores`).
    public var stores: [any PersistentStore] { entries.withTrackedLock(self) { $0.map(\.store) } }

    /// The store with `identifier`, or `nil`.
    public func store(withIdentifier identifier: String) -> (any PersistentStore)? {
        entries.withTrackedLock(self) { $0.first { $0.store.identifier == identifier }?.store }
    }

    /// The first store whose configuration holds `entityName`, where new objects of the entity
    /// are saved (Apple: the first store that can hold the entity).
    public func store(forEntityNamed entityName: String) -> (any PersistentStore)? {
        entries.withTrackedLock(self) { $0.first { $0.entities.contains(entityName) }?.store }
    }

    /// The configuration a store was added with (`nil`: every entity).
    package func configuration(of store: any PersistentStore) -> String? {
        entries.withTrackedLock(self) { $0.first { $0.store === store }?.configuration }
    }

    /// Every store holding `entityName`.
    package func stores(forEntityNamed entityName: String) -> [any PersistentStore] {
        entries.withTrackedLock(self) { $0.filter { $0.entities.contains(entityName) }.map(\.store) }
    }

    /// The ID a URI stands for, if it names a store of this coordinator and an entity of the
    /// model (Apple: `managedObjectID(forURIRepresentation:)`).
    ///
    /// - Parameter uri: A URI from ``ManagedObjectID/uriRepresentation()``.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), model.entity(named: id.entityName) != nil else { return nil }
        if id.isTemporaryID { return id }
        guard let storeID = id.storeIdentifier, store(withIdentifier: storeID) != nil else { return nil }
        return id
    }

    /// The metadata of a store of this coordinator (Apple: `metadata(for:)`).
    public func metadata(for store: any PersistentStore) -> [String: any Sendable] { store.metadata }
}

/// A store kept in one file, which a coordinator holds once (``PersistentStoreCoordinator/addStore(_:configuration:)``).
package protocol StoreFileLocating {
    /// The store file.
    var storeFileURL: URL { get }
}

extension AtomicFileStore: StoreFileLocating {
    package var storeFileURL: URL { url }
}
