// The SQLite store's persistent history: recording in the save's transaction, answering
// requests, and announcing transactions (its own and other processes') to the coordinator.
import Foundation
import ManagedObjects
import ObjectGraphInternals
import Predicates

extension SQLitePersistentStore: PersistentHistoryStore {
    /// The token of the newest transaction in the file (the `Z_MAX` of `TRANSACTION` in
    /// `Z_PRIMARYKEY`), whoever wrote it, or `nil` before the first (Apple:
    /// `currentPersistentHistoryToken(fromStores:)`).
    ///
    /// - Returns: The token, or `nil`.
    /// - Throws: ``PersistentHistoryError/notTracking(storeIdentifier:)`` when the store was
    ///   created without ``tracksPersistentHistory``; ``SQLiteStoreError``.
    public func currentHistoryToken() throws -> PersistentHistoryToken? {
        try withHistoryReader { try $0.currentToken() }
    }

    /// Fetches or deletes the file's history (Apple: `execute(_:with:)` with an
    /// `NSPersistentHistoryChangeRequest`). Transactions of every process writing the file are
    /// included, oldest first; a delete runs in one SQLite transaction.
    ///
    /// - Parameter request: The request.
    /// - Returns: The transactions, changes, count, or how many transactions were deleted.
    /// - Throws: ``PersistentHistoryError`` (history off, a token of another store, a token
    ///   whose following transactions were deleted), ``SQLiteStoreError``.
    /// - Complexity: One query for the transactions and one for their changes.
    public func executeHistoryRequest(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try withHistoryReader { try $0.execute(request) }
    }

    /// Installs the coordinator's handler; with ``postsRemoteChangeNotifications`` on, it
    /// starts a watcher thread that checks the file every ``remoteChangeCheckInterval`` with
    /// `PRAGMA data_version` (no rows are read unless another connection committed) and calls
    /// the handler with the newest token. `nil` stops the watcher.
    ///
    /// - Parameter handler: The coordinator's handler, or `nil`.
    public func setRemoteChangeHandler(_ handler: PersistentStoreCoordinator.RemoteChangeHandler?) {
        let start = handler != nil && postsRemoteChangeNotifications
        let newest = start && tracksPersistentHistory ? ((try? currentHistoryToken())??.transactionNumber ?? 0) : 0
        let retired = remoteChanges.withTrackedLock(self) { changes -> SQLiteChangeWatcher? in
            changes.handler = handler
            changes.lastAnnounced = max(changes.lastAnnounced, newest)
            guard !start else { return nil }
            defer { changes.watcher = nil }
            return changes.watcher
        }
        retired?.stop()
        guard start else { return }
        let tracks = tracksPersistentHistory
        let watcher = SQLiteChangeWatcher(path: url.path, interval: remoteChangeCheckInterval, readsTransactions: tracks) { [weak self] number in
            guard let self else { return false }
            if tracks { announceTransaction(number) } else { announceWrite() }
            return true
        }
        let previous = remoteChanges.withTrackedLock(self) { changes -> SQLiteChangeWatcher? in
            defer { changes.watcher = watcher }
            return changes.watcher
        }
        previous?.stop()
    }

    /// Runs `body` with a history reader over the loaded file, under the store's lock.
    private func withHistoryReader<Result>(_ body: (SQLiteHistoryReader) throws -> Result) throws -> Result {
        let path = url.path
        return try state.withTrackedLock(self) { state throws -> Result in
            guard let engine = state.engine else { throw SQLiteStoreError(.notLoaded, path: path) }
            guard let layout = state.history else { throw PersistentHistoryError.notTracking(storeIdentifier: state.identifier) }
            let reader = SQLiteHistoryReader(connection: engine.connection, storeIdentifier: engine.identifier, layout: layout,
                                             entityNames: engine.schema.entityNamesByNumber, entities: engine.schema.entities)
            return try body(reader)
        }
    }

    /// Calls the coordinator's handler with transaction `number`'s token, once per number and
    /// only for numbers newer than the last announced (a save of this store and the watcher
    /// may both see the same transaction).
    func announceTransaction(_ number: Int64) {
        let handler = remoteChanges.withTrackedLock(self) { changes -> PersistentStoreCoordinator.RemoteChangeHandler? in
            guard postsRemoteChangeNotifications, number > changes.lastAnnounced, let handler = changes.handler else { return nil }
            changes.lastAnnounced = number
            return handler
        }
        guard let handler else { return }
        let identifier = identifier
        handler(PersistentStoreCoordinator.RemoteChange(storeIdentifier: identifier, storeURL: url,
                                                        historyToken: PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)))
    }

    /// Calls the coordinator's handler without a token (history is off): the watcher saw a
    /// commit to the file.
    private func announceWrite() {
        guard let handler = remoteChanges.withTrackedLock(self, { $0.handler }) else { return }
        handler(PersistentStoreCoordinator.RemoteChange(storeIdentifier: identifier, storeURL: url))
    }
}

/// The remote-change side of an SQLite store.
struct RemoteChangeState: Sendable {
    var handler: PersistentStoreCoordinator.RemoteChangeHandler?
    var watcher: SQLiteChangeWatcher?
    /// The newest transaction number announced.
    var lastAnnounced: Int64 = 0
}

extension SQLiteStoreEngine {
    /// Writes a save and its history in one SQLite transaction: the tombstones of deleted rows
    /// are read first, then the rows are written, then the transaction and its changes.
    ///
    /// - Returns: The transaction's number (`nil` when the save changed no object); the rows'
    ///   new versions are ``savedVersions``.
    func saveRecordingHistory(_ changes: StoreSaveChanges, layout: SQLiteHistoryLayout) throws -> Int64? {
        try connection.transaction {
            let tombstones = try historyTombstones(for: changes.deleted)
            try save(changes)
            return try recordHistory(of: changes, layout: layout, tombstones: tombstones)
        }
    }
}
