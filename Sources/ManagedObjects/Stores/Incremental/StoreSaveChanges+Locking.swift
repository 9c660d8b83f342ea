// Optimistic locking for any store: compare the versions a save expects with the store's.
import Foundation

extension StoreSaveChanges {
    /// The optimistic-locking conflicts of this save: every updated, deleted or locked object
    /// whose row is no longer at the version the context last saw (moved on, or gone).
    ///
    /// An updated or locked object whose row the store does not have is always a conflict,
    /// whatever version the context expects: a change to an object reached by its ID alone
    /// (`object(with:)`, version 0) whose row never existed or is gone must not be taken for
    /// a match and written nowhere. (Deleting such an object loses nothing: no conflict.)
    ///
    /// A store calls it inside its write lock, before writing anything, and throws
    /// ``StoreSaveError/conflicts(_:)`` when the list is not empty; the context turns that
    /// into its merge-policy handling, as for the built-in stores.
    ///
    /// ```swift
    /// let conflicts = changes.conflicts { id in rows[id]?.version }
    /// guard conflicts.isEmpty else { throw StoreSaveError.conflicts(conflicts) }
    /// ```
    ///
    /// - Parameter currentVersion: The version of an object's row in the store now, or `nil`
    ///   when the store no longer has it.
    /// - Returns: The conflicts, in the order updated, deleted, locked.
    /// - Throws: What `currentVersion` throws.
    /// - Complexity: O(*n*) calls of `currentVersion`.
    public func conflicts(currentVersion: (ManagedObjectID) throws -> Int64?) rethrows -> [StoreConflict] {
        var conflicts: [StoreConflict] = []
        func check(_ id: ManagedObjectID, _ expected: Int64, missingMatchesNone: Bool) throws {
            let found = try currentVersion(id)
            let current = found ?? 0
            if current != expected || (found == nil && missingMatchesNone) {
                conflicts.append(StoreConflict(objectID: id, expectedVersion: expected, storeVersion: current))
            }
        }
        for row in updated { try check(row.objectID, row.version, missingMatchesNone: true) }
        for (id, version) in deleted { try check(id, version, missingMatchesNone: false) }
        for (id, version) in locked { try check(id, version, missingMatchesNone: true) }
        return conflicts
    }
}
