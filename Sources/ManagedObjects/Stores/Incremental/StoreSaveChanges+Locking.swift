// Optimistic locking for any store: compare the versions a save expects with the store's.
import Foundation

extension StoreSaveChanges {
    /// The optimistic-locking conflicts of this save: every updated, deleted or locked object
    /// whose row is no longer at the version the context last saw (moved on, or gone).
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
        func check(_ id: ManagedObjectID, _ expected: Int64) throws {
            let current = try currentVersion(id) ?? 0
            if current != expected {
                conflicts.append(StoreConflict(objectID: id, expectedVersion: expected, storeVersion: current))
            }
        }
        for row in updated { try check(row.objectID, row.version) }
        for (id, version) in deleted { try check(id, version) }
        for (id, version) in locked { try check(id, version) }
        return conflicts
    }
}
