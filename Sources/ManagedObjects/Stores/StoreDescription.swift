// Store descriptions: what a container (or coordinator) opens, and the registry of store types.
import Foundation
import ObjectGraphInternals
import Synchronization

/// How to open a store: its type, location, model configuration and options
/// (Apple: `NSPersistentStoreDescription`).
///
/// ```swift
/// container.storeDescriptions = [.inMemory()]   // or StoreDescription(type: InMemoryStore.type)
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct StoreDescription: Sendable, Hashable {
    /// The store type's name: `"InMemory"`, `"SQLite"`, or one registered with
    /// ``PersistentStoreCoordinator/registerStoreType(_:factory:)``.
    public var type: String
    /// Where the store lives; `nil` for stores without a file (in-memory).
    public var url: URL?
    /// The model configuration whose entities the store holds; `nil` for all.
    public var configuration: String?
    /// Whether the store is opened read-only.
    public var isReadOnly: Bool
    /// Store options by name (Apple: `options`), as strings.
    public var options: [String: String]

    /// The option giving the UUID a store gets when this description creates it
    /// (`"NSStoreUUID"`); a store that exists keeps its own. Migration sets it, so that the
    /// migrated store keeps the UUID of the store it replaces (Apple keeps `NSStoreUUIDKey`
    /// across a lightweight migration) and object URIs saved before still resolve. The
    /// SQLite and atomic file stores honour it; Apple has no such option.
    public static let newStoreUUIDOption = "NSStoreUUID"

    /// Creates a description.
    ///
    /// - Parameters:
    ///   - type: The store type's name.
    ///   - url: The store's location, or `nil`.
    ///   - configuration: The configuration, or `nil` for every entity.
    public init(type: String, url: URL? = nil, configuration: String? = nil) {
        self.type = type
        self.url = url
        self.configuration = configuration
        self.isReadOnly = false
        self.options = [:]
    }

    /// A description of an in-memory store (Apple's pattern for tests and previews is a
    /// description of type `NSInMemoryStoreType`, or a URL of `/dev/null`).
    ///
    /// ```swift
    /// container.storeDescriptions = [.inMemory()]
    /// ```
    ///
    /// - Parameter configuration: The model configuration it holds, or `nil` for every entity.
    /// - Returns: A description of type ``InMemoryStore/type`` with no URL.
    public static func inMemory(configuration: String? = nil) -> StoreDescription {
        StoreDescription(type: InMemoryStore.type, configuration: configuration)
    }
}

/// Makes a store for a description.
public typealias StoreFactory = @Sendable (StoreDescription) throws -> any PersistentStore

extension PersistentStoreCoordinator {
    static let factories = Mutex<[String: StoreFactory]>([
        InMemoryStore.type: { _ in InMemoryStore() },
        AtomicFileStore.type: AtomicFileStore.factory,
    ])

    /// Registers a store type so that descriptions of that type open with `factory`
    /// (Apple: `registerStoreClass(_:type:)`). The in-memory and `"Binary"` (atomic file) types
    /// are registered from the start;
    /// registering a type again replaces its factory.
    ///
    /// - Parameters:
    ///   - type: The type's name.
    ///   - factory: Makes a store (unloaded) for a description.
    public static func registerStoreType(_ type: String, factory: @escaping StoreFactory) {
        factories.withTrackedLock(ThreadSanitizer.staticOwner) { $0[type] = factory }
    }

    /// Registers `type` with `factory` unless a factory is registered for it already: a store
    /// module's own type, registered when its first store is made (an app's own factory for
    /// that name stays).
    package static func registerStoreTypeUnlessRegistered(_ type: String, factory: @escaping StoreFactory) {
        factories.withTrackedLock(ThreadSanitizer.staticOwner) { factories in
            if factories[type] == nil { factories[type] = factory }
        }
    }

    /// The registered store type names, sorted.
    public static var registeredStoreTypes: [String] { factories.withTrackedLock(ThreadSanitizer.staticOwner) { $0.keys.sorted() } }

    /// Opens the store a description names and adds it (Apple:
    /// `addPersistentStore(with:completionHandler:)`).
    ///
    /// - Parameter description: The store's description.
    /// - Returns: The loaded store.
    /// - Throws: ``ManagedObjectContextError/unknownStoreType(_:)`` for a type nobody
    ///   registered, or the store's error.
    @discardableResult
    public func addStore(with description: StoreDescription) throws -> any PersistentStore {
        guard let factory = Self.factories.withTrackedLock(ThreadSanitizer.staticOwner, { $0[description.type] }) else {
            throw ManagedObjectContextError.unknownStoreType(description.type)
        }
        let store = try factory(description)
        try addStore(store, configuration: description.configuration)
        return store
    }
}
