// The "SQLite" store type, for store descriptions and containers.
import Foundation
import ManagedObjects
import ObjectGraphInternals

extension SQLitePersistentStore {
    /// Registers the `"SQLite"` store type with the coordinator's registry, so that
    /// ``StoreDescription``s of that type open an ``SQLitePersistentStore`` at their URL (Apple
    /// registers its SQLite store from the start). Containers and ``StoreDescription/sqlite(at:configuration:evaluatesPredicatesInSQL:)``
    /// call it, and the first ``SQLitePersistentStore`` made registers the type when nothing
    /// else has: call it yourself only when the first use of the type is by name
    /// (`PersistentStoreCoordinator.metadataForStore(at:type: "SQLite")` before any store).
    /// Calling it again does nothing new.
    ///
    /// Description options understood: ``evaluatesPredicatesInSQLOption``
    /// (`"evaluatesPredicatesInSQL"`; SQL evaluation is on unless the option says `"NO"`),
    /// ``StoreDescription/newStoreUUIDOption`` (the UUID of a file created by the store),
    /// ``StoreDescription/persistentHistoryTrackingKey`` and
    /// ``StoreDescription/remoteChangeNotificationPostOptionKey``.
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type, factory: factory)
    }

    /// Registers the type once, when the first store is made, unless an app registered its own
    /// factory for the name first.
    static let typeRegistration: Void = PersistentStoreCoordinator.registerStoreTypeUnlessRegistered(type, factory: factory)

    /// Makes a store for an `"SQLite"` description.
    static let factory: StoreFactory = { description in
        guard let url = description.url else { throw SQLiteStoreError(.unsupported("an SQLite store description needs a URL"), path: "") }
        let inSQL = predicatesInSQL(option: description.options[evaluatesPredicatesInSQLOption])
        let store = SQLitePersistentStore(url: url, evaluatesPredicatesInSQL: inSQL,
                                          tracksPersistentHistory: description.tracksPersistentHistory,
                                          postsRemoteChangeNotifications: description.postsRemoteChangeNotifications)
        // The UUID a new file gets (a migration keeps the old store's).
        if let uuid = description.options[StoreDescription.newStoreUUIDOption], UUID(uuidString: uuid) != nil {
            store.state.withTrackedLock(store) { $0.identifier = uuid }
        }
        return store
    }

    /// The store-description option that turns SQL evaluation of predicates off (`"NO"`,
    /// `"0"` or `"false"`) or on (anything else, and the default, as for
    /// ``init(url:evaluatesPredicatesInSQL:tracksPersistentHistory:postsRemoteChangeNotifications:remoteChangeCheckInterval:)``).
    public static let evaluatesPredicatesInSQLOption = "evaluatesPredicatesInSQL"

    /// The value of ``evaluatesPredicatesInSQLOption``: `true` unless it says no.
    static func predicatesInSQL(option: String?) -> Bool {
        guard let option else { return true }
        return !["NO", "0", "FALSE"].contains(option.trimmingCharacters(in: .whitespaces).uppercased())
    }
}

extension StoreDescription {
    /// A description of an SQLite store at `url` (registering the type).
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - configuration: The model configuration it holds, or `nil` for every entity.
    ///   - evaluatesPredicatesInSQL: Whether fetches compile predicates to SQL (the default,
    ///     as for ``SQLitePersistentStore``); `false` sets
    ///     ``SQLitePersistentStore/evaluatesPredicatesInSQLOption`` to `"NO"`.
    public static func sqlite(at url: URL, configuration: String? = nil, evaluatesPredicatesInSQL: Bool = true) -> StoreDescription {
        SQLitePersistentStore.registerStoreType()
        var description = StoreDescription(type: SQLitePersistentStore.type, url: url, configuration: configuration)
        if !evaluatesPredicatesInSQL { description.options[SQLitePersistentStore.evaluatesPredicatesInSQLOption] = "NO" }
        return description
    }
}
