import Foundation
import Testing
@testable import ManagedObjects

/// The in-memory store finds new rows (keys above every stored key) without a position entry
/// each, by a search of their ascending keys, until a replacement or removal gives them
/// entries: every row is still found by its ID, and only by it.
@Suite struct InMemoryRowPositionTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("rank", .integer64)]),
            EntityDescription(name: "Tag", properties: [.attribute("rank", .integer64)]),
        ])
    }()

    func rank(of id: ManagedObjectID, in store: any PersistentStore) throws -> Int64? {
        guard case .integer(let rank)? = try store.row(for: id)?.attributes["rank"] else { return nil }
        return rank
    }

    @Test func rowsAreFoundByTheirIDsThroughSavesReplacementsAndRemovals() throws {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        let store = coordinator.stores[0]
        let context = ManagedObjectContext(coordinator: coordinator)
        var notes: [ManagedObject] = []
        for round in 0..<3 {
            for index in 0..<10 {
                let note = try context.insertNewObject(forEntityNamed: "Note")
                try note.setValue(Int64(10 * round + index), forKey: "rank")
                notes.append(note)
            }
            try context.save()
        }
        // Found by a search of the new rows: each ID its own row.
        for (index, note) in notes.enumerated() { #expect(try rank(of: note.objectID, in: store) == Int64(index)) }
        // The same key of another entity, or above every key, names no row.
        let tag = notes[5].objectID.withPrimaryKeyOfEntity("Tag")
        #expect(try store.row(for: tag) == nil)
        #expect(try store.row(for: notes[29].objectID.withPrimaryKey(1_000)) == nil)
        // A replaced row (an update) and a removed one (a delete) give every row its entry.
        try notes[3].setValue(Int64(300), forKey: "rank")
        try notes[25].setValue(Int64(2500), forKey: "rank")
        context.delete(notes[12])
        try context.save()
        var expected = (0..<30).map { Int64($0) }
        expected[3] = 300
        expected[25] = 2500
        for (index, note) in notes.enumerated() where index != 12 {
            #expect(try rank(of: note.objectID, in: store) == expected[index])
        }
        #expect(try store.row(for: notes[12].objectID) == nil)
        // New rows after that are searched again, beside the entries.
        let late = try context.insertNewObject(forEntityNamed: "Note")
        try late.setValue(Int64(99), forKey: "rank")
        try context.save()
        #expect(try rank(of: late.objectID, in: store) == 99 && rank(of: notes[3].objectID, in: store) == 300)
        let other = ManagedObjectContext(coordinator: coordinator)
        let ranks = try other.fetch(EntityFetchRequest(entityName: "Note")).map { try $0.value(forKey: "rank") as! Int64 }
        #expect(ranks.sorted() == (expected.enumerated().filter { $0.offset != 12 }.map(\.element) + [99]).sorted())
    }
}

private extension ManagedObjectID {
    /// The ID with this one's store and key, of another entity.
    func withPrimaryKeyOfEntity(_ entity: String) -> ManagedObjectID {
        guard case .integer(let key) = referenceObject else { return self }
        return ManagedObjectID(entityName: entity, storeIdentifier: storeIdentifier!, primaryKey: key)
    }
}
