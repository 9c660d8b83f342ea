// Keeping other users' saves out while a context resolves its conflicts and writes again.
import ManagedObjects

extension PostgreSQLPersistentStore: ExclusiveResolutionStore {
    /// The saves' lock of the connection's schema, taken in shared mode by every save's
    /// transaction (saves go ahead side by side).
    static let sharingSavesSQL = "SELECT pg_advisory_xact_lock_shared(7019021, hashtext(current_schema()))"
    /// The same lock in exclusive mode: it waits for the saves under way, and the later ones
    /// wait for it.
    static let excludingSavesSQL = "SELECT pg_advisory_xact_lock(7019021, hashtext(current_schema()))"

    /// Runs `body` (a context's conflict resolution and its writes) while the saves of other
    /// processes and other coordinators on the store's schema wait, so the rows the resolution
    /// read cannot change before the write: a resolving merge policy does not lose the race
    /// however busy the rows are.
    ///
    /// A connection of the pool holds the saves' lock in exclusive mode in a transaction of its
    /// own, which ends (and frees the lock) when `body` returns; this store's own saves, made
    /// by `body` on the pool's other connections, do not wait for it. With a pool of one
    /// connection nothing is kept out (`body`'s saves would wait for that connection), nor
    /// again while this store already keeps the others out (a nested save). Should
    /// the lock's connection be lost, the lock is gone and `body` goes on as without it (a
    /// conflict is then met again and resolved in another round).
    ///
    /// - Throws: What `body` throws; ``PostgreSQLStoreError`` when the lock cannot be taken
    ///   (no connection, the statement timeout).
    package func withOtherSavesExcluded(_ body: () throws -> Void) throws {
        // Already kept out by this store (a merge policy saving during a resolution): a second
        // lock, on another connection, would wait for the first forever.
        guard pool.configuration.poolSize > 1, excludingOtherSaves.load(ordering: .sequentiallyConsistent) == 0 else {
            return try body()
        }
        try pool.withConnection(retrying: false) { connection in
            try connection.execute("BEGIN")
            // The transaction writes nothing: it ends with a rollback, and the lock with it.
            defer { if connection.isConnected { _ = try? connection.execute("ROLLBACK") } }
            try connection.execute(Self.excludingSavesSQL)
            excludingOtherSaves.add(1, ordering: .sequentiallyConsistent)
            defer { excludingOtherSaves.subtract(1, ordering: .sequentiallyConsistent) }
            try body()
        }
    }
}
