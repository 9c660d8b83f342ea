import FanOutSupport
import Foundation
import ManagedObjects
import Predicates
import Synchronization
import Testing
@testable import PostgreSQLStore

/// What a coordinator's remote-change handler received, in order.
final class RemoteChanges: Sendable {
    private let changes = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
    var all: [PersistentStoreCoordinator.RemoteChange] { changes.withLock { $0 } }
    var tokens: [Int64?] { all.map { $0.historyToken?.transactionNumber } }
    func record(_ change: PersistentStoreCoordinator.RemoteChange) { changes.withLock { $0.append(change) } }
}

/// What a fetched results controller reported, by title.
final class InsertRecorder: FetchedResultsControllerDelegate, @unchecked Sendable {
    // @unchecked Sendable: `titles` is behind its Mutex; the rest is immutable.
    private let titles = Mutex<[String]>([])
    var inserted: [String] { titles.withLock { $0 } }
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject,
                    at indexPath: FetchedResultsIndexPath?, for kind: FetchedResultsChangeKind,
                    newIndexPath: FetchedResultsIndexPath?) {
        guard kind == .insert, let title = (try? object.value(forKey: "title")) as? String else { return }
        titles.withLock { $0.append(title) }
    }
}

/// A coordinator on the test's schema whose store records history and posts remote changes,
/// a private-queue context following them, and a fetched results controller on every Item.
final class FanOutPeer {
    let coordinator: PersistentStoreCoordinator
    let store: PostgreSQLPersistentStore
    let context: ManagedObjectContext
    let controller: FetchedResultsController
    let recorder: InsertRecorder
    let changes: RemoteChanges
    let follower: HistoryFollower
    let observation: RemoteChangeObservation

    init(_ database: TestDatabase) throws {
        let coordinator = PersistentStoreCoordinator(model: try FanOutModel.model())
        let store = PostgreSQLPersistentStore(url: database.url, schema: database.schema, tracksPersistentHistory: true,
                                              postsRemoteChangeNotifications: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let request = EntityFetchRequest(entityName: "Item", sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let recorder = InsertRecorder()
        let controller = try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: request, context: context)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let changes = RemoteChanges()
        self.recorder = recorder
        self.changes = changes
        self.coordinator = coordinator
        self.store = store
        self.context = context
        self.controller = controller
        follower = try HistoryFollower(context: context, coordinator: coordinator)
        observation = coordinator.onRemoteChange { changes.record($0) }
    }

    /// The titles the controller shows, read on the context's queue.
    var shownTitles: [String] {
        let (controller, context) = (controller, context)
        return context.performAndWait { (controller.fetchedObjects ?? []).compactMap { (try? $0.value(forKey: "title")) as? String } }
    }

    /// Saves one Item per title from a confinement context of this coordinator.
    func save(_ titles: [String], author: String? = nil) throws {
        let saver = ManagedObjectContext(coordinator: coordinator)
        saver.transactionAuthor = author
        for title in titles {
            let item = try saver.insertNewObject(forEntityNamed: "Item")
            try item.setValue(title, forKey: "title")
        }
        try saver.save()
    }
}

/// Fan-out between two coordinators of one process (two stores, two listening connections):
/// remote-change notifications, merged history, fetched results controllers.
@Suite struct FanOutTests {
    @Test func aSaveOfOneCoordinatorReachesTheOthersFetchedResultsController() throws {
        try TestDatabase.run { database in
            let a = try FanOutPeer(database)
            let b = try FanOutPeer(database)
            try a.save(["Alien"], author: "a")
            #expect(eventually { b.shownTitles == ["Alien"] }, "B's controller shows A's insert")
            #expect(b.recorder.inserted == ["Alien"], "reported as an insert, not a refetch")
            try b.save(["Brazil", "Casablanca"])
            #expect(eventually { a.shownTitles == ["Alien", "Brazil", "Casablanca"] })
            // Each coordinator heard of both transactions once: its own at its commit, the
            // other's through the listener.
            let newest = try #require(try a.coordinator.currentPersistentHistoryToken())
            #expect(newest.transactionNumber == 2)
            #expect(eventually { a.changes.tokens == [1, 2] && b.changes.tokens == [1, 2] }, "\(a.changes.tokens) \(b.changes.tokens)")
            #expect(a.changes.all.allSatisfy { $0.storeIdentifier == a.store.identifier })
        }
    }

