// Asking a store for its history, or to forget part of it.
import Foundation

/// A request to fetch a store's persistent history after a point, or to delete it before one
/// (Apple: `NSPersistentHistoryChangeRequest`).
///
/// Run it with ``ManagedObjectContext/execute(_:)`` (or a store's
/// ``PersistentHistoryStore/executeHistoryRequest(_:)``):
///
/// ```swift
/// var request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// request.excludedAuthors = ["importer"]
/// let transactions = try context.execute(request).transactions
/// _ = try context.execute(.deleteHistory(before: lastToken))
/// ```
///
/// - Important: Thread safety: a `Sendable` value.
public struct PersistentHistoryChangeRequest: Sendable, Hashable {
    /// Which part of the history the request reads or deletes.
    public enum Operation: Sendable, Hashable {
        /// The transactions after the token's (all of them for `nil`), oldest first.
        case fetchAfterToken(PersistentHistoryToken?)
        /// The transactions whose timestamp is later than the date, oldest first.
        case fetchAfterDate(Date)
        /// Delete the token's transaction and every earlier one of its store (everything for
        /// `nil`).
        case deleteBeforeToken(PersistentHistoryToken?)
        /// Delete the transactions whose timestamp is earlier than the date.
        case deleteBeforeDate(Date)
    }

    /// What a fetch returns (Apple: `NSPersistentHistoryResultType`).
    public enum ResultType: Sendable, Hashable, CaseIterable {
        /// Transactions with their changes (the default).
        case transactionsAndChanges
        /// Transactions without their changes (``PersistentHistoryTransaction/changes`` empty).
        case transactionsOnly
        /// The changes of the matching transactions, without the transactions.
        case changesOnly
        /// How many transactions match.
        case count
    }

    /// What the request reads or deletes.
    public var operation: Operation
    /// What a fetch returns; ignored by a delete, which returns
    /// ``PersistentHistoryResult/deleted(_:)``.
    public var resultType: ResultType = .transactionsAndChanges
    /// The most transactions a fetch returns, oldest first; 0 (the default) for no limit.
    public var fetchLimit: Int = 0
    /// When not `nil`, a fetch returns only transactions with one of these authors.
    public var authors: Set<String>?
    /// A fetch leaves out transactions with one of these authors (typically the app's own,
    /// which it has already merged).
    public var excludedAuthors: Set<String> = []

    /// Creates a request.
    ///
    /// - Parameter operation: What the request reads or deletes.
    public init(_ operation: Operation) {
        self.operation = operation
    }

    /// The token the request fetches after or deletes before, if it is a token request
    /// (Apple: `token`).
    public var token: PersistentHistoryToken? {
        switch operation {
        case .fetchAfterToken(let token), .deleteBeforeToken(let token): return token
        case .fetchAfterDate, .deleteBeforeDate: return nil
        }
    }

    /// Whether the request deletes history.
    public var isDelete: Bool {
        switch operation {
        case .deleteBeforeToken, .deleteBeforeDate: return true
        case .fetchAfterToken, .fetchAfterDate: return false
        }
    }

    /// The transactions after `token`, oldest first; every transaction for `nil` (Apple:
    /// `fetchHistory(after:)` with a token).
    ///
    /// - Parameter token: The last transaction already seen, or `nil`.
    /// - Returns: The request.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchAfterToken(token))
    }

    /// The transactions written after `date`, oldest first (Apple: `fetchHistory(after:)` with a
    /// date).
    ///
    /// - Parameter date: A moment; transactions with a later timestamp match.
    /// - Returns: The request.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchAfterDate(date))
    }

    /// The transactions after `transaction`, oldest first; every transaction for `nil`
    /// (Apple: `fetchHistory(after:)` with a transaction).
    ///
    /// - Parameter transaction: The last transaction already seen, or `nil`.
    /// - Returns: The request.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchAfterToken(transaction?.token))
    }

    /// Deletes the token's transaction and every earlier one of its store; every transaction
    /// for `nil` (Apple: `deleteHistory(before:)` with a token).
    ///
    /// - Parameter token: The last transaction to delete, or `nil` for all.
    /// - Returns: The request.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.deleteBeforeToken(token))
    }

    /// Deletes the transactions older than `transaction` (the transaction itself stays); every
    /// transaction for `nil` (Apple: `deleteHistory(before:)` with a transaction).
    ///
    /// - Parameter transaction: The oldest transaction to keep, or `nil` to delete all.
    /// - Returns: The request.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        guard let transaction else { return PersistentHistoryChangeRequest(.deleteBeforeToken(nil)) }
        let previous = PersistentHistoryToken(storeIdentifier: transaction.storeIdentifier, transactionNumber: transaction.transactionNumber - 1)
        return PersistentHistoryChangeRequest(.deleteBeforeToken(previous))
    }

    /// Deletes the transactions written before `date` (Apple: `deleteHistory(before:)` with a
    /// date).
    ///
    /// - Parameter date: A moment; transactions with an earlier timestamp are deleted.
    /// - Returns: The request.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.deleteBeforeDate(date))
    }

    /// Whether a transaction passes the request's author filters.
    ///
    /// - Parameter author: The transaction's author.
    /// - Returns: `true` when ``authors`` is `nil` or holds `author`, and
    ///   ``excludedAuthors`` does not.
    public func admits(author: String?) -> Bool {
        if let author, excludedAuthors.contains(author) { return false }
        guard let authors else { return true }
        return author.map(authors.contains) ?? false
    }
}

/// What a history request returns (Apple: `NSPersistentHistoryResult`).
///
/// - Important: Thread safety: a `Sendable` value.
public enum PersistentHistoryResult: Sendable, Hashable {
    /// Transactions, oldest first (with their changes for
    /// ``PersistentHistoryChangeRequest/ResultType/transactionsAndChanges``).
    case transactions([PersistentHistoryTransaction])
    /// Changes of the matching transactions, oldest first.
    case changes([PersistentHistoryChange])
    /// How many transactions match.
    case count(Int)
    /// How many transactions a delete removed.
    case deleted(Int)

    /// The transactions of a ``transactions(_:)`` result; empty for the others.
    public var transactions: [PersistentHistoryTransaction] {
        if case .transactions(let list) = self { return list }
        return []
    }

    /// The changes: those of a ``changes(_:)`` result, or of every transaction of a
    /// ``transactions(_:)`` result; empty for the others.
    public var changes: [PersistentHistoryChange] {
        switch self {
        case .changes(let list): return list
        case .transactions(let list): return list.flatMap(\.changes)
        case .count, .deleted: return []
        }
    }

    /// The number of a ``count(_:)`` or ``deleted(_:)`` result, or of the transactions or
    /// changes returned.
    public var count: Int {
        switch self {
        case .transactions(let list): return list.count
        case .changes(let list): return list.count
        case .count(let number), .deleted(let number): return number
        }
    }
}
