import Foundation
import Predicates
import Synchronization
import Testing
import ManagedObjects
import TestSupport

@Suite struct PersistentHistoryTokenTests {
    @Test func tokensOfOneStoreOrderByTransactionNumber() {
        let older = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 3)
        let newer = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 10)
        #expect(older < newer)
        #expect(!(newer < older))
        #expect(older == PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 3))
        #expect(older != PersistentHistoryToken(storeIdentifier: "T", transactionNumber: 3))
    }

    @Test func aTokenSurvivesEncoding() throws {
        let token = PersistentHistoryToken(storeIdentifier: "A1B2", transactionNumber: 42)
        let data = try JSONEncoder().encode(token)
        #expect(try JSONDecoder().decode(PersistentHistoryToken.self, from: data) == token)
    }
}

@Suite struct PersistentHistoryRequestTests {
    @Test func factoriesSayWhatTheyFetchOrDelete() {
        let token = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 4)
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: token).operation == .fetchAfterToken(token))
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: token).token == token)
        #expect(!PersistentHistoryChangeRequest.fetchHistory(after: token).isDelete)
        #expect(PersistentHistoryChangeRequest.deleteHistory(before: token).isDelete)
        let date = Date(timeIntervalSinceReferenceDate: 100)
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: date).operation == .fetchAfterDate(date))
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: date).token == nil)
        #expect(PersistentHistoryChangeRequest.deleteHistory(before: date).operation == .deleteBeforeDate(date))
        let transaction = PersistentHistoryTransaction(transactionNumber: 9, timestamp: date, storeIdentifier: "S")
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: transaction).token == transaction.token)
        #expect(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?).operation == .fetchAfterToken(nil))
        // Before a transaction: the transaction itself stays.
        #expect(PersistentHistoryChangeRequest.deleteHistory(before: transaction).operation
            == .deleteBeforeToken(PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 8)))
        #expect(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryTransaction?).operation == .deleteBeforeToken(nil))
    }

    @Test func authorFilters() {
        var request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(request.admits(author: nil))
        #expect(request.admits(author: "app"))
        request.excludedAuthors = ["app"]
        #expect(!request.admits(author: "app"))
        #expect(request.admits(author: "widget"))
        request.authors = ["widget"]
        #expect(request.admits(author: "widget"))
        #expect(!request.admits(author: nil))
        #expect(!request.admits(author: "other"))
    }

    @Test func storeDescriptionOptionsUseApplesKeys() {
        var description = StoreDescription(type: "InMemory")
        #expect(!description.tracksPersistentHistory)
        description.tracksPersistentHistory = true
        description.postsRemoteChangeNotifications = true
        #expect(description.options["NSPersistentHistoryTrackingKey"] == "YES")
        #expect(description.options["NSPersistentStoreRemoteChangeNotificationOptionKey"] == "YES")
        description.options["NSPersistentHistoryTrackingKey"] = "no"
        #expect(!description.tracksPersistentHistory)
        description.options["NSPersistentHistoryTrackingKey"] = "true"
        #expect(description.tracksPersistentHistory)
    }
}

@Suite struct PersistentHistoryContextTests {
    private func stack(tracks: Bool = true) throws -> (PersistentStoreCoordinator, HistoryRecordingStore) {
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        let store = HistoryRecordingStore(tracksHistory: tracks)
        try coordinator.addStore(store)
        return (coordinator, store)
    }

    @Test func aSaveCarriesAuthorContextNameAndChangedPropertyNames() throws {
        let (coordinator, store) = try stack()
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "importer"
        context.name = "background"
        try FruitStandModel.stock(context)
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        try apple.setValue(9.0, forKey: "radius")
        try context.save()
        let saves = store.received.withLock { $0 }
        #expect(saves.count == 2)
        #expect(saves.allSatisfy { $0.transactionAuthor == "importer" && $0.contextName == "background" })
        #expect(saves[1].updatedPropertyNames == [apple.objectID: ["radius"]])
    }

    @Test func aStoreWithoutHistoryGetsNoPropertyNames() throws {
        let (coordinator, store) = try stack(tracks: false)
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Square", forKey: "name")
        try context.save()
        #expect(store.received.withLock { $0.last?.updatedPropertyNames.isEmpty } == true)
        #expect(throws: PersistentHistoryError.noHistoryStore) { try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)) }
    }

    @Test func historyAfterATokenHoldsOnlyLaterTransactions() throws {
        let (coordinator, _) = try stack()
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = "app"
        try FruitStandModel.stock(context)
        let first = try #require(try coordinator.currentPersistentHistoryToken())
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Square", forKey: "name")
        try context.save()
        let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(all.count == 2)
        #expect(all[0].changes.count == 8)   // a stand, two crates, five fruit
        #expect(all[0].changes.allSatisfy { $0.changeType == .insert })
        #expect(all[0].author == "app")
        #expect(all[0].processIdentifier == ProcessInfo.processInfo.processName)
        let later = try context.execute(.fetchHistory(after: first)).transactions
        #expect(later.map(\.transactionNumber) == [all[1].transactionNumber])
        #expect(later[0].changes.map(\.changeType) == [.update])
        #expect(later[0].changes[0].updatedPropertyNames == ["name"])
        #expect(later[0].changes[0].changedObjectID == stand.objectID)
        var others = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        others.excludedAuthors = ["app"]
        #expect(try context.execute(others).transactions.isEmpty)
    }

