// The bookmark of a store's history: the number of the last transaction an app has seen.
import Foundation

/// A bookmark in a store's persistent history: the state of the store after one transaction
/// (Apple: `NSPersistentHistoryToken`).
///
/// Every save to a store that tracks history (see ``StoreDescription/tracksPersistentHistory``)
/// records a ``PersistentHistoryTransaction`` with a token. Keep the token of the last
/// transaction you processed, and ask for what came after it:
///
/// ```swift
/// let result = try context.execute(.fetchHistory(after: lastToken))
/// for transaction in result.transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
/// lastToken = result.transactions.last?.token ?? lastToken
/// let saved = try JSONEncoder().encode(lastToken)   // tokens are Codable: keep them across launches
/// ```
///
/// A token names its store (``storeIdentifier``, the store's UUID) and the transaction
/// (``transactionNumber``, which grows with every transaction of that store). Tokens of one
/// store compare by transaction number: a smaller token is older. Tokens of different stores
/// order by store identifier first, which says nothing about time.
///
/// - Important: Thread safety: a `Sendable` value.
public struct PersistentHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The UUID of the store whose history this is (its ``PersistentStore/identifier``).
    public var storeIdentifier: String
    /// The number of the transaction after which the token stands; 0 before the first one.
    public var transactionNumber: Int64

    /// Creates a token.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The store's UUID.
    ///   - transactionNumber: The transaction's number (`ATRANSACTION.Z_PK` in an SQLite store).
    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    /// Whether `lhs` comes before `rhs`: by transaction number within one store; across
    /// stores, by store identifier first.
    ///
    /// - Parameters:
    ///   - lhs: A token.
    ///   - rhs: Another token.
    /// - Returns: `true` when `lhs` is older (same store) or its store identifier sorts first.
    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        if lhs.storeIdentifier != rhs.storeIdentifier { return lhs.storeIdentifier < rhs.storeIdentifier }
        return lhs.transactionNumber < rhs.transactionNumber
    }

    /// `<store UUID>:<transaction number>`.
    public var description: String { "\(storeIdentifier):\(transactionNumber)" }
}
