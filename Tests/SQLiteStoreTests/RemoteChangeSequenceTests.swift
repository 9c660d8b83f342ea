// Remote changes as an async sequence, followed the Swift 6 way: a main-actor loop using the
// main actor's context, with no @unchecked, nonisolated(unsafe) or assumeIsolated.
import Foundation
import Synchronization
import Testing
import TestSupport
import ManagedObjects
import Predicates
import SQLiteStore

/// Merges remote changes into `viewContext` until `count` transactions were merged, as
/// Docs/Stores.md shows; returns the number merged.
@MainActor
func followRemoteChanges(_ changes: AsyncStream<PersistentStoreCoordinator.RemoteChange>,
                         into viewContext: ManagedObjectContext,
                         after token: PersistentHistoryToken?, until count: Int) async throws -> Int {
    var lastToken = token
    var merged = 0
    for await _ in changes {
        let transactions = try viewContext.execute(.fetchHistory(after: lastToken)).transactions
        guard let last = transactions.last else { continue }
        viewContext.mergeChanges(fromHistory: transactions)
        lastToken = last.token
        merged += transactions.count
        if merged >= count { break }
    }
    return merged
}

@Suite @MainActor struct RemoteChangeSequenceTests {
    @Test(.timeLimit(.minutes(1)))
    func anotherCoordinatorsSavesReachAMainQueueContextThroughTheSequence() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = try PersistentHistoryTests.model(preservingTitles: false)
        let (_, _, writerContext) = try PersistentHistoryTests.stack(at: url, model: model)
        let reader = PersistentStoreCoordinator(model: model)
        try reader.addStore(SQLitePersistentStore(url: url, tracksPersistentHistory: true, postsRemoteChangeNotifications: true,
                                                  remoteChangeCheckInterval: .milliseconds(10)))
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: reader)
        let start = try reader.currentPersistentHistoryToken()
        let changes = reader.remoteChanges()

        try PersistentHistoryTests.movie("Arrival", in: writerContext)
        try writerContext.save()
        try PersistentHistoryTests.movie("Blade Runner", in: writerContext)
        try writerContext.save()

        let merged = try await followRemoteChanges(changes, into: viewContext, after: start, until: 2)
        #expect(merged == 2)
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let titles = try viewContext.fetch(request).map { try $0.value(forKey: "title") as? String }
        #expect(titles == ["Arrival", "Blade Runner"])
    }

    @Test func endingTheIterationCancelsTheRegistration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = try PersistentHistoryTests.model(preservingTitles: false)
        let (coordinator, _, context) = try PersistentHistoryTests.stack(at: url, model: model, remote: true)
        do {
            let changes = coordinator.remoteChanges()
            try PersistentHistoryTests.movie("Arrival", in: context)
            try context.save()
            for await change in changes {
                #expect(change.historyToken?.transactionNumber == 1)
                break
            }
        }
        // The sequence is gone: its handler was removed from the coordinator.
        #expect(coordinator.remoteChangeObservers.withLock { $0.count } == 0)
    }
}
