// The "PostgreSQL" store type, for store descriptions and containers.
import Foundation
import ManagedObjects

extension PostgreSQLPersistentStore {
    /// Registers the `"PostgreSQL"` store type with the coordinator's registry, so that
    /// ``StoreDescription``s of that type open a ``PostgreSQLPersistentStore`` at their URL.
    /// Calling it again does nothing new.
    ///
    /// Description options understood: `"schema"`, the PostgreSQL schema to keep the tables in;
    /// `"pool_size"`; `"connect_timeout"` (seconds) and `"statement_timeout"` (milliseconds);
    /// and libpq's TLS keywords `"sslmode"`, `"sslrootcert"`, `"sslcert"`, `"sslkey"`,
    /// `"sslcrl"` (see ``PostgreSQLStoreOptions``);

    /// ``StoreDescription/persistentHistoryTrackingKey`` and
    /// ``StoreDescription/remoteChangeNotificationPostOptionKey`` (history and fan-out).
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(type) { description in
            guard let url = description.url else {
                throw PostgreSQLStoreError(.unsupported("a PostgreSQL store description needs a connection URL"), server: "(none)")
            }
            return PostgreSQLPersistentStore(url: url.absoluteString, schema: description.options["schema"],
                                             options: options(of: description),
                                             tracksPersistentHistory: description.tracksPersistentHistory,
                                             postsRemoteChangeNotifications: description.postsRemoteChangeNotifications)
        }
    }

    /// The connection options a description's options give.
    static func options(of description: StoreDescription) -> PostgreSQLStoreOptions {
        var options = PostgreSQLStoreOptions()
        options.poolSize = description.options["pool_size"].flatMap { Int($0) }
        options.connectTimeout = description.options["connect_timeout"].flatMap { Int64($0) }.map { .seconds($0) }
        options.statementTimeout = description.options["statement_timeout"].flatMap { Int64($0) }.map { .milliseconds($0) }
        for key in ["sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "sslpassword"] {
            if let value = description.options[key] { options.parameters[key] = value }
        }
        return options
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
