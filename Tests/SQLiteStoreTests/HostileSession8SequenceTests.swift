import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile sequences over the rewritten save and fetch paths (session 8): one column per save
// for every column, inserts changed before their save, ordered members moved around, rows
// deleted underneath updates and deletes, merges of partial saves into loaded objects.
@Suite struct HostileSession8SequenceTests {
    @Test(arguments: H8Kind.allCases)
    func oneColumnPerSaveMovesTheVersionByOneEachTime(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let thing = try stack.context.insertNewObject(forEntityNamed: "SubThing")
        try H8.fill(thing, 0)
        try stack.context.save()
        for (index, key) in H8.keys.enumerated() {
            try thing.setValue(H8.value(key, 1), forKey: key)
            try stack.context.save()
            #expect(thing.storeVersion == Int64(index + 2))
            let seen = try stack.reread(thing.objectID)
            for (other, otherKey) in H8.keys.enumerated() {
                #expect(H8.matches(otherKey, try seen.value(forKey: otherKey), other <= index ? 1 : 0), "after \(key): \(otherKey)")
            }
        }
        #expect(try stack.version(thing.objectID) == Int64(H8.keys.count + 1))
        // All back to nil in one save: one more version.
        for key in H8.keys { try thing.setValue(nil, forKey: key) }
        try stack.context.save()
        H8.expect(try stack.reread(thing.objectID), 2, [:], "all nil")
        #expect(try stack.version(thing.objectID) == Int64(H8.keys.count + 2))
    }

    @Test(arguments: H8Kind.allCases)
    func anInsertChangedBeforeItsSaveWritesItsLastValues(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        let thing = try context.insertNewObject(forEntityNamed: "Thing")
        try H8.fill(thing, 0)
        context.processPendingChanges()
        try H8.fill(thing, 1)
        try thing.setValue(nil, forKey: "name")
        let box = try context.insertNewObject(forEntityNamed: "Box")
        try thing.setValue(box, forKey: "box")
        try thing.setValue(nil, forKey: "box")
        try context.save()
        #expect(thing.storeVersion == 1)
        let seen = try stack.reread(thing.objectID)
        H8.expect(seen, 1, ["name": 2], "inserted then changed")
        #expect(try seen.value(forKey: "box") == nil)
        #expect(try stack.version(thing.objectID) == 1)
        // Changed right after the save, in the same event: an update.
        try thing.setValue("after", forKey: "name")
        try context.save()
        #expect(try stack.version(thing.objectID) == 2)
        H8.expect(try stack.reread(thing.objectID), 1, [:], "updated", except: ["name"])
    }

    @Test(arguments: H8Kind.allCases)
    func orderedMembersInsertedMovedAndRemovedInTheMiddle(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        let box = try context.insertNewObject(forEntityNamed: "Box")
        var things: [ManagedObject] = []
        for index in 0..<6 {
            let thing = try context.insertNewObject(forEntityNamed: index % 2 == 0 ? "Thing" : "SubThing")
            try thing.setValue(Int64(index), forKey: "serial")
            things.append(thing)
        }
        try box.setValue(things, forKey: "things")
        try context.save()
        func serials() throws -> [Int64] {
            let seen = try stack.reread(box.objectID)
            return try (seen.value(forKey: "things") as? [ManagedObject] ?? []).map { try $0.value(forKey: "serial") as? Int64 ?? -1 }
        }
        #expect(try serials() == [0, 1, 2, 3, 4, 5])
        let members = try box.mutableArrayValue(forKey: "things")
        let new = try context.insertNewObject(forEntityNamed: "SubThing")
        try new.setValue(Int64(9), forKey: "serial")
        try members.insert(new, at: 2)
        try context.save()
        #expect(try serials() == [0, 1, 9, 2, 3, 4, 5])
        try members.remove(at: 4)                       // 3 leaves the box (nullify: it stays)
        try members.move(from: 5, to: 0)                // things[5] to the front
        try context.save()
        #expect(try serials() == [5, 0, 1, 9, 2, 4])
        #expect(try stack.reread(things[3].objectID).value(forKey: "box") == nil)
        context.delete(things[1])
        try context.save()
        #expect(try serials() == [5, 0, 9, 2, 4])
        #expect(try stack.count("Thing") == 6)
    }

