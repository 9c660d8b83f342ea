import Foundation
import ManagedObjects
import Predicates
import Synchronization
import Testing
@testable import PostgreSQLStore

/// The PostgreSQL store's persistent history: transactions and changes recorded in the save's
/// transaction, fetched after a token or a date, deleted before one.
@Suite struct HistoryTests {
    static func model() throws -> ManagedObjectModel {
        var code = AttributeDescription(name: "code", type: .string)
        code.preservesValueInHistoryOnDeletion = true
        var weight = AttributeDescription(name: "weight", type: .binaryData)
        weight.preservesValueInHistoryOnDeletion = true
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [.attribute("title", .string), .attribute("serial", .integer64),
                                                         .attribute(code), .attribute(weight)]),
        ])
    }

    static func context(_ database: TestDatabase, tracking: Bool = true) throws -> (ManagedObjectContext, PostgreSQLPersistentStore) {
        let coordinator = PersistentStoreCoordinator(model: try model())
        let store = PostgreSQLPersistentStore(url: database.url, schema: database.schema, tracksPersistentHistory: tracking)
        try coordinator.addStore(store)
        return (ManagedObjectContext(coordinator: coordinator), store)
    }

    @Test func eachSaveRecordsATransactionWithItsChanges() throws {
        try TestDatabase.run { database in
            let (context, store) = try Self.context(database)
            #expect(try store.currentHistoryToken() == nil)
            context.transactionAuthor = "importer"
            context.name = "background"
            let before = Date().addingTimeInterval(-5)
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue("Alien", forKey: "title")
            try item.setValue("A-1", forKey: "code")
            try item.setValue(Data([0, 1, 255]), forKey: "weight")
            try context.save()
            try item.setValue(Int64(7), forKey: "serial")
            context.transactionAuthor = nil
            try context.save()
            context.delete(item)
            try context.save()

            let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
            #expect(transactions.map(\.author) == ["importer", nil, nil])
            #expect(transactions.allSatisfy { $0.contextName == "background" && $0.storeIdentifier == store.identifier })
            #expect(transactions.allSatisfy { $0.timestamp > before && $0.timestamp < Date().addingTimeInterval(5) })
            #expect(transactions.map { $0.changes.map(\.changeType) } == [[.insert], [.update], [.delete]])
            #expect(transactions.allSatisfy { $0.changes.allSatisfy { $0.changedObjectID == item.objectID } })
            #expect(transactions[1].changes[0].updatedPropertyNames == ["serial"])
            #expect(transactions[0].changes[0].updatedPropertyNames == nil)
            #expect(transactions[2].changes[0].tombstone == ["code": .string("A-1"), "weight": .data(Data([0, 1, 255]))])
            let ids = transactions.flatMap(\.changes).map(\.changeIdentifier)
            #expect(ids == ids.sorted() && Set(ids).count == 3)
            #expect(try store.currentHistoryToken() == transactions.last?.token)
        }
    }

    @Test func fetchingAfterATokenOrADateAndFiltering() throws {
        try TestDatabase.run { database in
            let (context, store) = try Self.context(database)
            for (serial, author) in [(1, "a"), (2, "b"), (3, "a"), (4, nil)] as [(Int64, String?)] {
                context.transactionAuthor = author
                try context.insertNewObject(forEntityNamed: "Item").setValue(serial, forKey: "serial")
                try context.save()
            }
            let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(all.count == 4)
            #expect(try context.execute(.fetchHistory(after: all[1].token)).transactions.map(\.transactionNumber) == [3, 4])
            #expect(try context.execute(.fetchHistory(after: all[1])).transactions.map(\.transactionNumber) == [3, 4])
            #expect(try context.execute(.fetchHistory(after: all[2].timestamp)).transactions.map(\.transactionNumber) == [4])
            var request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.authors = ["a"]
            #expect(try context.execute(request).transactions.map(\.transactionNumber) == [1, 3])
            request.authors = nil
            request.excludedAuthors = ["a"]
            #expect(try context.execute(request).transactions.map(\.transactionNumber) == [2, 4])
            request.excludedAuthors = []
            request.fetchLimit = 2
            #expect(try context.execute(request).transactions.map(\.transactionNumber) == [1, 2])
            request.fetchLimit = 0
            request.resultType = .count
            #expect(try context.execute(request) == .count(4))
            request.resultType = .transactionsOnly
            #expect(try context.execute(request).transactions.allSatisfy(\.changes.isEmpty))
            request.resultType = .changesOnly
            #expect(try context.execute(request).changes.count == 4)
            // A token of another store.
            let foreign = PersistentHistoryToken(storeIdentifier: "not-this-store", transactionNumber: 1)
            #expect(throws: PersistentHistoryError.self) { try store.executeHistoryRequest(.fetchHistory(after: foreign)) }
        }
    }

    @Test func deletingBeforeATokenExpiresOlderTokens() throws {
        try TestDatabase.run { database in
            let (context, store) = try Self.context(database)
            for serial in 1...4 {
                try context.insertNewObject(forEntityNamed: "Item").setValue(Int64(serial), forKey: "serial")
                try context.save()
            }
            let all = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(try context.execute(.deleteHistory(before: all[1].token)) == .deleted(2))
            // After the deleted token itself: nothing is missing.
            #expect(try context.execute(.fetchHistory(after: all[1].token)).transactions.map(\.transactionNumber) == [3, 4])
            // After an older token: the transactions in between are gone.
            #expect(throws: PersistentHistoryError.tokenExpired(all[0].token)) {
                try context.execute(.fetchHistory(after: all[0].token))
            }
            // The changes went with their transactions.
            let connection = try database.connection()
            #expect(try connection.execute("SELECT count(*) FROM \"ACHANGE\"").rows[0][0] == "2")
            // New transactions keep counting from the last number.
            try context.insertNewObject(forEntityNamed: "Item").setValue(Int64(5), forKey: "serial")
            try context.save()
            #expect(try store.currentHistoryToken()?.transactionNumber == 5)
            #expect(try context.execute(.deleteHistory(before: nil as PersistentHistoryToken?)) == .deleted(3))
            #expect(try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.isEmpty)
        }
    }

    @Test func aCounterTableDroppedByHandStartsAfterTheNumbersInUse() throws {
        try TestDatabase.run { database in
            do {
                let (context, _) = try Self.context(database)
                let item = try context.insertNewObject(forEntityNamed: "Item")
                try item.setValue("Alien", forKey: "title")
                try context.save()
            }
            try database.connection().execute("DROP TABLE \"ATRANSACTIONCOUNTER\"")
            let (context, _) = try Self.context(database)
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue("Brazil", forKey: "title")
            try context.save()
            let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(transactions.map(\.transactionNumber) == [1, 2])
            let ids = transactions.flatMap(\.changes).map(\.changeIdentifier)
            #expect(Set(ids).count == 2)
        }
    }

    @Test func withoutTrackingNothingIsRecorded() throws {
        try TestDatabase.run { database in
            let (context, store) = try Self.context(database, tracking: false)
            try context.insertNewObject(forEntityNamed: "Item").setValue(Int64(1), forKey: "serial")
            try context.save()
            #expect(!store.tracksPersistentHistory)
            #expect(throws: PersistentHistoryError.self) { try store.currentHistoryToken() }
            let connection = try database.connection()
            #expect(try connection.execute("SELECT to_regclass('\"ATRANSACTION\"') IS NULL").rows[0][0] == "t")
            // Opened again with tracking: the tables are added, history starts there.
            let (again, tracked) = try Self.context(database)
            try again.insertNewObject(forEntityNamed: "Item").setValue(Int64(2), forKey: "serial")
            try again.save()
            #expect(try tracked.currentHistoryToken()?.transactionNumber == 1)
        }
    }

    @Test func concurrentSavesAreNumberedInCommitOrder() throws {
        try TestDatabase.run { database in
            // Every failure is kept and reported: a thread whose store failed to load or whose
            // save threw would otherwise show only as missing transactions.
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                do {
                    let (context, _) = try Self.context(database)
                    for serial in 0..<10 {
                        try context.insertNewObject(forEntityNamed: "Item").setValue(Int64(index * 100 + serial), forKey: "serial")
                        try context.save()
                    }
                } catch {
                    failures.withLock { $0.append("thread \(index): \(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let transactions = try Self.context(database).0.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(transactions.map(\.transactionNumber) == Array(1...40))
            // Numbers follow commit order: timestamps (taken inside the numbered part of the
            // transaction, under the counter's lock) never go backwards.
            #expect(transactions.map(\.timestamp) == transactions.map(\.timestamp).sorted())
        }
    }
}
