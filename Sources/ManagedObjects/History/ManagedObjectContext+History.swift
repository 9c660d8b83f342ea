// A context's side of persistent history: running history requests and merging transactions.
import Foundation

extension ManagedObjectContext {
    /// Posted with the IDs of a save's objects, and the name of the notifications
    /// ``PersistentHistoryTransaction/objectIDNotification()`` makes (Apple:
    /// `NSManagedObjectContextDidSaveObjectIDs`). The user info holds `Set<ManagedObjectID>`
    /// values under ``ChangeKey/insertedObjectIDs``, ``ChangeKey/updatedObjectIDs`` and
    /// ``ChangeKey/deletedObjectIDs``.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")

    /// Runs a persistent-history request on the context's coordinator (Apple: `execute(_:)`
    /// with an `NSPersistentHistoryChangeRequest`): the token's store for a token request,
    /// otherwise every store that records history, oldest transaction first.
    ///
    /// ```swift
    /// let transactions = try context.execute(.fetchHistory(after: lastToken)).transactions
    /// context.mergeChanges(fromHistory: transactions)
    /// ```
    ///
    /// - Parameter request: The request.
    /// - Returns: Transactions, changes, a count, or how many transactions a delete removed.
    /// - Throws: ``PersistentHistoryError`` (``PersistentHistoryError/noHistoryStore`` for a
    ///   context without a coordinator or without a store that records history; a token of a
    ///   store the coordinator does not have; an expired token), or the store's errors.
    /// - Important: Thread safety: the request goes to the stores, which synchronise
    ///   themselves; it reads nothing of the context but its coordinator.
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        guard let coordinator = coordinator ?? rootCoordinator else { throw PersistentHistoryError.noHistoryStore }
        return try coordinator.execute(request)
    }

    /// Brings history transactions into the context, as saves made elsewhere (Apple: merging
    /// each transaction's `objectIDNotification()` with `mergeChanges(fromContextDidSave:)`).
    ///
    /// The coordinator's cached rows of the named objects are dropped; registered objects that
    /// were updated are refreshed keeping their unsaved changes, inserted ones are faulted in
    /// and reported as inserted, deleted ones leave the context; one objects-did-change
    /// notification follows, so fetched results controllers update. Transactions of stores
    /// the context's coordinator does not hold change nothing.
    ///
    /// - Parameter transactions: Transactions fetched with their changes, oldest first.
    /// - Complexity: O(*n*) in the number of changes.
    public func mergeChanges(fromHistory transactions: [PersistentHistoryTransaction]) {
        var combined = SaveResult()
        for transaction in transactions {
            for change in transaction.changes {
                let id = change.changedObjectID
                switch change.changeType {
                case .insert:
                    combined.insertedObjectIDs.insert(id)
                    combined.deletedObjectIDs.remove(id)
                case .update:
                    if !combined.insertedObjectIDs.contains(id) { combined.updatedObjectIDs.insert(id) }
                case .delete:
                    // An object inserted and deleted in the batch never reaches the context.
                    if combined.insertedObjectIDs.remove(id) == nil { combined.deletedObjectIDs.insert(id) }
                    combined.updatedObjectIDs.remove(id)
                }
            }
        }
        Self.mergeChanges(fromRemoteSave: combined, into: [self])
    }

    /// The coordinator at the root of a child context's parents.
    private var rootCoordinator: PersistentStoreCoordinator? {
        var context = parent
        while let current = context {
            if let coordinator = current.coordinator { return coordinator }
            context = current.parent
        }
        return nil
    }
}
