// Conflict detection for unchanged objects (optimistic locking on reads).
import Foundation

extension ManagedObjectContext {
    /// Marks an object so that the next save fails with a conflict if the object's row changed
    /// in its store since the context read it, even when the context did not change the
    /// object (Apple: `detectConflicts(for:)`). The store receives it among
    /// ``StoreSaveChanges/locked``. The mark ends with the next successful save.
    ///
    /// - Parameter object: A saved object registered in this context; others are ignored.
    public func detectConflicts(for object: ManagedObject) {
        guard object.managedObjectContext === self, !object.objectID.isTemporaryID else { return }
        conflictChecked.insert(object)
    }
}
