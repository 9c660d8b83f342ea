// A store shared with other processes that can keep their saves out while a context resolves
// optimistic-locking conflicts and writes again.

/// A store whose rows other processes (or other coordinators) also write, and that can keep
/// their saves out for a while (the PostgreSQL store, with an advisory lock on the server).
///
/// A context whose save met optimistic-locking conflicts in such a store reads the stores'
/// rows, lets its merge policy resolve them and writes again inside
/// ``withOtherSavesExcluded(_:)``: the rows it read cannot change before its write, so a
/// resolving policy (``MergePolicy/overwrite``, ``MergePolicy/mergeByPropertyObjectTrump``…)
/// does not lose the race to another process however busy the rows are, as Core Data's
/// SQLite store resolves while it holds the database's write lock.
package protocol ExclusiveResolutionStore: PersistentStore {
    /// Runs `body` while the saves of every other user of the store wait (this store's own
    /// saves, made by `body`, go ahead).
    ///
    /// - Parameter body: The resolution and the writes.
    /// - Throws: What `body` throws, or the store's error when it cannot keep the others out.
    func withOtherSavesExcluded(_ body: () throws -> Void) throws
}
