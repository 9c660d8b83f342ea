// Remote-change notifications: a coordinator tells its app that a store it holds has a new
// transaction, whoever committed it.
import Foundation
import ObjectGraphInternals
import Synchronization

extension PersistentStoreCoordinator {
    /// Posted to `NotificationCenter.default` after a store of this coordinator that
    /// ``PersistentHistoryStore/postsRemoteChangeNotifications`` commits a transaction, its own
    /// or another process's (Apple: `NSPersistentStoreRemoteChange`). The object is the
    /// coordinator; the user info holds the store's URL, UUID and the new history token under
    /// ``RemoteChangeKey``. It is posted on the thread that learned of the change (the saving
    /// thread, or the store's watcher): move to your context's queue before working.
    public static let remoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")

    /// The user-info keys of ``remoteChangeNotification``, with Apple's strings.
    public enum RemoteChangeKey: String, Sendable, CaseIterable {
        /// The store's URL (`URL`; Apple: `NSPersistentStoreURLKey`), absent for a store without one.
        case storeURL = "storeURL"
        /// The store's UUID (`String`; Apple: `NSStoreUUIDKey`).
        case storeUUID = "NSStoreUUID"
        /// The token after the new transaction (``PersistentHistoryToken``; Apple:
        /// `NSPersistentHistoryTokenKey`).
        case historyToken = "historyToken"
    }

    /// One remote-change notification's payload (Apple:
    /// `NSPersistentStoreCoordinator.RemoteChangeMessage`).
    public struct RemoteChange: Sendable, Hashable {
        /// The store's UUID.
        public var storeIdentifier: String
        /// The store's location, if it has one.
        public var storeURL: URL?
        /// The token after the newest transaction the store knows of, if history is tracked.
        public var historyToken: PersistentHistoryToken?

        /// Creates a payload.
        ///
        /// - Parameters:
        ///   - storeIdentifier: The store's UUID.
        ///   - storeURL: The store's location.
        ///   - historyToken: The token after the new transaction.
        public init(storeIdentifier: String, storeURL: URL? = nil, historyToken: PersistentHistoryToken? = nil) {
            self.storeIdentifier = storeIdentifier
            self.storeURL = storeURL
            self.historyToken = historyToken
        }

        /// The payload of a ``PersistentStoreCoordinator/remoteChangeNotification``, or `nil`
        /// for another notification.
        ///
        /// - Parameter notification: A posted notification.
        public init?(_ notification: Notification) {
            guard notification.name == PersistentStoreCoordinator.remoteChangeNotification,
                  let store = notification.userInfo?[RemoteChangeKey.storeUUID.rawValue] as? String else { return nil }
            self.init(storeIdentifier: store, storeURL: notification.userInfo?[RemoteChangeKey.storeURL.rawValue] as? URL,
                      historyToken: notification.userInfo?[RemoteChangeKey.historyToken.rawValue] as? PersistentHistoryToken)
        }

        /// The user info of the notification, under ``RemoteChangeKey``.
        public var userInfo: [AnyHashable: Any] {
            var info: [AnyHashable: Any] = [RemoteChangeKey.storeUUID.rawValue: storeIdentifier]
            if let storeURL { info[RemoteChangeKey.storeURL.rawValue] = storeURL }
            if let historyToken { info[RemoteChangeKey.historyToken.rawValue] = historyToken }
            return info
        }
    }

    /// What a ``PersistentHistoryStore`` calls for each committed transaction.
    public typealias RemoteChangeHandler = @Sendable (RemoteChange) -> Void

    /// Calls `handler` for every remote change of this coordinator's stores (the same events as
    /// ``remoteChangeNotification``), on the thread that learned of it, until the returned
    /// registration is cancelled or released.
    ///
    /// ```swift
    /// let observation = coordinator.onRemoteChange { change in
    ///     viewContext.perform { /* fetch history after the last token, merge it */ }
    /// }
    /// ```
    ///
    /// - Parameter handler: Receives each change.
    /// - Returns: The registration; keep it as long as you want the calls.
    public func onRemoteChange(_ handler: @escaping RemoteChangeHandler) -> RemoteChangeObservation {
        let observation = RemoteChangeObservation(coordinator: self)
        remoteChangeObservers.withTrackedLock(self) { $0.append((ObjectIdentifier(observation), handler)) }
        return observation
    }

