import Foundation
import ManagedObjects
import Synchronization

/// A user's store adopting ``PersistentHistoryStore``: an in-memory store for the rows, and
/// the history kept beside it, as the protocol's documentation tells a store to.
final class HistoryRecordingStore: PersistentHistoryStore {
    private let rows: InMemoryStore
    private struct History {
        var transactions: [PersistentHistoryTransaction] = []
        var nextTransaction: Int64 = 1
        var nextChange: Int64 = 1
        var handler: PersistentStoreCoordinator.RemoteChangeHandler?
    }
    private let history = Mutex(History())
    let tracksPersistentHistory: Bool
    let postsRemoteChangeNotifications: Bool
    /// The saves the store received, for the tests to look at.
    let received = Mutex<[StoreSaveChanges]>([])

    init(tracksHistory: Bool = true, postsRemoteChanges: Bool = true) {
        rows = InMemoryStore()
        tracksPersistentHistory = tracksHistory
        postsRemoteChangeNotifications = postsRemoteChanges
    }

    var identifier: String { rows.identifier }
    var storeType: String { "HistoryRecording" }
    var metadata: [String: any Sendable] { rows.metadata }
    func load(for model: ManagedObjectModel) throws { try rows.load(for: model) }
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult { try rows.fetch(request) }
    func row(for id: ManagedObjectID) throws -> StoreRow? { try rows.row(for: id) }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try rows.newObjectIDs(for: entityNames) }

    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        received.withLock { $0.append(changes) }
        let versions = try rows.save(changes)
        guard tracksPersistentHistory else { return versions }
        let (token, handler) = history.withLock { state -> (PersistentHistoryToken, PersistentStoreCoordinator.RemoteChangeHandler?) in
            let transaction = PersistentHistoryTransaction(recording: changes, transactionNumber: state.nextTransaction,
                                                           firstChangeIdentifier: state.nextChange, storeIdentifier: identifier)
            state.transactions.append(transaction)
            state.nextTransaction += 1
            state.nextChange += Int64(transaction.changes.count)
            return (transaction.token, postsRemoteChangeNotifications ? state.handler : nil)
        }
        handler?(PersistentStoreCoordinator.RemoteChange(storeIdentifier: identifier, historyToken: token))
        return versions
    }

    func currentHistoryToken() throws -> PersistentHistoryToken? {
        guard tracksPersistentHistory else { throw PersistentHistoryError.notTracking(storeIdentifier: identifier) }
        return history.withLock { $0.transactions.last?.token }
    }

    func executeHistoryRequest(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        guard tracksPersistentHistory else { throw PersistentHistoryError.notTracking(storeIdentifier: identifier) }
        return history.withLock { state in
            switch request.operation {
            case .deleteBeforeToken(let token):
                let before = state.transactions.count
                state.transactions.removeAll { token == nil || $0.transactionNumber <= token!.transactionNumber }
                return .deleted(before - state.transactions.count)
            case .deleteBeforeDate(let date):
                let before = state.transactions.count
                state.transactions.removeAll { $0.timestamp < date }
                return .deleted(before - state.transactions.count)
            case .fetchAfterToken(let token):
                return answer(state.transactions.filter { $0.transactionNumber > (token?.transactionNumber ?? 0) }, request)
            case .fetchAfterDate(let date):
                return answer(state.transactions.filter { $0.timestamp > date }, request)
            }
        }
    }

    private func answer(_ found: [PersistentHistoryTransaction], _ request: PersistentHistoryChangeRequest) -> PersistentHistoryResult {
        var list = found.filter { request.admits(author: $0.author) }
        if request.fetchLimit > 0 { list = Array(list.prefix(request.fetchLimit)) }
        switch request.resultType {
        case .count: return .count(list.count)
        case .changesOnly: return .changes(list.flatMap(\.changes))
        case .transactionsOnly: return .transactions(list.map { var t = $0; t.changes = []; return t })
        case .transactionsAndChanges: return .transactions(list)
        }
    }

    func setRemoteChangeHandler(_ handler: PersistentStoreCoordinator.RemoteChangeHandler?) {
        history.withLock { $0.handler = handler }
    }
}
