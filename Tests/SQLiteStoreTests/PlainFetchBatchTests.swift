import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// `fetch(_:)` with a `fetchBatchSize` (Apple: the fetch returns a batch-faulting array: the
/// IDs of every match are recorded, and "only data for objects up to the batchSize will be
/// fetched from the persistent store at a time").
@Suite struct PlainFetchBatchTests {
    static func fruitRequest(batchSize: Int, ascending: Bool = true) -> EntityFetchRequest {
        var request = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "serial", ascending: ascending)])
        request.fetchBatchSize = batchSize
        return request
    }

    @Test func aBatchedPlainFetchReturnsFaultsAndFillsOneBatchPerQuery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try FaultingTests.stack(directory)
        let objects = try context.fetch(Self.fruitRequest(batchSize: 8, ascending: false))
        #expect(objects.count == 60)
        #expect(objects.allSatisfy { $0.isFault })
        #expect(store.counts.withLock { $0.fetches } == 1)
        #expect(store.counts.withLock { $0.rowBatches } == 0)

        #expect(objects[17].stored("serial") as? Int64 == 42)   // batch 2: positions 16..<24
        #expect(store.counts.withLock { $0.rowBatches } == 1)
        #expect(objects[16..<24].allSatisfy { !$0.isFault })
        #expect(objects[0..<16].allSatisfy { $0.isFault })
        #expect(objects[24...].allSatisfy { $0.isFault })

        let serials = objects.map { $0.stored("serial") as? Int64 }
        #expect(serials == (0..<60).reversed().map { Int64($0) })
        // One query per batch; batch 2, let go while batches 0 and 1 were read, once more.
        #expect(store.counts.withLock { $0.rowBatches } == 8 + 1)
        #expect(store.counts.withLock { $0.singleRows } == 0)
    }

    @Test func onlyTheBatchesTouchedLastKeepTheirValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try FaultingTests.stack(directory)
        let objects = try context.fetch(Self.fruitRequest(batchSize: 8))
        let changed = objects[3]
        try changed.setValue("changed", forKey: "name")   // unsaved: keeps its values
        var sum: Int64 = 0
        for object in objects { sum += object.stored("serial") as? Int64 ?? 0 }
        #expect(sum == (0..<60).reduce(0, +))
        let loaded = objects.filter { !$0.isFault }
        #expect(loaded.count <= 2 * 8 + 1)
        #expect(loaded.contains { $0 === changed })
        #expect(changed.stored("name") as? String == "changed")
        #expect(objects[0].isFault)
        // A batch let go loads again, with the store's values, in one query.
        let batches = store.counts.withLock { $0.rowBatches }
        #expect(objects[1].stored("serial") as? Int64 == 1)
        #expect(store.counts.withLock { $0.rowBatches } == batches + 1)
        #expect(objects[0..<8].allSatisfy { !$0.isFault })
        #expect(store.counts.withLock { $0.singleRows } == 0)
    }

    @Test func aFetchWithoutABatchSizeReturnsLoadedObjects() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try FaultingTests.stack(directory)
        let objects = try context.fetch(Self.fruitRequest(batchSize: 0))
        #expect(objects.count == 60)
        #expect(objects.allSatisfy { !$0.isFault })
        #expect(store.counts.withLock { $0.rowBatches } == 0)
    }

    @Test func unsavedChangesTakePartInABatchedFetch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _) = try FaultingTests.stack(directory)
        let inserted = try context.insertNewObject(forEntityNamed: "Fruit")
        try inserted.setValue(Int64(1000), forKey: "serial")
        var request = Self.fruitRequest(batchSize: 7)
        request.predicate = try KeyValuePredicate(format: "serial >= 55")
        let objects = try context.fetch(request)
        #expect(objects.map { $0.stored("serial") as? Int64 } == [55, 56, 57, 58, 59, 1000])
        #expect(objects.last === inserted)
    }

    @Test func prefetchingFillsRelatedObjectsPerBatch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _) = try FaultingTests.stack(directory)
        var request = Self.fruitRequest(batchSize: 10)
        request.relationshipKeyPathsForPrefetching = ["stand"]
        let objects = try context.fetch(request)
        #expect(objects.allSatisfy { $0.isFault })
        let stand = objects[0].stored("stand") as? ManagedObject
        let stands = objects[0..<10].compactMap { $0.primitiveValue(forKey: "stand") as? ManagedObject }
        #expect(!stands.isEmpty)
        #expect(stands.allSatisfy { !$0.isFault })
        #expect(stand.map { !$0.isFault } ?? true)
    }

    @Test func rowsReadFromTheFileArePackedAndReadByName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try FaultingTests.stack(directory)
        let object = try #require(try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: try KeyValuePredicate(format: "serial == 7"))).first)
        let row = try #require(try store.base.row(for: object.objectID))
        #expect(row.columns != nil)
        #expect(row.attributes["serial"] == .integer(7))
        #expect(row.attributeValue(named: "serial") == .integer(7))
        // The same values as a dictionary make an equal row; a change makes a different one.
        let plain = StoreRow(objectID: row.objectID, version: row.version, attributes: row.attributes, relationships: row.relationships)
        #expect(plain == row)
        var changed = row
        changed.attributes["serial"] = .integer(8)
        #expect(changed.columns == nil)
        #expect(changed.attributes["serial"] == .integer(8))
        #expect(changed != row)
        // Every attribute of the object equals what the packed row gives it.
        for attribute in object.entity.allProperties.compactMap(\.attribute) {
            let fromRow = row.attributeValue(named: attribute.name).flatMap { attribute.slotValue(from: $0) }
            #expect(String(describing: fromRow) == String(describing: object.stored(attribute.name)), "\(attribute.name)")
        }
    }
}