    /// The coordinator's remote changes as an async sequence: the same events as
    /// ``onRemoteChange(_:)``, from the moment of the call until the sequence's consumer stops
    /// (the registration is cancelled when the iteration ends or its task is cancelled).
    ///
    /// This is the form for Swift 6 code whose context is isolated to an actor: the handler
    /// of ``onRemoteChange(_:)`` is `@Sendable` and cannot capture a context, which is not
    /// `Sendable`, while a loop on the main actor can use the main actor's context directly:
    ///
    /// ```swift
    /// @MainActor func followRemoteChanges(_ changes: AsyncStream<PersistentStoreCoordinator.RemoteChange>,
    ///                                     into viewContext: ManagedObjectContext,
    ///                                     after token: PersistentHistoryToken?) async throws {
    ///     var lastToken = token
    ///     for await _ in changes {
    ///         let transactions = try viewContext.execute(.fetchHistory(after: lastToken)).transactions
    ///         guard let last = transactions.last else { continue }
    ///         viewContext.mergeChanges(fromHistory: transactions)   // fetched results controllers update
    ///         lastToken = last.token
    ///     }
    /// }
    /// ```
    ///
    /// Call it before the saves you want to hear of: changes committed earlier are not
    /// replayed (fetch the history after your last token for those).
    ///
    /// - Parameter bufferingPolicy: What the sequence keeps while its consumer is busy
    ///   (all changes by default; each change's token is the newest at that moment, so keeping
    ///   only the newest, `.bufferingNewest(1)`, loses nothing a history fetch cannot recover).
    /// - Returns: The changes, in the order the coordinator learned of them.
    /// - Complexity: O(1) per change.
    /// - Important: Thread safety: the sequence may be iterated from any isolation.
    public func remoteChanges(
        bufferingPolicy: AsyncStream<RemoteChange>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<RemoteChange> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let observation = onRemoteChange { change in continuation.yield(change) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    /// Installs this coordinator's handler in a history store that posts remote changes.
    package func startRemoteChanges(of store: any PersistentStore) {
        guard let history = store as? any PersistentHistoryStore else { return }
        history.setRemoteChangeHandler { [weak self] change in self?.postRemoteChange(change) }
    }

    /// Removes the handler from a store leaving the coordinator.
    package func stopRemoteChanges(of store: any PersistentStore) {
        (store as? any PersistentHistoryStore)?.setRemoteChangeHandler(nil)
    }

    /// Calls the typed handlers (copied out of the lock), then posts the notification.
    package func postRemoteChange(_ change: RemoteChange) {
        let handlers = remoteChangeObservers.withTrackedLock(self) { $0.map(\.handler) }
        for handler in handlers { handler(change) }
        NotificationCenter.default.post(name: Self.remoteChangeNotification, object: self, userInfo: change.userInfo)
    }

    /// The token of the newest transaction of the first of `stores` (of every store for `nil`)
    /// that records history, or `nil` when it has recorded none (Apple:
    /// `currentPersistentHistoryToken(fromStores:)`). Tokens belong to one store: with several
    /// history stores, ask for each.
    ///
    /// - Parameter stores: The stores to look at, or `nil` for all of the coordinator's.
    /// - Returns: The token, or `nil`.
    /// - Throws: ``PersistentHistoryError/noHistoryStore`` when none of them records history,
    ///   or the store's errors.
    public func currentPersistentHistoryToken(fromStores stores: [any PersistentStore]? = nil) throws -> PersistentHistoryToken? {
        let candidates = (stores ?? self.stores).compactMap { $0 as? any PersistentHistoryStore }
        guard let store = candidates.first(where: \.tracksPersistentHistory) else { throw PersistentHistoryError.noHistoryStore }
        return try store.currentHistoryToken()
    }

    /// Runs a history request on the coordinator's stores: the token's store for a token
    /// request, otherwise every store that records history, the results merged oldest first.
    ///
    /// - Parameter request: The request.
    /// - Returns: The result.
    /// - Throws: ``PersistentHistoryError``, or the stores' errors.
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        if let token = request.token {
            guard let store = store(withIdentifier: token.storeIdentifier) else {
                throw PersistentHistoryError.unknownStore(token.storeIdentifier)
            }
            guard let history = store as? any PersistentHistoryStore, history.tracksPersistentHistory else {
                throw PersistentHistoryError.notTracking(storeIdentifier: store.identifier)
            }
            return try history.executeHistoryRequest(request)
        }
        let histories = stores.compactMap { $0 as? any PersistentHistoryStore }.filter(\.tracksPersistentHistory)
        guard !histories.isEmpty else { throw PersistentHistoryError.noHistoryStore }
        if histories.count == 1 { return try histories[0].executeHistoryRequest(request) }
        let results = try histories.map { try $0.executeHistoryRequest(request) }
        return Self.combine(results, request: request)
    }

    /// Several stores' answers to one request, as one.
    private static func combine(_ results: [PersistentHistoryResult], request: PersistentHistoryChangeRequest) -> PersistentHistoryResult {
        if request.isDelete { return .deleted(results.reduce(0) { $0 + $1.count }) }
        switch request.resultType {
        case .count:
            return .count(results.reduce(0) { $0 + $1.count })
        case .changesOnly:
            return .changes(results.flatMap(\.changes))
        case .transactionsAndChanges, .transactionsOnly:
            var all = results.flatMap(\.transactions)
            all.sort { ($0.timestamp, $0.storeIdentifier, $0.transactionNumber) < ($1.timestamp, $1.storeIdentifier, $1.transactionNumber) }
            if request.fetchLimit > 0, all.count > request.fetchLimit { all.removeLast(all.count - request.fetchLimit) }
            return .transactions(all)
        }
    }
}

/// A registration of ``PersistentStoreCoordinator/onRemoteChange(_:)``; cancelling or
/// releasing it ends the calls.
///
/// - Important: Thread safety: `Sendable`; the coordinator's list takes its lock.
public final class RemoteChangeObservation: Sendable {
    /// The coordinator, weakly: a registration does not keep it alive.
    private struct Owner: Sendable { weak var coordinator: PersistentStoreCoordinator? }
    private let owner: Mutex<Owner>

    init(coordinator: PersistentStoreCoordinator) {
        owner = Mutex(Owner(coordinator: coordinator))
    }

    /// Ends the calls.
    public func cancel() {
        let key = ObjectIdentifier(self)
        let coordinator = owner.withTrackedLock(self) { owner -> PersistentStoreCoordinator? in
            defer { owner.coordinator = nil }
            return owner.coordinator
        }
        guard let coordinator else { return }
        coordinator.remoteChangeObservers.withTrackedLock(coordinator) { $0.removeAll { $0.token == key } }
    }

    deinit { cancel() }
}
