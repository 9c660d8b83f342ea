import Foundation
import Synchronization
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Remote changes between processes on one SQLite file: the child process
/// (`sqlite-store-crash-helper history-insert`) saves; this process's coordinator posts the
/// remote-change notification with the new token, and merging the history shows the insert.
@Suite(.serialized) struct RemoteChangeProcessTests {
    @Test func anotherProcessesSaveIsPostedAndMergedIntoAController() throws {
        _ = try #require(ReliabilityTests.helper(), "sqlite-store-crash-helper is not built")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try ReliabilityTests.model())
        let store = SQLitePersistentStore(url: url, tracksPersistentHistory: true, postsRemoteChangeNotifications: true,
                                          remoteChangeCheckInterval: .milliseconds(20))
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Entry", sortDescriptors: [KeyValueSortDescriptor(key: "writer")]), context: context)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.isEmpty == true)
        let lastToken = try coordinator.currentPersistentHistoryToken()
        #expect(lastToken == nil)

        let notified = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
        let observer = NotificationCenter.default.addObserver(forName: PersistentStoreCoordinator.remoteChangeNotification,
                                                              object: coordinator, queue: nil) { notification in
            if let change = PersistentStoreCoordinator.RemoteChange(notification) { notified.withLock { $0.append(change) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        #expect(try FileLockTests.runHelper(["history-insert", url.path, "child"]) == "saved 1")

        let deadline = ContinuousClock.now + .seconds(10)
        while notified.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let change = try #require(notified.withLock { $0.first })
        #expect(change.storeIdentifier == store.identifier)
        #expect(change.storeURL == url)
        #expect(change.historyToken == PersistentHistoryToken(storeIdentifier: store.identifier, transactionNumber: 1))

        let transactions = try context.execute(.fetchHistory(after: lastToken)).transactions
        #expect(transactions.count == 1)
        #expect(transactions.first?.author == "helper")
        #expect(transactions.first?.contextName == "child")
        #expect(transactions.first?.processIdentifier == "sqlite-store-crash-helper")
        for transaction in transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
        #expect(try controller.fetchedObjects?.map { try $0.value(forKey: "writer") as? String } == ["child"])
        coordinator.removeStore(store)
    }
}
