import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// An object that, woken from the fetch that made it, looks up the object with key 4 (which a
/// later row of the same fetch names) in its context.
private final class PeekingNote: ManagedObject {
    var peeked: ManagedObject?
    override func awakeFromFetch() {
        guard peeked == nil, let context = managedObjectContext, let store = objectID.storeIdentifier,
              stored("rank") as? Int64 == 0 else { return }
        peeked = try? context.existingObject(with: ManagedObjectID(entityName: "Note", storeIdentifier: store, primaryKey: 4))
    }
}

/// The SQLite store's answer names each object once, so a fetch into a context with no
/// registered objects makes each row's object without looking it up first, until something
/// registers objects on the way: then rows are looked up again, and a row whose object was
/// registered meanwhile gets that object, not a second one.
@Suite struct RegistryDuringFetchTests {
    static func model() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("rank", .integer64), .attribute("title", .string)]),
        ])
        try model.setManagedObjectClass(PeekingNote.self, forEntityNamed: "Note")
        return model
    }

    @Test func anObjectRegisteredWhileWakingIsTheOneItsRowGets() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Registry.sqlite")
        do {
            let (_, context) = try openStack(try Self.model(), at: url)
            // Keys 1…6 with ranks 5, 4, …, 0: key 6 (rank 0) comes first in rank order.
            for rank in stride(from: 5, through: 0, by: -1) {
                let note = try context.insertNewObject(forEntityNamed: "Note")
                try note.setValue(Int64(rank), forKey: "rank")
                try note.setValue("note \(rank)", forKey: "title")
            }
            try context.save()
        }
        let (store, context) = try openStack(try Self.model(), at: url)
        let objects = try context.fetch(EntityFetchRequest(entityName: "Note", sortDescriptors: [KeyValueSortDescriptor(key: "rank")]))
        #expect(objects.map { $0.stored("rank") as? Int64 } == [0, 1, 2, 3, 4, 5])
        let first = try #require(objects.first as? PeekingNote)
        let peeked = try #require(first.peeked)
        // Key 4 has rank 2: the fetch's object for it is the one looked up while waking.
        let four = try #require(objects.first { $0.objectID == peeked.objectID })
        #expect(four === peeked)
        #expect(four.stored("title") as? String == "note 2")
        #expect(context.registeredObjects.count == 6)
        #expect(Set(objects.map(ObjectIdentifier.init)).count == 6)

        // The store says its rows name each object once; rows changed afterwards do not.
        var answer = try store.fetch(StoreFetchRequest(entityNames: ["Note"]))
        #expect(answer.rowsNameEachObjectOnce)
        answer.rows.append(answer.rows[0])
        #expect(!answer.rowsNameEachObjectOnce)
        #expect(!StoreFetchResult(rows: [], appliedPredicate: true, appliedOrderAndLimits: true).rowsNameEachObjectOnce)
    }
}
