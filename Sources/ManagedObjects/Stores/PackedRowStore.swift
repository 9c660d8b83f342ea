// Stores that take the rows of saved objects packed (StoreRowColumns) from a saving context.
import Foundation

/// A store that takes the inserted and updated rows of a save packed (``StoreRowColumns``),
/// in a shape it names per entity, when the saving context can make them.
///
/// A context hands a store that does not conform dictionary rows, as always; one that
/// conforms gets packed rows for the objects of entities whose shape it names and whose saved
/// attributes are all of types whose constants give back exactly the value (strings,
/// integers, doubles, booleans, dates), and dictionary rows for the rest. Such a store must
/// read every row through ``StoreRow/attributes`` or ``StoreRow/attributeValue(named:)`` or,
/// for a row of its own shape, by position.
///
/// - Important: Thread safety: called from the saving context's thread; the store answers
///   under its own lock.
package protocol PackedRowStore: PersistentStore {
    /// The shape of the packed rows of the entity named `entityName` the store takes (the same
    /// instance each time, so that the store can recognise its rows by identity), or `nil`
    /// when it takes dictionary rows for that entity.
    ///
    /// - Parameter entityName: An entity of the store's model.
    /// - Returns: The shape, or `nil`.
    func packedRowShape(forEntityNamed entityName: String) -> StoreRowShape?
}

/// The new versions of a save's rows, as a store that gives every new row the same version
/// reports them: one number for the new rows; for the changed ones a dictionary, or nothing
/// when each changed row's new version is the one it was saved with plus one.
package struct SavedRowVersions: Sendable {
    /// The version of every inserted row.
    package var inserted: Int64
    /// The new version of each updated row; `nil` when each is the updated row's
    /// ``StoreRow/version`` plus one (no dictionary entry and no look-up per row).
    package var updated: [ManagedObjectID: Int64]?

    /// The versions of a save.
    package init(inserted: Int64, updated: [ManagedObjectID: Int64]?) {
        self.inserted = inserted
        self.updated = updated
    }

    /// The versions as ``PersistentStore/save(_:)`` answers them: every new row's and every
    /// updated row's, by object.
    package func dictionary(for changes: StoreSaveChanges) -> [ManagedObjectID: Int64] {
        var versions: [ManagedObjectID: Int64] = [:]
        versions.reserveCapacity(changes.inserted.count + changes.updated.count)
        for row in changes.inserted { versions[row.objectID] = inserted }
        if let updated {
            for (id, version) in updated { versions[id] = version }
        } else {
            for row in changes.updated { versions[row.objectID] = row.version + 1 }
        }
        return versions
    }
}

/// A store whose save gives every inserted row one version and says so
/// (``SavedRowVersions``), so that a saving context and the coordinator's row cache set the
/// new rows' versions without a dictionary entry and a look-up per row.
///
/// The same save as ``PersistentStore/save(_:)``, whose dictionary holds
/// ``SavedRowVersions/inserted`` for every inserted row and the updated rows' versions.
///
/// - Important: Thread safety: as ``PersistentStore/save(_:)``.
package protocol UniformInsertVersionStore: PersistentStore {
    /// Saves `changes` as ``PersistentStore/save(_:)`` does.
    ///
    /// - Returns: The version of the new rows and those of the updated rows.
    /// - Throws: What ``PersistentStore/save(_:)`` throws.
    func saveReportingVersions(_ changes: StoreSaveChanges) throws -> SavedRowVersions

    /// ``saveReportingVersions(_:)``, where the store may keep the array of new rows itself
    /// rather than a copy of each row: on success `changes.inserted` holds the new rows with
    /// their new version (the same rows the store keeps, their array shared); on failure
    /// `changes` is as it was. The default saves a copy and leaves `changes` as it was.
    ///
    /// - Throws: What ``PersistentStore/save(_:)`` throws.
    func saveReportingVersions(sharingInserted changes: inout StoreSaveChanges) throws -> SavedRowVersions
}

extension UniformInsertVersionStore {
    package func saveReportingVersions(sharingInserted changes: inout StoreSaveChanges) throws -> SavedRowVersions {
        try saveReportingVersions(changes)
    }
}
