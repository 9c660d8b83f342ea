// The "SQLite" store type, for store descriptions and containers.
import Foundation
import ManagedObjects
import ObjectGraphInternals

extension SQLitePersistentStore {
    /// Registers the `"SQLite"` store type with the coordinator's registry, so that
    /// ``StoreDescription``s of that type open an ``SQLitePersistentStore`` at their URL (Apple
    /// registers its SQLite store from the start). Containers call it; calling it again does
    /// nothing new.
    ///
    /// Description options understood: `"evaluatesPredicatesInSQL"` = `"YES"`,
    /// ``StoreDescription/newStoreUUIDOption`` (the UUID of a file created by the store),
    /// ``StoreDescription/persistentHistoryTrackingKey`` and
    /// ``StoreDescription/remoteChangeNotificationPostOptionKey``.
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type) { description in
            guard let url = description.url else { throw SQLiteStoreError(.unsupported("an SQLite store description needs a URL"), path: "") }
            let inSQL = description.options["evaluatesPredicatesInSQL"].map { $0 == "YES" || $0 == "1" } ?? false
            let store = SQLitePersistentStore(url: url, evaluatesPredicatesInSQL: inSQL,
                                              tracksPersistentHistory: description.tracksPersistentHistory,
                                              postsRemoteChangeNotifications: description.postsRemoteChangeNotifications)
            // The UUID a new file gets (a migration keeps the old store's).
            if let uuid = description.options[StoreDescription.newStoreUUIDOption], UUID(uuidString: uuid) != nil {
                store.state.withTrackedLock(store) { $0.identifier = uuid }
            }
            return store
        }
    }
}

extension StoreDescription {
    /// A description of an SQLite store at `url` (registering the type).
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - configuration: The model configuration it holds, or `nil` for every entity.
    public static func sqlite(at url: URL, configuration: String? = nil) -> StoreDescription {
        SQLitePersistentStore.registerStoreType()
        return StoreDescription(type: SQLitePersistentStore.type, url: url, configuration: configuration)
    }
}