    @Test(arguments: H8Kind.allCases)
    func rowsDeletedUnderneathUpdatesAndDeletes(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let things = try (0..<4).map { index in
            let thing = try stack.context.insertNewObject(forEntityNamed: index == 3 ? "SubThing" : "Thing")
            try H8.fill(thing, 0)
            return thing
        }
        try stack.context.save()
        let rival = try stack.rival()
        for index in [0, 1] { rival.delete(try rival.existingObject(with: things[index].objectID)) }
        try rival.save()
        try things[0].setValue("changed", forKey: "name")   // updated here, gone there
        stack.context.delete(things[1])                     // deleted on both sides
        try things[2].setValue("kept", forKey: "name")
        let error = try #require(throws: ManagedObjectMergeError.self) { try stack.context.save() }
        #expect(Set(error.mergeConflicts.map(\.objectID)) == [things[0].objectID, things[1].objectID])
        #expect(error.mergeConflicts.allSatisfy { $0.newVersionNumber == 0 && $0.persistedSnapshot == nil })
        #expect(try stack.reread(things[2].objectID).value(forKey: "name") as? String == H8.value("name", 0) as? String)
        // Under any policy but error, the gone rows stay gone and the rest is written.
        stack.context.mergePolicy = .mergeByPropertyStoreTrump
        try stack.context.save()
        #expect(things[0].managedObjectContext == nil)
        #expect(try stack.storedRow(things[0].objectID) == nil && stack.storedRow(things[1].objectID) == nil)
        #expect(try stack.reread(things[2].objectID).value(forKey: "name") as? String == "kept")
        H8.expect(try stack.reread(things[3].objectID), 0, [:], "untouched")
        #expect(try stack.count("Thing") == 2)
    }

    @Test(arguments: H8Kind.allCases)
    func aMergedPartialSaveUpdatesLoadedObjectsColumnByColumn(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let thing = try stack.savedThings(1)[0]
        let viewer = ManagedObjectContext(coordinator: stack.coordinator)
        let seen = try viewer.existingObject(with: thing.objectID)
        try seen.setValue(Int16(5), forKey: "small")        // unsaved in the viewer
        var saved: [ManagedObjectContext.SaveResult] = []
        let token = stack.context.onDidSave { result, _ in saved.append(result) }
        defer { token.cancel() }
        try thing.setValue("new", forKey: "name")
        try thing.setValue(nil, forKey: "bytes")
        try stack.context.save()
        viewer.mergeChanges(from: try #require(saved.first))
        #expect(try seen.value(forKey: "name") as? String == "new")
        #expect(try seen.value(forKey: "bytes") == nil)
        #expect(try seen.value(forKey: "small") as? Int16 == 5, "the viewer's change stays")
        H8.expect(seen, 0, [:], "merged", except: ["name", "bytes", "small"])
        #expect(seen.storeVersion == 2)
        try viewer.save()
        #expect(try stack.version(thing.objectID) == 3)
        let stored = try stack.reread(thing.objectID)
        #expect(try stored.value(forKey: "name") as? String == "new" && stored.value(forKey: "small") as? Int16 == 5)
        H8.expect(stored, 0, [:], "after the viewer's save", except: ["name", "bytes", "small"])
    }

    @Test(arguments: H8Kind.allCases)
    func refreshAllObjectsAfterAnotherWriter(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let things = try stack.savedThings(3)
        let rival = try stack.rival()
        for thing in things {
            try rival.existingObject(with: thing.objectID).setValue("theirs", forKey: "name")
        }
        try rival.save()
        try things[1].setValue(Int64(77), forKey: "large")
        stack.context.stalenessInterval = 0
        stack.context.refreshAllObjects()
        #expect(things[0].isFault && !things[1].isFault)
        for thing in things { #expect(try thing.value(forKey: "name") as? String == "theirs") }
        #expect(try things[1].value(forKey: "large") as? Int64 == 77)
        H8.expect(things[1], 0, [:], "refreshed", except: ["name", "large"])
        try stack.context.save()
        #expect(try stack.version(things[1].objectID) == 3)
        #expect(try stack.reread(things[1].objectID).value(forKey: "name") as? String == "theirs")
    }

    @Test(arguments: H8Kind.allCases)
    func deletingManyFaultsByIDOnlyOfMixedEntities(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let things = try (0..<120).map { index in
            let thing = try stack.context.insertNewObject(forEntityNamed: index % 3 == 0 ? "SubThing" : "Thing")
            try thing.setValue(Int64(index), forKey: "serial")
            return thing
        }
        try stack.context.save()
        let context = try stack.fresh()
        for (index, thing) in things.enumerated() where index % 5 < 2 || thing.entity.name == "SubThing" {
            context.delete(try context.object(with: thing.objectID))
        }
        let doomed = Set(context.deletedObjects.map(\.objectID))
        #expect(doomed.count >= 40, "every sub-thing, and some things")
        try context.save()
        let left = try stack.fresh().fetch(EntityFetchRequest(entityName: "Thing"))
        #expect(Set(left.map(\.objectID)) == Set(things.map(\.objectID)).subtracting(doomed))
        #expect(left.allSatisfy { $0.entity.name == "Thing" })
    }
}