    @Test func theNotificationIsSentOnlyWhenTheSaveCommits() throws {
        try TestDatabase.run { database in
            let a = try FanOutPeer(database)
            let b = try FanOutPeer(database)
            // A conflicting save fails: nothing is recorded, nothing announced.
            try a.save(["Alien"])
            #expect(eventually { b.shownTitles == ["Alien"] })
            let stale = ManagedObjectContext(coordinator: a.coordinator)
            let item = try #require(try stale.fetch(EntityFetchRequest(entityName: "Item")).first)
            let other = ManagedObjectContext(coordinator: b.coordinator)
            try #require(try other.fetch(EntityFetchRequest(entityName: "Item")).first).setValue("Aliens", forKey: "title")
            try other.save()
            #expect(eventually { b.changes.tokens == [1, 2] })
            try item.setValue("Alien 3", forKey: "title")
            #expect(throws: (any Error).self) { try stale.save() }
            Thread.sleep(forTimeInterval: 0.2)
            #expect(b.changes.tokens == [1, 2])
            #expect(try a.coordinator.currentPersistentHistoryToken()?.transactionNumber == 2)
        }
    }

    @Test func aListenerWhoseConnectionIsTerminatedConnectsAgainAndCatchesUp() throws {
        try TestDatabase.run { database in
            let a = try FanOutPeer(database)
            let b = try FanOutPeer(database)
            let killer = try database.connection()
            let first = b.store.listenerProcessID
            #expect(first != 0)
            try killer.execute("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(first))])
            // Saved while B's listener may be away: B catches up after it reconnects (it
            // reports the newest token), and hears the saves after that.
            try a.save(["Alien"])
            #expect(eventually { b.store.listenerProcessID != 0 && b.store.listenerProcessID != first })
            #expect(eventually { b.shownTitles == ["Alien"] })
            try a.save(["Brazil"])
            #expect(eventually { b.shownTitles == ["Alien", "Brazil"] })
        }
    }

    @Test func theListeningConnectionEndsWithTheStore() throws {
        try TestDatabase.run { database in
            let checker = try database.connection()
            func exists(_ pid: Int32) throws -> Bool {
                try checker.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::integer", [.integer(Int64(pid))]).rows[0][0] == "1"
            }
            // Removed from its coordinator: the listener stops.
            let peer = try FanOutPeer(database)
            let pid = peer.store.listenerProcessID
            #expect(try exists(pid))
            peer.coordinator.removeStore(peer.store)
            #expect(peer.store.listenerProcessID == 0)
            #expect(try eventually { try !exists(pid) })

            // The coordinator and store released: the listener stops too.
            var coordinator: PersistentStoreCoordinator? = PersistentStoreCoordinator(model: try FanOutModel.model())
            var store: PostgreSQLPersistentStore? = PostgreSQLPersistentStore(url: database.url, schema: database.schema,
                                                                             tracksPersistentHistory: true,
                                                                             postsRemoteChangeNotifications: true)
            try coordinator?.addStore(try #require(store))
            weak let weakStore = store
            let second = try #require(store?.listenerProcessID)
            #expect(try exists(second))
            store = nil
            coordinator = nil
            #expect(weakStore == nil, "the listener's thread does not keep the store alive")
            #expect(try eventually { try !exists(second) })
        }
    }

    @Test func aStoreWithoutRemoteChangesDoesNotListen() throws {
        try TestDatabase.run { database in
            let coordinator = PersistentStoreCoordinator(model: try FanOutModel.model())
            let store = PostgreSQLPersistentStore(url: database.url, schema: database.schema, tracksPersistentHistory: true)
            try coordinator.addStore(store)
            #expect(store.tracksPersistentHistory && !store.postsRemoteChangeNotifications)
            #expect(store.listenerProcessID == 0)
        }
    }
}
