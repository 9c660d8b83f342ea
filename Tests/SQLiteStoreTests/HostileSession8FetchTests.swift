import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
@testable import SQLiteStore

// Hostile probes of fetching rows into managed objects (session 8): uniquing over large fetches,
// rows changed by another writer, pending changes against store values, batch faulting of every
// attribute type, predicates and orders agreeing with in-memory evaluation, objects let go.
@Suite struct HostileSession8FetchTests {
    /// `count` things (every fourth a sub-thing) with variant `index % 3` (only every
    /// `fullEvery`th; the others only a serial), saved; the context is the stack's.
    static func stocked(_ kind: H8Kind, count: Int, fullEvery: Int = 1) throws -> H8Stack {
        let stack = try H8Stack(kind)
        for index in 0..<count {
            let thing = try stack.context.insertNewObject(forEntityNamed: index % 4 == 1 ? "SubThing" : "Thing")
            if index % fullEvery == 0 { try H8.fill(thing, index % 3) }
            try thing.setValue(Int64(index), forKey: "serial")
        }
        try stack.context.save()
        return stack
    }

    static let bySerial = [KeyValueSortDescriptor(key: "serial")]

    @Test(arguments: H8Kind.allCases)
    func tenThousandRowsFetchedTwiceAreTheSameObjects(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 10_000, fullEvery: 997)
        let context = try stack.fresh()
        let request = EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial)
        let first = try context.fetch(request)
        try first[17].setValue("changed", forKey: "name")
        let second = try context.fetch(request)
        #expect(first.count == 10_000 && second.count == 10_000)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(context.registeredObjects.count == 10_000)
        #expect(try second[17].value(forKey: "name") as? String == "changed", "pending change kept by the second fetch")
        for index in stride(from: 0, to: 10_000, by: 997) {
            #expect(try second[index].value(forKey: "serial") as? Int64 == Int64(index))
            H8.expect(second[index], index % 3, [:], "#\(index)")
        }
        // One of them, fetched alone by ID, is the same object.
        let byID = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: "serial == 9999")))
        #expect(byID.count == 1 && byID.first === second[9999])
    }

    @Test(arguments: H8Kind.allCases)
    func aRefetchAfterAnotherWriterKeepsUnsavedChangesAndRefreshTakesTheNewRow(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 10)
        let context = stack.context
        let things = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        try things[1].setValue(Int64(100), forKey: "large")   // unsaved here
        let rival = try stack.rival()
        for index in [1, 2] {
            let theirs = try rival.existingObject(with: things[index].objectID)
            try theirs.setValue("theirs \(index)", forKey: "name")
        }
        try rival.save()
        // The store selects by its rows: "theirs 2" matches thing 2 whatever the context holds.
        let matched = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: "name BEGINSWITH 'theirs'"),
                                                           sortDescriptors: Self.bySerial))
        #expect(matched.allSatisfy { object in things.contains { $0 === object } })
        // A refresh keeping changes takes the new row under the unsaved change.
        context.stalenessInterval = 0
        context.refresh(things[1], mergeChanges: true)
        #expect(try things[1].value(forKey: "name") as? String == "theirs 1")
        #expect(try things[1].value(forKey: "large") as? Int64 == 100)
        H8.expect(things[1], 1, [:], "thing 1", except: ["name", "large"])
        context.refresh(things[2], mergeChanges: false)
        #expect(try things[2].value(forKey: "name") as? String == "theirs 2")
        H8.expect(things[2], 2, [:], "thing 2", except: ["name"])
        // Both now save against the rival's versions: no conflict.
        try things[2].setValue(Int64(5), forKey: "large")
        try context.save()
        #expect(try stack.version(things[1].objectID) == 3 && stack.version(things[2].objectID) == 3)
        #expect(try stack.reread(things[1].objectID).value(forKey: "name") as? String == "theirs 1")
    }

    @Test(arguments: H8Kind.allCases)
    func pendingChangesDecideMatchesUnlessLeftOut(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 12)
        let context = try stack.fresh()
        let things = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        try things[0].setValue("renamed", forKey: "name")      // stored: variant 0's name
        context.delete(things[3])
        let added = try context.insertNewObject(forEntityNamed: "SubThing")
        try added.setValue("renamed", forKey: "name")
        try added.setValue(Int64(99), forKey: "serial")
        let old = try KeyValuePredicate(format: "name == %@", "Ünïcode ✓")
        let new = try KeyValuePredicate(format: "name == 'renamed'")
        let oldMatches = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: old, sortDescriptors: Self.bySerial))
        // Variant 0 is serials 0, 3, 6, 9: 0 renamed, 3 deleted, 6 and 9 left.
        #expect(oldMatches.map { try? $0.value(forKey: "serial") as? Int64 } == [6, 9])
        #expect(oldMatches.first === things[6])
        let newMatches = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: new, sortDescriptors: Self.bySerial))
        #expect(newMatches.count == 2 && newMatches[0] === things[0] && newMatches[1] === added)
        var stored = EntityFetchRequest(entityName: "Thing", predicate: old, sortDescriptors: Self.bySerial)
        stored.includesPendingChanges = false
        let storeMatches = try context.fetch(stored)
        // Without pending changes (Docs/Porting.md): no inserted object, the deleted one still
        // matches, the changed one is evaluated on its current value.
        #expect(storeMatches.map { try? $0.value(forKey: "serial") as? Int64 } == [3, 6, 9])
        #expect(storeMatches.first === things[3])
        #expect(!storeMatches.contains { $0 === added })
        #expect(try context.count(for: EntityFetchRequest(entityName: "Thing", predicate: old)) == 2)
        #expect(try context.count(for: EntityFetchRequest(entityName: "Thing")) == 12)
    }

    @Test(arguments: H8Kind.allCases)
    func batchFaultingReadsEveryAttributeType(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 50)
        let context = try stack.fresh()
        var request = EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial)
        request.fetchBatchSize = 7
        let objects = try context.fetch(request)
        #expect(objects.count == 50)
        for (index, object) in objects.enumerated().reversed() {
            #expect(try object.value(forKey: "serial") as? Int64 == Int64(index))
            H8.expect(object, index % 3, [:], "batched #\(index)")
            #expect(object.entity.name == (index % 4 == 1 ? "SubThing" : "Thing"))
        }
        let batched = try context.fetchBatched(request)
        #expect(batched.count == 50)
        for index in [49, 0, 23, 24] {
            #expect(batched[index] === objects[index])
            H8.expect(batched[index], index % 3, [:], "fetchBatched #\(index)")
        }
    }

    static let formats = [
        "name == nil", "name == ''", "name ==[cd] 'unicode ✓'", "name BEGINSWITH 'Ü'", "name < 'a'",
        "ratio != ratio", "ratio == 0.1", "ratio < 1", "ratio == nil", "weight > 3", "weight == 2.5",
        "small == 32767", "small < 0", "medium == -2147483648", "large == 9223372036854775807", "large < 0",
        "flag == YES", "flag == NO", "flag == nil", "price > 0", "price == 10.11", "price < 0",
        "when < CAST(0, 'NSDate')", "when == nil", "identity == nil", "link == nil", "bytes == nil",
        "NOT (name == '')", "serial IN {1, 5, 9}", "serial BETWEEN {10, 20} AND flag == YES",
    ]

    @Test(arguments: H8Kind.allCases)
    func predicatesAndOrdersAgreeWithInMemoryEvaluation(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 60)
        let context = try stack.fresh()
        let all = try context.fetch(EntityFetchRequest(entityName: "Thing"))
        #expect(all.count == 60)
        for format in Self.formats {
            let predicate = try KeyValuePredicate(format: format)
            let expected = Set(try all.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
            let got = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: predicate))
            #expect(Set(got.map(\.objectID)) == expected, "\(format)")
            #expect(got.count == expected.count, "\(format): no object twice")
        }
        for key in ["name", "ratio", "weight", "small", "large", "flag", "when", "price"] {
            for ascending in [true, false] {
                let descriptors = [KeyValueSortDescriptor(key: key, ascending: ascending), KeyValueSortDescriptor(key: "serial")]
                let expected = try all.sorted(using: descriptors).map(\.objectID)
                let got = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: descriptors)).map(\.objectID)
                #expect(got == expected, "sorted by \(key) ascending \(ascending)")
                var limited = EntityFetchRequest(entityName: "Thing", sortDescriptors: descriptors)
                limited.fetchOffset = 5
                limited.fetchLimit = 11
                #expect(try context.fetch(limited).map(\.objectID) == Array(expected[5..<16]), "limited by \(key) \(ascending)")
            }
        }
    }

    @Test(arguments: H8Kind.allCases)
    func objectsLetGoAreFreedAndRefetchedFresh(kind: H8Kind) throws {
        let stack = try Self.stocked(kind, count: 300)
        let tracker = LifetimeTracker()
        var ids: [ManagedObjectID] = []
        do {
            let context = ManagedObjectContext(coordinator: stack.coordinator)   // not kept by the stack
            let objects = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
            ids = objects.map(\.objectID)
            for (index, object) in objects.enumerated() where index % 50 == 0 {
                tracker.track(object, "thing \(index)")
                _ = try object.value(forKey: "payload")
            }
            tracker.track(context, "context")
        }
        tracker.expectAllReleased("a fetching context and its objects, dropped")
        // A reset lets the objects go; a fetch afterwards makes new ones with the saved values.
        let context = try stack.fresh()
        let resetTracker = LifetimeTracker()
        do {
            let before = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
            try before[4].setValue("unsaved", forKey: "name")
            resetTracker.track(before[4], "changed before reset")
            resetTracker.track(before[5], "unchanged before reset")
        }
        context.reset()
        resetTracker.expectAllReleased("after reset")
        #expect(context.registeredObjects.isEmpty)
        let after = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        #expect(after.map(\.objectID) == ids)
        H8.expect(after[4], 1, [:], "refetched after reset")
        #expect(!after[4].hasChanges)
    }
}
