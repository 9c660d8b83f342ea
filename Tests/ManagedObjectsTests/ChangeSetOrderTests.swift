import Foundation
import Testing
@testable import ManagedObjects

/// A context's change sets keep their objects in arrays (an object knows its place in each):
/// removals in the middle, objects moving between sets and contexts, and the save order all
/// behave as with hashed sets.
@Suite struct ChangeSetOrderTests {
    static let model: ManagedObjectModel = {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64)]),
        ])
    }()

    func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    func insertNotes(_ count: Int, into context: ManagedObjectContext) throws -> [ManagedObject] {
        try (0..<count).map { index in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            try note.setValue(Int64(index), forKey: "rank")
            return note
        }
    }

    func ranks(in context: ManagedObjectContext) throws -> [Int64] {
        try context.fetch(EntityFetchRequest(entityName: "Note")).map { try $0.value(forKey: "rank") as! Int64 }.sorted()
    }

    @Test func insertedObjectsRemovedInTheMiddleLeaveTheOthersInSaveOrder() throws {
        let context = try context()
        let notes = try insertNotes(30, into: context)
        // Deleting an inserted object drops it from the inserted objects (the last one takes
        // its place in the array).
        let dropped = notes.indices.filter { $0 % 3 == 1 }
        for index in dropped { context.delete(notes[index]) }
        let kept = notes.indices.filter { $0 % 3 != 1 }.map { notes[$0] }
        #expect(context.insertedObjects == Set(kept))
        #expect(context.inserted.count == kept.count && context.deletedObjects.isEmpty)
        #expect(notes.indices.allSatisfy { context.inserted.contains(notes[$0]) == !dropped.contains($0) })
        // Save order is insert order whatever the array's order.
        #expect(ManagedObjectContext.inSaveOrder(context.inserted).map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        try context.save()
        #expect(context.insertedObjects.isEmpty && !context.hasChanges)
        #expect(try ranks(in: context) == kept.map { try $0.value(forKey: "rank") as! Int64 })
    }

    @Test func anObjectDroppedByOneContextJoinsAnother() throws {
        let first = try context(), second = try context()
        let notes = try insertNotes(5, into: first)
        first.delete(notes[1])
        #expect(notes[1].managedObjectContext == nil)
        try second.insert(notes[1])
        #expect(second.insertedObjects == [notes[1]])
        #expect(first.insertedObjects == Set([notes[0], notes[2], notes[3], notes[4]]))
        second.delete(notes[1])
        #expect(second.insertedObjects.isEmpty)
        try second.insert(notes[1])
        try second.save()
        try first.save()
        #expect(try ranks(in: second) == [1])
        #expect(try ranks(in: first) == [0, 2, 3, 4])
    }

    @Test func changedObjectsMoveBetweenTheUpdatedAndDeletedSets() throws {
        let context = try context()
        let notes = try insertNotes(12, into: context)
        try context.save()
        for (index, note) in notes.enumerated() where index % 2 == 0 { try note.setValue(Int64(100 + index), forKey: "rank") }
        let changed = notes.indices.filter { $0 % 2 == 0 }
        #expect(context.updatedObjects == Set(changed.map { notes[$0] }))
        // Deleting changed objects moves them from the updated set to the deleted one.
        for index in [0, 4, 10] { context.delete(notes[index]) }
        #expect(context.updatedObjects == Set([2, 6, 8].map { notes[$0] }))
        #expect(context.deletedObjects == Set([0, 4, 10].map { notes[$0] }))
        try context.save()
        #expect(!context.hasChanges)
        let expected = notes.indices.filter { ![0, 4, 10].contains($0) }.map { $0 % 2 == 0 ? Int64(100 + $0) : Int64($0) }.sorted()
        #expect(try ranks(in: context) == expected)
    }
}
