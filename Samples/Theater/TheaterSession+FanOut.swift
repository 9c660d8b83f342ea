// A theater on a PostgreSQL database: what other processes save reaches the listing through the
// store's fan-out (NOTIFY carrying history tokens), merged before the next command.

import Foundation
import ManagedObjects
import PostgreSQLStore
import Synchronization

/// What a session on PostgreSQL knows of the other processes' saves: whether the store
/// announced one since the last command, and the last history token merged.
///
/// The store listens on a connection of its own; each save another process commits makes the
/// coordinator post a remote change, which only raises a flag here (it arrives on the
/// listener's thread, and the session's context belongs to the session's thread). Before the
/// next command the session fetches the history after its token, leaving out its own saves
/// (their author is the session's), and merges it: only the changed objects are read again.
final class FanOutWatch: Sendable {
    /// The author of this session's saves, unique to it.
    let author = "theater-" + UUID().uuidString.lowercased()
    /// Whether a remote change arrived since the last merge.
    let isPending = Atomic<Bool>(false)
    /// The last merged transaction.
    let token: Mutex<PersistentHistoryToken?>
    private let observation = Mutex<RemoteChangeObservation?>(nil)

    init(session: TheaterSession) {
        let coordinator = session.container.coordinator
        token = Mutex((try? coordinator.currentPersistentHistoryToken()) ?? nil)
        session.context.transactionAuthor = author
        let made = coordinator.onRemoteChange { [weak self] _ in self?.isPending.store(true, ordering: .releasing) }
        observation.withLock { $0 = made }
    }

    deinit { observation.withLock { $0 }?.cancel() }
}

extension TheaterSession {
    /// The description of the PostgreSQL store at `url`: with persistent history, and
    /// announcing every save to the other processes.
    static func postgreSQLDescription(at url: URL) -> StoreDescription {
        var description = StoreDescription.postgreSQL(at: url)
        description.tracksPersistentHistory = true
        description.postsRemoteChangeNotifications = true
        return description
    }

    /// Merges what other processes saved since the last command, when the fan-out announced
    /// something, and returns the rows and sections the listing redrew (empty otherwise).
    func mergeAnnouncedChanges() -> String {
        guard let watch = fanOutWatch, watch.isPending.exchange(false, ordering: .acquiringAndReleasing) else { return "" }
        var request = PersistentHistoryChangeRequest.fetchHistory(after: watch.token.withLock { $0 })
        request.excludedAuthors = [watch.author]
        guard let transactions = try? context.execute(request).transactions, let last = transactions.last else { return "" }
        watch.token.withLock { $0 = last.token }
        var result = ManagedObjectContext.SaveResult()
        for transaction in transactions {
            let saved = transaction.saveResult
            result.insertedObjectIDs.formUnion(saved.insertedObjectIDs)
            result.updatedObjectIDs.formUnion(saved.updatedObjectIDs.subtracting(result.insertedObjectIDs))
            result.deletedObjectIDs.formUnion(saved.deletedObjectIDs)
        }
        result.insertedObjectIDs.subtract(result.deletedObjectIDs)
        result.updatedObjectIDs.subtract(result.deletedObjectIDs)
        _ = listing.takeRedraws()
        context.mergeChanges(fromHistory: transactions)
        context.processPendingChanges()   // the controller reports the merged objects now
        let counts = [(result.insertedObjectIDs.count, "inserted"), (result.updatedObjectIDs.count, "updated"),
                      (result.deletedObjectIDs.count, "deleted")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        return (["another process saved: \(counts)"] + listing.takeRedraws()).joined(separator: "\n")
    }
}
