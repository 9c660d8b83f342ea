import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile probes of rows becoming objects (session 8): faults met by a fetch, fetches returning
// faults, subentities in or out, prefetched relationships, IDs and counts agreeing with the
// objects, a child context fetching over its parent's unsaved state.
@Suite struct HostileSession8FaultTests {
    static let bySerial = [KeyValueSortDescriptor(key: "serial")]

    /// 30 saved things (every third a sub-thing, variant `index % 3`), a box holding the first
    /// ten in order, a tag on the even ones.
    static func stocked(_ kind: H8Kind) throws -> (H8Stack, [ManagedObjectID]) {
        let stack = try H8Stack(kind)
        let box = try stack.context.insertNewObject(forEntityNamed: "Box")
        let tag = try stack.context.insertNewObject(forEntityNamed: "Tag")
        var things: [ManagedObject] = []
        for index in 0..<30 {
            let thing = try stack.context.insertNewObject(forEntityNamed: index % 3 == 2 ? "SubThing" : "Thing")
            try H8.fill(thing, index % 3)
            try thing.setValue(Int64(index), forKey: "serial")
            if index % 2 == 0 { try thing.setValue(Set([tag]), forKey: "tags") }
            things.append(thing)
        }
        try box.setValue(Array(things.prefix(10)), forKey: "things")
        try stack.context.save()
        return (stack, things.map(\.objectID))
    }

    @Test(arguments: H8Kind.allCases)
    func faultsMetByAFetchAreFilledWithTheirOwnRows(kind: H8Kind) throws {
        let (stack, ids) = try Self.stocked(kind)
        let context = try stack.fresh()
        let faults = try ids.map { try context.object(with: $0) }
        #expect(faults.allSatisfy { $0.isFault })
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: "serial >= 5"),
                                                           sortDescriptors: Self.bySerial))
        #expect(fetched.count == 25)
        for (offset, object) in fetched.enumerated() {
            let index = offset + 5
            #expect(object === faults[index])
            #expect(object.storeVersion == 1)
            H8.expect(object, index % 3, [:], "#\(index)")
        }
        #expect(faults.prefix(5).allSatisfy { $0.isFault }, "objects the fetch did not return stay faults")
        H8.expect(faults[4], 1, [:], "fault fired later")
    }

    @Test(arguments: H8Kind.allCases)
    func faultsReturnedByAFetchFireWithTheRightValues(kind: H8Kind) throws {
        let (stack, ids) = try Self.stocked(kind)
        let context = try stack.fresh()
        var request = EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial)
        request.returnsObjectsAsFaults = true
        let objects = try context.fetch(request)
        #expect(objects.map(\.objectID) == ids)
        for index in [29, 0, 14, 2] {
            H8.expect(objects[index], index % 3, [:], "#\(index)")
            #expect(objects[index].entity.name == (index % 3 == 2 ? "SubThing" : "Thing"))
        }
        var only = EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial)
        only.includesSubentities = false
        #expect(try context.fetch(only).map(\.objectID) == ids.enumerated().filter { $0.offset % 3 != 2 }.map(\.element))
        let subs = try context.fetch(EntityFetchRequest(entityName: "SubThing", sortDescriptors: Self.bySerial))
        #expect(subs.map(\.objectID) == ids.enumerated().filter { $0.offset % 3 == 2 }.map(\.element))
        #expect(subs.allSatisfy { object in objects.contains { $0 === object } }, "one object per ID across fetches")
    }

    @Test(arguments: H8Kind.allCases)
    func prefetchedRelationshipsMatchTheStoredGraph(kind: H8Kind) throws {
        let (stack, ids) = try Self.stocked(kind)
        let context = try stack.fresh()
        var request = EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial)
        request.relationshipKeyPathsForPrefetching = ["box", "tags", "box.things"]
        let objects = try context.fetch(request)
        #expect(objects.count == 30)
        let box = try #require(try objects[0].value(forKey: "box") as? ManagedObject)
        #expect(try (box.value(forKey: "things") as? [ManagedObject])?.map(\.objectID) == Array(ids.prefix(10)))
        for (index, object) in objects.enumerated() {
            let tags = try object.value(forKey: "tags") as? Set<ManagedObject> ?? []
            #expect(tags.count == (index % 2 == 0 ? 1 : 0), "#\(index)")
            let owner = try object.value(forKey: "box") as? ManagedObject
            #expect((owner === box) == (index < 10), "#\(index)")
        }
        let tag = try #require(try objects[0].value(forKey: "tags") as? Set<ManagedObject>).first
        #expect(try (tag?.value(forKey: "things") as? Set<ManagedObject>)?.count == 15)
    }

    @Test(arguments: H8Kind.allCases)
    func idsAndCountsAgreeWithTheObjectsWithAndWithoutPendingChanges(kind: H8Kind) throws {
        let (stack, _) = try Self.stocked(kind)
        let context = try stack.fresh()
        let formats = ["serial < 10", "flag == YES", "name == ''", "ratio != ratio", "TRUEPREDICATE", "box != nil"]
        func check(_ label: String) throws {
            for format in formats {
                let request = EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: format),
                                                 sortDescriptors: Self.bySerial)
                let objects = try context.fetch(request)
                #expect(try context.fetchObjectIDs(request) == objects.map(\.objectID), "\(label) \(format)")
                #expect(try context.count(for: request) == objects.count, "\(label) \(format)")
                var limited = request
                limited.fetchLimit = 3
                limited.fetchOffset = 2
                #expect(try context.fetch(limited).map(\.objectID) == Array(objects.dropFirst(2).prefix(3)).map(\.objectID),
                        "\(label) \(format) limited")
            }
        }
        try check("clean")
        let things = try context.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        try things[3].setValue(Int64(-1), forKey: "serial")
        try things[4].setValue("", forKey: "name")
        try things[5].setValue(nil, forKey: "box")
        context.delete(things[1])
        let added = try context.insertNewObject(forEntityNamed: "SubThing")
        try added.setValue(Int64(2), forKey: "serial")
        try added.setValue(true, forKey: "flag")
        try check("pending")
    }

    @Test(arguments: H8Kind.allCases)
    func aChildFetchesOverItsParentsUnsavedState(kind: H8Kind) throws {
        let (stack, ids) = try Self.stocked(kind)
        let parent = try stack.fresh()
        let parentThings = try parent.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        try parentThings[0].setValue("parent's", forKey: "name")
        parent.delete(parentThings[1])
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let matched = try child.fetch(EntityFetchRequest(entityName: "Thing", predicate: try KeyValuePredicate(format: "name == \"parent's\"")))
        #expect(matched.map(\.objectID) == [ids[0]])
        #expect(matched.first !== parentThings[0], "the child's own object")
        H8.expect(try #require(matched.first), 0, [:], "child", except: ["name"])
        let all = try child.fetch(EntityFetchRequest(entityName: "Thing", sortDescriptors: Self.bySerial))
        #expect(all.count == 29 && !all.contains { $0.objectID == ids[1] })
        #expect(try child.existingObject(with: ids[2]).value(forKey: "extra") == nil)
        H8.expect(try child.existingObject(with: ids[2]), 2, [:], "child fault")
    }
}
