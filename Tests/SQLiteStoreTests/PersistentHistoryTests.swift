import Foundation
import Predicates
import Synchronization
import Testing
import TestSupport
import ManagedObjects
@testable import SQLiteStore

/// Persistent history in the SQLite store: Apple's tables (LAYOUT.md §7), recording inside the
/// save's transaction, fetching and deleting, merging into contexts.
@Suite struct PersistentHistoryTests {
    /// Movie (title kept in history after a delete) and Studio.
    static func model(preservingTitles: Bool = true) throws -> ManagedObjectModel {
        var title = AttributeDescription(name: "title", type: .string)
        title.preservesValueInHistoryOnDeletion = preservingTitles
        var year = AttributeDescription(name: "year", type: .integer64)
        year.preservesValueInHistoryOnDeletion = preservingTitles
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [
                .attribute(title), .attribute(year), .attribute("rating", .double),
                .toOne("studio", "Studio", inverse: "movies"),
            ]),
            EntityDescription(name: "Studio", properties: [
                .attribute("name", .string), .toMany("movies", "Movie", inverse: "studio"),
            ]),
        ])
    }

    /// A coordinator with one history-tracking SQLite store at `url`, and a context on it.
    static func stack(at url: URL, model: ManagedObjectModel, remote: Bool = false)
        throws -> (PersistentStoreCoordinator, SQLitePersistentStore, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = SQLitePersistentStore(url: url, tracksPersistentHistory: true, postsRemoteChangeNotifications: remote,
                                          remoteChangeCheckInterval: .milliseconds(10))
        try coordinator.addStore(store)
        return (coordinator, store, ManagedObjectContext(coordinator: coordinator))
    }

    @discardableResult
    static func movie(_ title: String, year: Int64 = 2000, in context: ManagedObjectContext) throws -> ManagedObject {
        let movie = try context.insertNewObject(forEntityNamed: "Movie")
        try movie.setValue(title, forKey: "title")
        try movie.setValue(year, forKey: "year")
        return movie
    }

    static let noToken: PersistentHistoryToken? = nil

    @Test func aNewStoreHasApplesHistoryTablesAndPrimaryKeyRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        _ = try Self.stack(at: url, model: try Self.model(preservingTitles: false))
        let apple = try directory.copyOfFixture("plaso-ios/NoteStore.sqlite", inSQLiteStoreTests: true)
        let history = "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'A%' OR name LIKE 'Z_TRANSACTION%' ORDER BY name"
        let ours = try query(url, history)
        #expect(ours.count == 11)
        #expect(ours == (try query(apple, history)))
        #expect(try query(url, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
            == [[.integer(16001), .text("CHANGE"), .integer(0), .integer(0)],
                [.integer(16002), .text("TRANSACTION"), .integer(0), .integer(0)],
                [.integer(16003), .text("TRANSACTIONSTRING"), .integer(0), .integer(0)]])
    }

    @Test func aStoreWithoutTrackingHasNoHistory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (store, context) = try openStack(try Self.model(), at: url)
        try Self.movie("Heat", in: context)
        try context.save()
        #expect(try query(url, "SELECT name FROM sqlite_master WHERE name = 'ATRANSACTION'").isEmpty)
        #expect(throws: PersistentHistoryError.notTracking(storeIdentifier: store.identifier)) { try store.currentHistoryToken() }
        #expect(throws: PersistentHistoryError.noHistoryStore) { try context.execute(.fetchHistory(after: Self.noToken)) }
    }

    @Test func everySaveWritesItsTransactionAndChangesInApplesLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (_, store, context) = try Self.stack(at: url, model: try Self.model())
        context.transactionAuthor = "importer"
        context.name = "viewContext"
        let heat = try Self.movie("Heat", year: 1995, in: context)
        let ronin = try Self.movie("Ronin", year: 1998, in: context)
        try context.save()
        try heat.setValue(8.3, forKey: "rating")
        context.delete(ronin)
        try context.save()

        let transactions = try query(url, "SELECT Z_PK, Z_ENT, Z_OPT, typeof(ZTIMESTAMP) FROM ATRANSACTION ORDER BY Z_PK")
        #expect(transactions == [[.integer(1), .integer(16002), .null, .text("real")], [.integer(2), .integer(16002), .null, .text("real")]])
        let names = try query(url, "SELECT a.ZNAME, c.ZNAME, p.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS "
                              + "JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS")
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0 == [.text("importer"), .text("viewContext"), .text(ProcessInfo.processInfo.processName)] })
        // One string row per distinct name, shared by both transactions.
        #expect(try query(url, "SELECT COUNT(*) FROM ATRANSACTIONSTRING") == [[.integer(3)]])
        let movieEntity = try #require(try query(url, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Movie'").first?.first)
        let changes = try query(url, "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK")
        #expect(changes == [
            [.integer(16001), .null, .integer(0), movieEntity, .integer(1), .integer(1)],
            [.integer(16001), .null, .integer(0), movieEntity, .integer(2), .integer(1)],
            [.integer(16001), .null, .integer(1), movieEntity, .integer(1), .integer(2)],
            [.integer(16001), .null, .integer(2), movieEntity, .integer(2), .integer(2)],
        ])
        #expect(try query(url, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
            == [[.integer(16001), .integer(4)], [.integer(16002), .integer(2)], [.integer(16003), .integer(3)]])

        let read = try store.executeHistoryRequest(.fetchHistory(after: Self.noToken)).transactions
        #expect(read.map(\.transactionNumber) == [1, 2])
        #expect(read[0].author == "importer")
        #expect(read[0].contextName == "viewContext")
        #expect(read[0].processIdentifier == ProcessInfo.processInfo.processName)
        #expect(read[0].storeIdentifier == store.identifier)
        #expect(abs(read[1].timestamp.timeIntervalSinceNow) < 60)
        #expect(read[0].changes.map(\.changedObjectID) == [heat.objectID, ronin.objectID])
        let update = read[1].changes[0]
        #expect(update.changeType == .update)
        #expect(update.updatedPropertyNames == ["rating"])
        let delete = read[1].changes[1]
        #expect(delete.changeType == .delete)
        #expect(delete.changedObjectID == ronin.objectID)
        #expect(delete.tombstone == ["title": .string("Ronin"), "year": .integer(1998)])
        #expect(read.flatMap(\.changes).map(\.changeIdentifier) == [1, 2, 3, 4])
    }

    @Test func aFailedSaveRecordsNoHistory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (_, _, first) = try Self.stack(at: url, model: try Self.model())
        let heat = try Self.movie("Heat", in: first)
        try first.save()
        let (_, _, second) = try Self.stack(at: url, model: try Self.model())
        let other = try second.existingObject(with: heat.objectID)
        try other.setValue(9.0, forKey: "rating")
        try second.save()
        try heat.setValue(1.0, forKey: "rating")
        #expect(throws: (any Error).self) { try first.save() }   // a conflict: the default merge policy throws
        #expect(try query(url, "SELECT COUNT(*) FROM ATRANSACTION") == [[.integer(2)]])
        #expect(try query(url, "SELECT COUNT(*) FROM ACHANGE") == [[.integer(2)]])
    }

    @Test func aCounterSetBackByHandContinuesAfterTheLargestTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        do {
            let (_, _, context) = try Self.stack(at: url, model: try Self.model())
            try Self.movie("Heat", in: context)
            try context.save()
        }
        try SQLiteConnection(path: url.path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = -1 WHERE Z_ENT > 16000")
        let (_, _, context) = try Self.stack(at: url, model: try Self.model())
        try Self.movie("Ronin", in: context)
        try context.save()
        let transactions = try context.execute(.fetchHistory(after: Self.noToken)).transactions
        #expect(transactions.map(\.transactionNumber) == [1, 2])
        #expect(Set(transactions.flatMap(\.changes).map(\.changeIdentifier)).count == 2)
    }

    @Test func fetchAfterTokenAndDateAndLimitsAndAuthors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (coordinator, _, context) = try Self.stack(at: directory.file("Movies.sqlite"), model: try Self.model())
        context.transactionAuthor = "app"
        try Self.movie("A", in: context)
        try context.save()
        let afterFirst = try #require(try coordinator.currentPersistentHistoryToken())
        #expect(afterFirst.transactionNumber == 1)
        Thread.sleep(forTimeInterval: 0.01)
        let between = Date()
        Thread.sleep(forTimeInterval: 0.01)
        context.transactionAuthor = "widget"
        try Self.movie("B", in: context)
        try context.save()
        try Self.movie("C", in: context)
        try context.save()

        #expect(try context.execute(.fetchHistory(after: afterFirst)).transactions.map(\.transactionNumber) == [2, 3])
        #expect(try context.execute(.fetchHistory(after: between)).transactions.map(\.transactionNumber) == [2, 3])
        var limited = PersistentHistoryChangeRequest.fetchHistory(after: Self.noToken)
        limited.fetchLimit = 2
        #expect(try context.execute(limited).transactions.map(\.transactionNumber) == [1, 2])
        var notMine = PersistentHistoryChangeRequest.fetchHistory(after: Self.noToken)
        notMine.excludedAuthors = ["widget"]
        #expect(try context.execute(notMine).transactions.map(\.author) == ["app"])
        var count = PersistentHistoryChangeRequest.fetchHistory(after: Self.noToken)
        count.resultType = .count
        #expect(try context.execute(count) == .count(3))
        var onlyTransactions = PersistentHistoryChangeRequest.fetchHistory(after: afterFirst)
        onlyTransactions.resultType = .transactionsOnly
        #expect(try context.execute(onlyTransactions).transactions.allSatisfy(\.changes.isEmpty))
        var onlyChanges = PersistentHistoryChangeRequest.fetchHistory(after: afterFirst)
        onlyChanges.resultType = .changesOnly
        #expect(try context.execute(onlyChanges).changes.map(\.transactionNumber) == [2, 3])
        let latest = try #require(try coordinator.currentPersistentHistoryToken())
        #expect(try context.execute(.fetchHistory(after: latest)).transactions.isEmpty)
    }

    @Test func deleteBeforeTokenOrDateAndTheExpiredToken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (coordinator, _, context) = try Self.stack(at: url, model: try Self.model())
        for title in ["A", "B", "C", "D"] {
            try Self.movie(title, in: context)
            try context.save()
        }
        let tokens = try context.execute(.fetchHistory(after: Self.noToken)).transactions.map(\.token)
        #expect(try context.execute(.deleteHistory(before: tokens[1])) == .deleted(2))
        #expect(try context.execute(.fetchHistory(after: Self.noToken)).transactions.map(\.transactionNumber) == [3, 4])
        #expect(try query(url, "SELECT DISTINCT ZTRANSACTIONID FROM ACHANGE ORDER BY 1") == [[.integer(3)], [.integer(4)]])
        // After token 2 the history is whole; after token 1 it is not (2 was deleted).
        #expect(try context.execute(.fetchHistory(after: tokens[1])).transactions.count == 2)
        #expect(throws: PersistentHistoryError.tokenExpired(tokens[0])) { try context.execute(.fetchHistory(after: tokens[0])) }
        #expect(try context.execute(.deleteHistory(before: Date().addingTimeInterval(60))) == .deleted(2))
        #expect(try context.execute(.fetchHistory(after: Self.noToken)).transactions.isEmpty)
        #expect(throws: PersistentHistoryError.tokenExpired(tokens[2])) { try context.execute(.fetchHistory(after: tokens[2])) }
        // The counter stays: the current token is still the newest transaction's.
        #expect(try coordinator.currentPersistentHistoryToken() == tokens[3])
        try Self.movie("E", in: context)
        try context.save()
        #expect(try context.execute(.fetchHistory(after: tokens[3])).transactions.map(\.transactionNumber) == [5])
    }

    @Test func anotherCoordinatorMergesTheHistoryAndItsControllerUpdates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (_, _, writer) = try Self.stack(at: url, model: try Self.model())
        let heat = try Self.movie("Heat", in: writer)
        let ronin = try Self.movie("Ronin", in: writer)
        try writer.save()
        let (readerCoordinator, _, reader) = try Self.stack(at: url, model: try Self.model())
        let controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "title")]), context: reader)
        try controller.performFetch()
        let titles = { try controller.fetchedObjects?.map { try $0.value(forKey: "title") as? String } }
        #expect(try titles() == ["Heat", "Ronin"])
        let readHeat = try reader.existingObject(with: heat.objectID)
        let token = try readerCoordinator.currentPersistentHistoryToken()

        try heat.setValue("Heat (1995)", forKey: "title")
        writer.delete(ronin)
        try Self.movie("Alien", in: writer)
        try writer.save()

        for transaction in try reader.execute(.fetchHistory(after: token)).transactions {
            reader.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        #expect(try titles() == ["Alien", "Heat (1995)"])
        #expect(try readHeat.value(forKey: "title") as? String == "Heat (1995)")
    }

    @Test func theStoreDescriptionOptionsTurnHistoryOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var description = StoreDescription.sqlite(at: directory.file("Movies.sqlite"))
        description.tracksPersistentHistory = true
        description.postsRemoteChangeNotifications = true
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        let store = try #require(try coordinator.addStore(with: description) as? SQLitePersistentStore)
        #expect(store.tracksPersistentHistory)
        #expect(store.postsRemoteChangeNotifications)
        #expect(try store.currentHistoryToken() == nil)
    }

    @Test func aRemoteChangeIsPostedForThisCoordinatorsSaveAndAnothers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let (coordinator, store, context) = try Self.stack(at: url, model: try Self.model(), remote: true)
        let received = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
        let observation = coordinator.onRemoteChange { change in received.withLock { $0.append(change) } }
        try Self.movie("Heat", in: context)
        try context.save()
        // Announced by the save (or by the watcher, if it saw the commit first): once.
        let deadline = ContinuousClock.now + .seconds(10)
        while received.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let own = try #require(received.withLock { $0.first })
        #expect(own.historyToken?.transactionNumber == 1)
        #expect(own.storeIdentifier == store.identifier)
        #expect(own.storeURL == url)

        let (_, _, other) = try Self.stack(at: url, model: try Self.model())
        try Self.movie("Ronin", in: other)
        try other.save()
        while received.withLock({ $0.count }) < 2, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(received.withLock { $0.map(\.historyToken?.transactionNumber) } == [1, 2])
        observation.cancel()
        coordinator.removeStore(store)
    }

    @Test func aRemovedStoreStopsPostingAndAStoreWithoutHistoryPostsWithoutToken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let coordinator = PersistentStoreCoordinator(model: try Self.model())
        let store = SQLitePersistentStore(url: url, postsRemoteChangeNotifications: true, remoteChangeCheckInterval: .milliseconds(10))
        try coordinator.addStore(store)
        let received = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
        let observation = coordinator.onRemoteChange { change in received.withLock { $0.append(change) } }
        let (_, other) = try openStack(try Self.model(), at: url)
        try Self.movie("Heat", in: other)
        try other.save()
        let deadline = ContinuousClock.now + .seconds(10)
        while received.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let change = try #require(received.withLock { $0.first })
        #expect(change.historyToken == nil)
        #expect(change.storeIdentifier == store.identifier)

        coordinator.removeStore(store)
        Thread.sleep(forTimeInterval: 0.03)   // a check under way finishes
        let before = received.withLock { $0.count }
        try Self.movie("Ronin", in: other)
        try other.save()
        Thread.sleep(forTimeInterval: 0.1)   // ten check intervals
        #expect(received.withLock { $0.count } == before)
        observation.cancel()
    }
}

