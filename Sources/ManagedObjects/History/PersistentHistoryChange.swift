// One object's change in a transaction of the persistent history.
import Foundation
import Predicates

/// One object inserted, updated or deleted by a transaction of a store's persistent history
/// (Apple: `NSPersistentHistoryChange`).
///
/// - Important: Thread safety: a `Sendable` value.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// What happened to the object (Apple: `NSPersistentHistoryChangeType`; the raw values are
    /// Apple's, and those of `ACHANGE.ZCHANGETYPE` in an SQLite store).
    public enum ChangeType: Int, Sendable, Hashable, Codable, CaseIterable {
        /// The object was inserted.
        case insert = 0
        /// Properties of the object changed (see ``PersistentHistoryChange/updatedPropertyNames``).
        case update = 1
        /// The object was deleted (see ``PersistentHistoryChange/tombstone``).
        case delete = 2
    }

    /// The change's number in its store, growing with every change (Apple: `changeID`).
    public var changeIdentifier: Int64
    /// The object (Apple: `changedObjectID`).
    public var changedObjectID: ManagedObjectID
    /// Insert, update or delete (Apple: `changeType`).
    public var changeType: ChangeType
    /// For an update, the names of the properties whose values changed; `nil` for an insert or
    /// a delete, and when the store cannot tell (Apple: `updatedProperties`, which holds the
    /// property descriptions).
    public var updatedPropertyNames: Set<String>?
    /// For a delete, the last values of the attributes the model marks
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by name (`nil` values
    /// absent); `nil` for inserts, updates, and deletes of entities without such attributes
    /// (Apple: `tombstone`).
    public var tombstone: [String: KeyValueConstant]?
    /// The number of the transaction the change belongs to (Apple: `transaction`, the
    /// transaction itself).
    public var transactionNumber: Int64

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - changeIdentifier: The change's number in its store.
    ///   - changedObjectID: The object.
    ///   - changeType: Insert, update or delete.
    ///   - updatedPropertyNames: The changed properties of an update.
    ///   - tombstone: The preserved values of a deleted object.
    ///   - transactionNumber: The transaction's number.
    public init(changeIdentifier: Int64, changedObjectID: ManagedObjectID, changeType: ChangeType,
                updatedPropertyNames: Set<String>? = nil, tombstone: [String: KeyValueConstant]? = nil,
                transactionNumber: Int64) {
        self.changeIdentifier = changeIdentifier
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.updatedPropertyNames = updatedPropertyNames
        self.tombstone = tombstone
        self.transactionNumber = transactionNumber
    }
}
