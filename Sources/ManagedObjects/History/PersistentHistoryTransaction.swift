// One save as the persistent history keeps it: who, when, and what changed.
import Foundation
import Predicates

/// One save recorded in a store's persistent history: when it happened, who made it, and the
/// objects it inserted, updated and deleted (Apple: `NSPersistentHistoryTransaction`).
///
/// Fetch transactions with ``PersistentHistoryChangeRequest`` and bring them into a context
/// with ``objectIDNotification()`` and
/// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` (or
/// ``ManagedObjectContext/mergeChanges(fromHistory:)``): the named objects are refreshed,
/// faulted in or removed, and fetched results controllers update.
///
/// - Important: Thread safety: a `Sendable` value.
public struct PersistentHistoryTransaction: Sendable, Hashable {
    /// The transaction's number in its store, growing with every transaction (Apple:
    /// `transactionNumber`; `ATRANSACTION.Z_PK` in an SQLite store).
    public var transactionNumber: Int64
    /// When the save was written (Apple: `timestamp`).
    public var timestamp: Date
    /// The UUID of the store the save was written to (Apple: `storeID`).
    public var storeIdentifier: String
    /// The saving context's ``ManagedObjectContext/transactionAuthor`` (Apple: `author`).
    public var author: String?
    /// The saving context's ``ManagedObjectContext/name`` (Apple: `contextName`).
    public var contextName: String?
    /// The name of the process that saved (Apple: `processID`, which holds the process name).
    public var processIdentifier: String?
    /// The bundle identifier of the app that saved, where there is one (Apple: `bundleID`);
    /// usually `nil` on Linux.
    public var bundleIdentifier: String?
    /// The objects the save inserted, updated and deleted, in the order the store recorded
    /// them; empty when the request asked for transactions only (Apple: `changes`).
    public var changes: [PersistentHistoryChange]

    /// Creates a transaction.
    ///
    /// - Parameters:
    ///   - transactionNumber: The transaction's number in its store.
    ///   - timestamp: When it was written.
    ///   - storeIdentifier: The store's UUID.
    ///   - author: The saving context's transaction author.
    ///   - contextName: The saving context's name.
    ///   - processIdentifier: The saving process's name.
    ///   - bundleIdentifier: The saving app's bundle identifier.
    ///   - changes: The changed objects.
    public init(transactionNumber: Int64, timestamp: Date, storeIdentifier: String, author: String? = nil,
                contextName: String? = nil, processIdentifier: String? = nil, bundleIdentifier: String? = nil,
                changes: [PersistentHistoryChange] = []) {
        self.transactionNumber = transactionNumber
        self.timestamp = timestamp
        self.storeIdentifier = storeIdentifier
        self.author = author
        self.contextName = contextName
        self.processIdentifier = processIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.changes = changes
    }

    /// The token of the store's state after this transaction (Apple: `token`).
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: transactionNumber)
    }

    /// The IDs of the inserted, updated and deleted objects, as a save reports them.
    public var saveResult: ManagedObjectContext.SaveResult {
        var result = ManagedObjectContext.SaveResult()
        for change in changes {
            switch change.changeType {
            case .insert: result.insertedObjectIDs.insert(change.changedObjectID)
            case .update: result.updatedObjectIDs.insert(change.changedObjectID)
            case .delete: result.deletedObjectIDs.insert(change.changedObjectID)
            }
        }
        return result
    }

    /// A did-save notification naming the transaction's objects by ID, for
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` (Apple:
    /// `objectIDNotification()`).
    ///
    /// Its name is ``ManagedObjectContext/didSaveObjectIDsNotification``, its object `nil`, and
    /// its user info holds `Set<ManagedObjectID>` values under
    /// ``ManagedObjectContext/ChangeKey/insertedObjectIDs``, ``ManagedObjectContext/ChangeKey/updatedObjectIDs``
    /// and ``ManagedObjectContext/ChangeKey/deletedObjectIDs``. A context merging it treats it as
    /// a save made elsewhere: its coordinator's cached rows of these objects are dropped first.
    ///
    /// - Returns: The notification (the transaction must have been fetched with its changes).
    public func objectIDNotification() -> Notification {
        let result = saveResult
        let info: [AnyHashable: Any] = [
            ManagedObjectContext.ChangeKey.insertedObjectIDs.rawValue: result.insertedObjectIDs,
            ManagedObjectContext.ChangeKey.updatedObjectIDs.rawValue: result.updatedObjectIDs,
            ManagedObjectContext.ChangeKey.deletedObjectIDs.rawValue: result.deletedObjectIDs,
        ]
        return Notification(name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: info)
    }
}

extension PersistentHistoryTransaction {
    /// The transaction a store records for a save: the save's author and context name, this
    /// process's name and bundle identifier, and one change per inserted row, per updated row
    /// (with ``StoreSaveChanges/updatedPropertyNames``) and per deleted object, in that order,
    /// numbered from `firstChangeIdentifier`.
    ///
    /// A store that adopts ``PersistentHistoryStore`` calls it inside its save, after it has
    /// chosen the transaction's number.
    ///
    /// ```swift
    /// let transaction = PersistentHistoryTransaction(recording: changes, transactionNumber: next,
    ///                                               firstChangeIdentifier: nextChange, storeIdentifier: identifier)
    /// ```
    ///
    /// - Parameters:
    ///   - changes: The save.
    ///   - transactionNumber: The transaction's number (greater than every earlier one).
    ///   - firstChangeIdentifier: The first change's number (greater than every earlier one).
    ///   - storeIdentifier: The store's UUID.
    ///   - timestamp: When the save is written; now by default.
    ///   - tombstones: The preserved values of deleted objects, by ID (see
    ///     ``PersistentHistoryChange/tombstone``).
    public init(recording changes: StoreSaveChanges, transactionNumber: Int64, firstChangeIdentifier: Int64,
                storeIdentifier: String, timestamp: Date = Date(), tombstones: [ManagedObjectID: [String: KeyValueConstant]] = [:]) {
        var list: [PersistentHistoryChange] = []
        list.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        var next = firstChangeIdentifier
        func add(_ id: ManagedObjectID, _ type: PersistentHistoryChange.ChangeType, _ names: Set<String>?,
                 _ tombstone: [String: KeyValueConstant]?) {
            list.append(PersistentHistoryChange(changeIdentifier: next, changedObjectID: id, changeType: type,
                                                updatedPropertyNames: names, tombstone: tombstone, transactionNumber: transactionNumber))
            next += 1
        }
        for row in changes.inserted { add(row.objectID, .insert, nil, nil) }
        for row in changes.updated { add(row.objectID, .update, changes.updatedPropertyNames[row.objectID], nil) }
        for (id, _) in changes.deleted { add(id, .delete, nil, tombstones[id]) }
        self.init(transactionNumber: transactionNumber, timestamp: timestamp, storeIdentifier: storeIdentifier,
                  author: changes.transactionAuthor, contextName: changes.contextName,
                  processIdentifier: PersistentHistoryTransaction.currentProcessName,
                  bundleIdentifier: PersistentHistoryTransaction.currentBundleIdentifier, changes: list)
    }

    /// This process's name, as recorded in the transactions it writes.
    public static var currentProcessName: String { ProcessInfo.processInfo.processName }

    /// This app's bundle identifier, as recorded in the transactions it writes, or `nil`.
    public static var currentBundleIdentifier: String? { Bundle.main.bundleIdentifier }
}