/// History written by Apple's Core Data (the iOS Notes store) reads back.
@Suite struct AppleHistoryTests {
    @Test func theNotesStoresHistoryReadsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("plaso-ios/NoteStore.sqlite", inSQLiteStoreTests: true)
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        let layout = try #require(try SQLiteHistoryLayout.existing(in: connection))
        #expect(layout.usesStringTable)
        #expect(layout.tombstoneColumns == 0)
        var names: [Int64: String] = [:]
        for row in try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            if case .integer(let number) = row[0], case .text(let name) = row[1] { names[number] = name }
        }
        let store = "18ECAF41-5FEE-4A53-B472-A13E1E0753E7"
        let reader = SQLiteHistoryReader(connection: connection, storeIdentifier: store, layout: layout, entityNames: names, entities: [:])
        #expect(try reader.currentToken() == PersistentHistoryToken(storeIdentifier: store, transactionNumber: 84))
        let transactions = try reader.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(transactions.count == 84)
        #expect(transactions.flatMap(\.changes).count == 298)
        let types = Dictionary(grouping: transactions.flatMap(\.changes), by: \.changeType).mapValues(\.count)
        #expect(types == [.insert: 78, .update: 213, .delete: 7])
        #expect(transactions[0].bundleIdentifier == "com.apple.accountsd")
        #expect(transactions[0].processIdentifier == "accountsd")
        #expect(transactions[0].author == nil)
        #expect(transactions[0].timestamp == Date(timeIntervalSinceReferenceDate: 703_259_921.722601))
        let third = transactions[2]
        #expect(third.author == "8597")
        #expect(third.contextName == "ViewContext")
        #expect(third.bundleIdentifier == "com.apple.mobilenotes")
        #expect(third.processIdentifier == "MobileNotes")
        #expect(third.changes.map(\.changedObjectID.entityName) == ["ICAccount", "ICCloudState", "ICCloudState", "ICFolder", "ICFolder", "ICCloudState"])
        #expect(third.changes.map(\.changedObjectID.referenceObject) == [.integer(5), .integer(5), .integer(7), .integer(6), .integer(7), .integer(6)])
        let after = try reader.execute(.fetchHistory(after: PersistentHistoryToken(storeIdentifier: store, transactionNumber: 80)))
        #expect(after.transactions.map(\.transactionNumber) == [81, 82, 83, 84])
        #expect(after.changes.count == 15)
    }

    @Test func preparingAnAppleStoreKeepsItsHistoryTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("plaso-ios/NoteStore.sqlite", inSQLiteStoreTests: true)
        let tables = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        let keys = "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let (beforeTables, beforeKeys) = (try query(url, tables), try query(url, keys))
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        let layout = try SQLiteHistoryLayout.prepare(connection, schema: SQLiteSchema())
        #expect(layout.usesStringTable)
        #expect(try query(url, tables) == beforeTables)
        #expect(try query(url, keys) == beforeKeys)
    }
}
