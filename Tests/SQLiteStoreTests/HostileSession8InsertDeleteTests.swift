import Foundation
import Testing
import ManagedObjects
import Predicates
import UndoManagement
@testable import SQLiteStore

// Hostile probes of the insert path and of batched deletes (session 8): thousands of rows in one
// save read back value by value, keys in insert order, constraint conflicts that write nothing,
// child contexts, did-save contents, undo across saves; deletes of faults, cascades, nullified
// pairs, objects inserted and deleted before any save.
@Suite struct HostileSession8InsertDeleteTests {
    /// The variant object `index` gets, and its entity.
    static func variant(_ index: Int) -> Int { index % 3 }
    static func entity(_ index: Int) -> String { index % 4 == 1 ? "SubThing" : "Thing" }

    @Test(arguments: H8Kind.allCases)
    func thousandsOfInsertsInOneSaveReadBackValueByValue(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let count = 1_200
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        for index in 0..<count {
            let thing = try stack.context.insertNewObject(forEntityNamed: Self.entity(index))
            try H8.fill(thing, Self.variant(index))
            try thing.setValue(Int64(index), forKey: "serial")
            if index % 4 == 1 { try thing.setValue("x\(index)", forKey: "extra") }
            objects.append(thing)
        }
        #expect(objects.allSatisfy { $0.objectID.isTemporaryID })
        try stack.context.save()
        let ids = objects.map(\.objectID)
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        #expect(Set(ids).count == count)
        #expect(objects.allSatisfy { $0.storeVersion == 1 && !$0.hasChanges })
        // URIs name each object and turn back into its ID.
        let uris = ids.map { $0.uriRepresentation() }
        #expect(Set(uris).count == count)
        for (uri, id) in zip(uris, ids).prefix(50) {
            #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == id)
        }
        let fresh = try stack.fresh()
        let request = EntityFetchRequest(entityName: "Thing", sortDescriptors: [KeyValueSortDescriptor(key: "serial")])
        let read = try fresh.fetch(request)
        #expect(read.map(\.objectID) == ids, "one row per object, same IDs")
        for (index, object) in read.enumerated() where index % 7 == 0 || index > count - 5 {
            H8.expect(object, Self.variant(index), [:], "#\(index)")
            #expect(object.entity.name == Self.entity(index))
            if index % 4 == 1 { #expect(try object.value(forKey: "extra") as? String == "x\(index)") }
        }
        if let url = stack.url {
            // Keys of the inheritance root in insert order, subentities included; Z_MAX follows.
            let keys = try query(url, "SELECT Z_PK FROM ZTHING ORDER BY ZSERIAL").compactMap { row -> Int64? in
                if case .integer(let key) = row[0] { return key } else { return nil }
            }
            #expect(keys == (1...Int64(count)).map { $0 })
            #expect(try query(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Thing'") == [[.integer(Int64(count))]])
            #expect(try query(url, "SELECT count(*) FROM ZTHING WHERE Z_OPT = 1") == [[.integer(Int64(count))]])
        }
        // A second batch continues the keys and leaves the first alone.
        let more = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try more.setValue(Int64(count), forKey: "serial")
        try stack.context.save()
        #expect(try stack.count("Thing") == count + 1)
        #expect(!ids.contains(more.objectID))
    }

    @Test(arguments: H8Kind.allCases)
    func aConstraintViolationAmongManyInsertsWritesNothing(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let stored = try stack.context.insertNewObject(forEntityNamed: "Code")
        try stored.setValue("taken", forKey: "code")
        try stack.context.save()
        var fresh: [ManagedObject] = []
        for index in 0..<100 {
            let code = try stack.context.insertNewObject(forEntityNamed: "Code")
            try code.setValue(index == 57 ? "taken" : "c\(index)", forKey: "code")
            try code.setValue(Int64(index), forKey: "rank")
            fresh.append(code)
        }
        try stored.setValue(Int64(-1), forKey: "rank")
        let error = try #require(throws: ManagedObjectMergeError.self) { try stack.context.save() }
        #expect(error.code == 133021)
        #expect(error.constraintConflicts.count == 1)
        #expect(error.constraintConflicts.first?.databaseObjectID == stored.objectID)
        #expect(error.constraintConflicts.first?.conflictingObjectIDs == [fresh[57].objectID])
        #expect(fresh.allSatisfy { $0.objectID.isTemporaryID }, "a refused save keeps temporary IDs")
        #expect(try stack.count("Code") == 1)
        #expect(try stack.reread(stored.objectID).value(forKey: "rank") == nil, "the update is not written either")
        if let url = stack.url {
            #expect(try query(url, "SELECT Z_OPT FROM ZCODE") == [[.integer(1)]])
        }
        // Mended, the same objects save.
        try fresh[57].setValue("c57", forKey: "code")
        try stack.context.save()
        #expect(try stack.count("Code") == 101)
        #expect(try stack.version(stored.objectID) == 2)
        // Two new objects sharing a value conflict with each other, with no stored object.
        let a = try stack.context.insertNewObject(forEntityNamed: "Code")
        let b = try stack.context.insertNewObject(forEntityNamed: "Code")
        try a.setValue("twin", forKey: "code")
        try b.setValue("twin", forKey: "code")
        let twins = try #require(throws: ManagedObjectMergeError.self) { try stack.context.save() }
        #expect(twins.constraintConflicts.first?.databaseObjectID == nil)
        #expect(Set(twins.constraintConflicts.first?.conflictingObjectIDs ?? []) == [a.objectID, b.objectID])
        #expect(try stack.count("Code") == 101)
    }

    @Test(arguments: H8Kind.allCases)
    func insertsThroughAChildContextReachTheStoreWithEveryValue(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: stack.context)
        let box = try child.insertNewObject(forEntityNamed: "Box")
        var things: [ManagedObject] = []
        for index in 0..<20 {
            let thing = try child.insertNewObject(forEntityNamed: Self.entity(index))
            try H8.fill(thing, Self.variant(index))
            try thing.setValue(Int64(index), forKey: "serial")
            things.append(thing)
        }
        try box.setValue(things, forKey: "things")
        try child.save()
        #expect(try stack.count("Thing") == 0, "the store is untouched until the parent saves")
        #expect(stack.context.insertedObjects.count == 21)
        try stack.context.save()
        // The child's objects keep their temporary IDs until the child fetches them again.
        #expect(things.allSatisfy { $0.objectID.isTemporaryID })
        let refetched = try child.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        #expect(refetched.count == 20 && refetched.allSatisfy { !$0.objectID.isTemporaryID })
        #expect(Set(refetched.map(\.objectID)) == Set(stack.context.registeredObjects.filter { $0.entity.name != "Box" }.map(\.objectID)))
        let fresh = try stack.fresh()
        let read = try fresh.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: [KeyValueSortDescriptor(key: "serial")]))
        #expect(read.count == 20)
        for (index, object) in read.enumerated() {
            H8.expect(object, Self.variant(index), [:], "#\(index)")
            #expect(object.entity.name == Self.entity(index))
        }
        let savedBox = try #require(try fresh.fetch(EntityFetchRequest(entityName: "Box")).first)
        #expect(try (savedBox.value(forKey: "things") as? [ManagedObject])?.map { try $0.value(forKey: "serial") as? Int64 }
                == (0..<20).map { Int64($0) })
    }

    @Test(arguments: H8Kind.allCases)
    func didSaveReportsExactlyWhatWasWritten(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        let kept = try context.insertNewObject(forEntityNamed: "Thing")
        let changed = try context.insertNewObject(forEntityNamed: "SubThing")
        let doomed = try context.insertNewObject(forEntityNamed: "Thing")
        let unchanged = try context.insertNewObject(forEntityNamed: "Thing")
        try context.save()
        var results: [ManagedObjectContext.SaveResult] = []
        var changes: [ManagedObjectContext.Changes] = []
        let token = context.onDidSave { result, saved in results.append(result); changes.append(saved) }
        defer { token.cancel() }
        let new = try context.insertNewObject(forEntityNamed: "SubThing")
        let gone = try context.insertNewObject(forEntityNamed: "Thing")   // inserted and deleted before the save
        context.delete(gone)
        try changed.setValue("x", forKey: "name")
        try unchanged.setValue("y", forKey: "name")
        try unchanged.setValue(nil, forKey: "name")
        context.delete(doomed)
        try context.save()
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.insertedObjectIDs == [new.objectID])
        #expect(!new.objectID.isTemporaryID)
        // An object set back to its saved value is still among the updated objects (as in
        // `updatedObjects`), though its row is not written (its version stays 1, below).
        #expect(result.updatedObjectIDs == [changed.objectID, unchanged.objectID])
        #expect(result.deletedObjectIDs == [doomed.objectID])
        #expect(changes.first?.inserted == [new] && changes.first?.updated == [changed, unchanged] && changes.first?.deleted == [doomed])
        #expect(try stack.count("Thing") == 4)
        #expect(try stack.storedRow(doomed.objectID) == nil)
        #expect(try stack.version(kept.objectID) == 1 && stack.version(unchanged.objectID) == 1)
        // A save with nothing to write posts nothing.
        try context.save()
        #expect(results.count == 1)
    }

    @Test(arguments: H8Kind.allCases)
    func deletingFaultsCascadesAndNullifies(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let box = try stack.context.insertNewObject(forEntityNamed: "Box")
        let tag = try stack.context.insertNewObject(forEntityNamed: "Tag")
        var things: [ManagedObject] = []
        for index in 0..<6 {
            let thing = try stack.context.insertNewObject(forEntityNamed: Self.entity(index))
            try thing.setValue(Int64(index), forKey: "serial")
            things.append(thing)
        }
        try box.setValue(Array(things.prefix(4)), forKey: "things")
        try tag.setValue(Set(things), forKey: "things")
        try stack.context.save()
        // A fresh context deletes the box and one loose thing without reading anything first.
        let fresh = try stack.fresh()
        let boxFault = try fresh.object(with: box.objectID)
        let looseFault = try fresh.object(with: things[5].objectID)
        #expect(boxFault.isFault && looseFault.isFault)
        fresh.delete(boxFault)
        fresh.delete(looseFault)
        #expect(fresh.deletedObjects.count == 6, "the box, its four things (cascade), the loose thing")
        try fresh.save()
        #expect(try stack.count("Box") == 0)
        #expect(try stack.count("Thing") == 1)
        let remaining = try stack.reread(things[4].objectID)
        #expect(try remaining.value(forKey: "box") == nil)
        let savedTag = try stack.reread(tag.objectID)
        #expect(try (savedTag.value(forKey: "things") as? Set<ManagedObject>)?.map(\.objectID) == [things[4].objectID])
        if let url = stack.url {
            #expect(try H8.joinRows(url) == 1, "the deleted things' pairs are gone")
        }
    }

    @Test(arguments: H8Kind.allCases)
    func deleteUndoSaveAndInsertUndoAfterSave(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        context.undoManager = UndoHistory()
        let thing = try context.insertNewObject(forEntityNamed: "SubThing")
        try H8.fill(thing, 1)
        try context.save()
        context.processPendingChanges()
        // Deleted and brought back before the save: nothing to write.
        context.delete(thing)
        context.processPendingChanges()
        try context.undo()
        #expect(!thing.isDeleted)
        try context.save()
        #expect(try stack.version(thing.objectID) == 1)
        H8.expect(try stack.reread(thing.objectID), 1, [:], "after undoing the delete")
        // An insert saved, then undone and saved: the row goes.
        let added = try context.insertNewObject(forEntityNamed: "Thing")
        try added.setValue(Int64(7), forKey: "serial")
        context.processPendingChanges()
        try context.save()
        #expect(try stack.count("Thing") == 2)
        try context.undo()
        #expect(added.isDeleted || added.managedObjectContext == nil)
        try context.save()
        #expect(try stack.count("Thing") == 1)
        #expect(try stack.storedRow(added.objectID) == nil)
        H8.expect(try stack.reread(thing.objectID), 1, [:], "untouched")
    }
}
