// The store side of persistent history: what a store implements to record and answer it.
import Foundation

/// A store that can record every save in a persistent history and answer history requests
/// (Apple: a store opened with `NSPersistentHistoryTrackingKey`).
///
/// The SQLite store adopts it; so can your own store. With ``tracksPersistentHistory`` on,
/// ``PersistentStore/save(_:)`` records one ``PersistentHistoryTransaction`` per save in the
/// same atomic write as the rows (a save that fails records nothing): the save's
/// ``StoreSaveChanges/transactionAuthor``, ``StoreSaveChanges/contextName``, a timestamp,
/// and one ``PersistentHistoryChange`` per inserted, updated and deleted object (updates with
/// ``StoreSaveChanges/updatedPropertyNames``, deletes with the values of attributes marked
/// ``AttributeDescription/preservesValueInHistoryOnDeletion``).
/// ``PersistentHistoryTransaction/init(recording:transactionNumber:firstChangeIdentifier:storeIdentifier:timestamp:tombstones:)``
/// builds that transaction from the save.
///
/// With ``postsRemoteChangeNotifications`` on, the store calls the handler the coordinator
/// installs with ``setRemoteChangeHandler(_:)`` after each transaction it commits and after
/// each transaction another process or coordinator commits to the same data, as soon as it
/// learns of it; the coordinator turns the calls into
/// ``PersistentStoreCoordinator/remoteChangeNotification``.
///
/// - Important: Thread safety: `Sendable`, like every store; the handler may be called on any
///   thread, and never while the store holds a lock its history requests take.
public protocol PersistentHistoryStore: PersistentStore {
    /// Whether saves record history (Apple: `NSPersistentHistoryTrackingKey`).
    var tracksPersistentHistory: Bool { get }

    /// Whether the store reports every committed transaction, this process's and others',
    /// through the handler of ``setRemoteChangeHandler(_:)`` (Apple:
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`). The default is `false`.
    var postsRemoteChangeNotifications: Bool { get }

    /// The token of the newest transaction, or `nil` when the store has recorded none (Apple:
    /// `currentPersistentHistoryToken(fromStores:)`).
    ///
    /// - Returns: The token.
    /// - Throws: ``PersistentHistoryError/notTracking(storeIdentifier:)`` when history is off,
    ///   or the store's errors.
    func currentHistoryToken() throws -> PersistentHistoryToken?

    /// Fetches or deletes history (Apple: `execute(_:with:)` for an
    /// `NSPersistentHistoryChangeRequest`).
    ///
    /// A fetch returns transactions oldest first, filtered by the request's authors and cut at
    /// its ``PersistentHistoryChangeRequest/fetchLimit``. A fetch after a token whose following
    /// transactions were deleted throws ``PersistentHistoryError/tokenExpired(_:)``.
    ///
    /// - Parameter request: The request; its token, if any, is one of this store's.
    /// - Returns: What the request's ``PersistentHistoryChangeRequest/resultType`` asks for, or
    ///   ``PersistentHistoryResult/deleted(_:)`` for a delete.
    /// - Throws: ``PersistentHistoryError`` (history off, a token of another store, an expired
    ///   token), or the store's errors.
    func executeHistoryRequest(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult

    /// Installs (or, with `nil`, removes) the handler the store calls for each committed
    /// transaction when ``postsRemoteChangeNotifications`` is on. The coordinator installs one
    /// when the store is added and removes it when the store is removed. The default does
    /// nothing.
    ///
    /// - Parameter handler: Receives the store's identifier, URL and the new token.
    func setRemoteChangeHandler(_ handler: PersistentStoreCoordinator.RemoteChangeHandler?)
}

extension PersistentHistoryStore {
    /// `false`.
    public var postsRemoteChangeNotifications: Bool { false }

    /// Does nothing.
    public func setRemoteChangeHandler(_ handler: PersistentStoreCoordinator.RemoteChangeHandler?) {}
}

extension StoreDescription {
    /// The option that turns persistent history on (Apple: `NSPersistentHistoryTrackingKey`);
    /// see ``tracksPersistentHistory``.
    public static let persistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
    /// The option that makes the store post remote-change notifications (Apple:
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`); see
    /// ``postsRemoteChangeNotifications``.
    public static let remoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

    /// Whether the store records persistent history: the ``persistentHistoryTrackingKey``
    /// option is `"YES"`, `"1"` or `"true"`. Setting it writes the option.
    public var tracksPersistentHistory: Bool {
        get { Self.isOn(options[Self.persistentHistoryTrackingKey]) }
        set { options[Self.persistentHistoryTrackingKey] = newValue ? "YES" : nil }
    }

    /// Whether the store reports every committed transaction through
    /// ``PersistentStoreCoordinator/remoteChangeNotification``: the
    /// ``remoteChangeNotificationPostOptionKey`` option is `"YES"`, `"1"` or `"true"`. Setting it
    /// writes the option.
    public var postsRemoteChangeNotifications: Bool {
        get { Self.isOn(options[Self.remoteChangeNotificationPostOptionKey]) }
        set { options[Self.remoteChangeNotificationPostOptionKey] = newValue ? "YES" : nil }
    }

    /// Whether an option's text means "on".
    package static func isOn(_ value: String?) -> Bool {
        guard let value else { return false }
        return ["yes", "1", "true"].contains(value.lowercased())
    }
}

/// Why a history request failed.
public enum PersistentHistoryError: Error, Hashable, Sendable {
    /// The store does not record history (it was opened without
    /// ``StoreDescription/persistentHistoryTrackingKey``, or cannot record it).
    case notTracking(storeIdentifier: String)
    /// No store of the coordinator has this identifier (a token of another store).
    case unknownStore(String)
    /// The transactions after the token were deleted: the app must refetch what it shows
    /// (Apple: `NSPersistentHistoryTokenExpiredError`).
    case tokenExpired(PersistentHistoryToken)
    /// The context has no coordinator, or its coordinator has no store that tracks history.
    case noHistoryStore
}

extension PersistentHistoryError: LocalizedError, CustomStringConvertible {
    /// A sentence naming the store or token.
    public var description: String {
        switch self {
        case .notTracking(let store):
            return "the store \(store) does not record persistent history (open it with \(StoreDescription.persistentHistoryTrackingKey))"
        case .unknownStore(let store):
            return "no store of the coordinator has the identifier \(store)"
        case .tokenExpired(let token):
            return "the history after token \(token) was deleted; fetch the objects again instead of merging history"
        case .noHistoryStore:
            return "no store of the coordinator records persistent history"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
