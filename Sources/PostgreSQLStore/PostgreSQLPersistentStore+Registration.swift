// The "PostgreSQL" store type, for store descriptions and containers.
import Foundation
import ManagedObjects

extension PostgreSQLPersistentStore {
    /// Registers the `"PostgreSQL"` store type with the coordinator's registry, so that
    /// ``StoreDescription``s of that type open a ``PostgreSQLPersistentStore`` at their URL.
    /// Calling it again does nothing new.
    ///
    /// Description options understood: `"schema"`, the PostgreSQL schema to keep the tables in;
    /// ``StoreDescription/persistentHistoryTrackingKey`` and
    /// ``StoreDescription/remoteChangeNotificationPostOptionKey`` (history and fan-out).
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type) { description in
            guard let url = description.url else {
                throw PostgreSQLStoreError(.unsupported("a PostgreSQL store description needs a connection URL"), server: "(none)")
            }
            return PostgreSQLPersistentStore(url: url.absoluteString, schema: description.options["schema"],
                                             tracksPersistentHistory: description.tracksPersistentHistory,
                                             postsRemoteChangeNotifications: description.postsRemoteChangeNotifications)
        }
    }
}

extension StoreDescription {
    /// A description of a PostgreSQL store (registering the type).
    ///
    /// - Parameters:
    ///   - url: The connection URL (`postgresql://user@host/database`).
    ///   - schema: The PostgreSQL schema for the tables, or `nil` for the default.
    ///   - configuration: The model configuration it holds, or `nil` for every entity.
    public static func postgreSQL(at url: URL, schema: String? = nil, configuration: String? = nil) -> StoreDescription {
        PostgreSQLPersistentStore.registerStoreType()
        var description = StoreDescription(type: PostgreSQLPersistentStore.type, url: url, configuration: configuration)
        if let schema { description.options["schema"] = schema }
        return description
    }
}