    @Test func aTokenOfAnUnknownStoreIsRefusedByName() throws {
        let (coordinator, _) = try stack()
        let context = ManagedObjectContext(coordinator: coordinator)
        let stranger = PersistentHistoryToken(storeIdentifier: "NOT-A-STORE", transactionNumber: 1)
        let error = #expect(throws: PersistentHistoryError.self) { try context.execute(.fetchHistory(after: stranger)) }
        #expect(error == .unknownStore("NOT-A-STORE"))
        #expect(error?.errorDescription?.contains("NOT-A-STORE") == true)
    }

    @Test func mergingATransactionUpdatesAnotherContextAndItsController() throws {
        let (coordinator, _) = try stack()
        let writer = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(writer)
        let reader = ManagedObjectContext(coordinator: coordinator)
        let controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Crate", sortDescriptors: [KeyValueSortDescriptor(key: "label")]), context: reader)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 2)
        let token = try coordinator.currentPersistentHistoryToken()

        let stand = try #require(try writer.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let crate = try writer.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue("B", forKey: "label")
        try crate.setValue(stand, forKey: "stand")
        try writer.save()

        var inserted: Set<ManagedObjectID> = []
        let observation = reader.onObjectsDidChange { changes in inserted.formUnion(changes.inserted.map(\.objectID)) }
        for transaction in try reader.execute(.fetchHistory(after: token)).transactions {
            reader.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        observation.cancel()
        #expect(inserted.contains(crate.objectID))
        #expect(try controller.fetchedObjects?.map { try $0.value(forKey: "label") as? String } == ["A", "B", "O"])
    }

    @Test func mergingHistoryRemovesDeletedObjects() throws {
        let (coordinator, _) = try stack()
        let writer = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(writer)
        let reader = ManagedObjectContext(coordinator: coordinator)
        let orange = try #require(try reader.fetch(EntityFetchRequest(entityName: "Orange")).first)
        let token = try coordinator.currentPersistentHistoryToken()
        writer.delete(try writer.existingObject(with: orange.objectID))
        try writer.save()
        let transactions = try reader.execute(.fetchHistory(after: token)).transactions
        #expect(transactions.flatMap(\.changes).contains { $0.changeType == .delete && $0.changedObjectID == orange.objectID })
        reader.mergeChanges(fromHistory: transactions)
        #expect(orange.managedObjectContext == nil)
    }

    @Test func objectIDNotificationNamesTheObjectsByChangeType() throws {
        let id = { (key: Int64) in ManagedObjectID(entityName: "Stand", storeIdentifier: "S", primaryKey: key) }
        let transaction = PersistentHistoryTransaction(transactionNumber: 1, timestamp: Date(), storeIdentifier: "S", changes: [
            PersistentHistoryChange(changeIdentifier: 1, changedObjectID: id(1), changeType: .insert, transactionNumber: 1),
            PersistentHistoryChange(changeIdentifier: 2, changedObjectID: id(2), changeType: .update, updatedPropertyNames: ["name"], transactionNumber: 1),
            PersistentHistoryChange(changeIdentifier: 3, changedObjectID: id(3), changeType: .delete, transactionNumber: 1),
        ])
        let notification = transaction.objectIDNotification()
        #expect(notification.name == ManagedObjectContext.didSaveObjectIDsNotification)
        #expect(notification.userInfo?["inserted_objectIDs"] as? Set<ManagedObjectID> == [id(1)])
        #expect(notification.userInfo?["updated_objectIDs"] as? Set<ManagedObjectID> == [id(2)])
        #expect(notification.userInfo?["deleted_objectIDs"] as? Set<ManagedObjectID> == [id(3)])
    }

    @Test func deleteBeforeATokenForgetsThatTransactionAndEarlierOnes() throws {
        let (coordinator, _) = try stack()
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        let token = try #require(try coordinator.currentPersistentHistoryToken())
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Square", forKey: "name")
        try context.save()
        #expect(try context.execute(.deleteHistory(before: token)) == .deleted(1))
        let left = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        #expect(left.count == 1)
        #expect(left[0].transactionNumber > token.transactionNumber)
    }

    @Test func aSavePostsARemoteChangeWithTheNewToken() throws {
        let (coordinator, store) = try stack()
        let received = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
        let observation = coordinator.onRemoteChange { change in received.withLock { $0.append(change) } }
        let posted = Mutex<[PersistentStoreCoordinator.RemoteChange]>([])
        let center = NotificationCenter.default.addObserver(forName: PersistentStoreCoordinator.remoteChangeNotification,
                                                            object: coordinator, queue: nil) { notification in
            if let change = PersistentStoreCoordinator.RemoteChange(notification) { posted.withLock { $0.append(change) } }
        }
        defer { NotificationCenter.default.removeObserver(center) }
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        let token = try coordinator.currentPersistentHistoryToken()
        #expect(received.withLock { $0 } == [PersistentStoreCoordinator.RemoteChange(storeIdentifier: store.identifier, historyToken: token)])
        #expect(posted.withLock { $0 } == received.withLock { $0 })
        observation.cancel()
        let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try stand.setValue("Square", forKey: "name")
        try context.save()
        #expect(received.withLock { $0.count } == 1)
        #expect(posted.withLock { $0.count } == 2)
        coordinator.removeStore(store)
        try stand.setValue("Round", forKey: "name")
        #expect(throws: (any Error).self) { try context.save() }   // the store left: nothing posts
        #expect(posted.withLock { $0.count } == 2)
    }
}
