import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile probes for a save that writes only the changed columns of updated rows (session 8):
// every column the save did not change keeps its value, on disk, in the row cache and in a
// fresh coordinator; each save moves a row's version on by exactly one; objects of one entity
// changing different column sets in one save, a subentity in its root's table, relationships
// only, nil, values set back to the committed ones.
@Suite struct HostileSession8UpdateTests {
    static let cases: [(H8Kind, String)] = H8Kind.allCases.flatMap { kind in H8.keys.map { (kind, $0) } }

    /// A full object (variant 0), an empty one (nil everywhere), a full sub-thing; saved.
    static func seeded(_ stack: H8Stack) throws -> [ManagedObject] {
        let full = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try H8.fill(full, 0)
        let empty = try stack.context.insertNewObject(forEntityNamed: "Thing")
        let sub = try stack.context.insertNewObject(forEntityNamed: "SubThing")
        try H8.fill(sub, 0)
        try sub.setValue("extra", forKey: "extra")
        try stack.context.save()
        return [full, empty, sub]
    }

    @Test(arguments: cases)
    func changingOneAttributeKeepsEveryOther(kind: H8Kind, key: String) throws {
        let stack = try H8Stack(kind)
        let objects = try Self.seeded(stack)
        try objects[0].setValue(H8.value(key, 1), forKey: key)   // variant 0 → 1
        try objects[1].setValue(H8.value(key, 0), forKey: key)   // nil → variant 0
        try objects[2].setValue(nil, forKey: key)                // variant 0 → nil
        try stack.context.save()
        #expect(objects.map(\.storeVersion) == [2, 2, 2])
        // Another context of the same coordinator (row cache) and a fresh one (the store).
        let peer = ManagedObjectContext(coordinator: stack.coordinator)
        for reader in [peer, try stack.fresh()] {
            H8.expect(try reader.existingObject(with: objects[0].objectID), 0, [key: 1], "full")
            H8.expect(try reader.existingObject(with: objects[1].objectID), 2, [key: 0], "empty")
            let sub = try reader.existingObject(with: objects[2].objectID)
            H8.expect(sub, 0, [key: 2], "sub")
            #expect(sub.entity.name == "SubThing")
            #expect(try sub.value(forKey: "extra") as? String == "extra")
        }
        #expect(try objects.map { try stack.version($0.objectID) } == [2, 2, 2])
        // Once more, the other way: the versions move by one again.
        try objects[0].setValue(H8.value(key, 0), forKey: key)
        try stack.context.save()
        #expect(try stack.version(objects[0].objectID) == 3)
        #expect(try stack.version(objects[1].objectID) == 2)
        H8.expect(try stack.reread(objects[0].objectID), 0, [:], "full, back")
    }

    @Test(arguments: H8Kind.allCases)
    func objectsOfOneEntityChangingDifferentColumnsInOneSave(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        var things: [ManagedObject] = []
        for index in 0..<8 {
            let thing = try context.insertNewObject(forEntityNamed: index % 2 == 0 ? "Thing" : "SubThing")
            try H8.fill(thing, 0)
            try thing.setValue(Int64(index), forKey: "serial")
            if index % 2 == 1 { try thing.setValue("e\(index)", forKey: "extra") }
            things.append(thing)
        }
        let box = try context.insertNewObject(forEntityNamed: "Box")
        try context.save()
        // Column sets per object, repeated so that a statement kept per column set is reused
        // with other values, and sets of equal size but other columns follow each other.
        let sets: [[String]] = [["name"], ["large"], ["name", "large"], ["large", "name"], ["extra"],
                                ["when", "bytes"], ["payload"], ["extra", "name", "price"]]
        for round in 0..<3 {
            for (index, thing) in things.enumerated() {
                let keys = sets[(index + round) % sets.count]
                for key in keys {
                    if key == "extra" {
                        if thing.entity.name == "SubThing" { try thing.setValue("r\(round)", forKey: "extra") }
                    } else {
                        try thing.setValue(H8.value(key, (round + 1) % 2), forKey: key)
                    }
                }
            }
            if round == 1 { try things[3].setValue(box, forKey: "box") }
            try context.save()
            let fresh = try stack.fresh()
            for thing in things {
                let seen = try fresh.existingObject(with: thing.objectID)
                let serial = try thing.value(forKey: "serial") as? Int64 ?? -1
                for key in H8.keys {
                    let variant = H8.matches(key, try thing.value(forKey: key), 0) ? 0 : 1
                    #expect(H8.matches(key, try seen.value(forKey: key), variant), "round \(round) serial \(serial) \(key)")
                }
                #expect(try seen.value(forKey: "serial") as? Int64 == thing.value(forKey: "serial") as? Int64)
                if thing.entity.name == "SubThing" {
                    #expect(try seen.value(forKey: "extra") as? String == thing.value(forKey: "extra") as? String)
                }
                #expect(try (seen.value(forKey: "box") as? ManagedObject)?.objectID == (thing.value(forKey: "box") as? ManagedObject)?.objectID)
                #expect(try stack.version(thing.objectID) == thing.storeVersion)
            }
        }
        if let url = stack.url {
            let entities = try query(url, "SELECT Z_ENT, ZEXTRA IS NULL FROM ZTHING ORDER BY ZSERIAL")
            #expect(entities.map { $0[1] } == (0..<8).map { .integer($0 % 2 == 0 ? 1 : 0) })
            #expect(Set(entities.map { $0[0] }).count == 2, "Z_ENT of things and sub-things kept")
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aValueSetBackBeforeTheSaveIsNotWrittenAndDoesNotConflict(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let objects = try Self.seeded(stack)
        let (full, empty) = (objects[0], objects[1])
        try full.setValue(H8.value("name", 1), forKey: "name")
        try full.setValue(H8.value("name", 0), forKey: "name")
        stack.context.processPendingChanges()
        try empty.setValue(Data([1]), forKey: "bytes")
        stack.context.processPendingChanges()
        try empty.setValue(nil, forKey: "bytes")
        try full.setValue(Int64(5), forKey: "serial")
        try stack.context.save()
        #expect(full.storeVersion == 2 && empty.storeVersion == 1)
        #expect(try stack.version(empty.objectID) == 1)
        H8.expect(try stack.reread(full.objectID), 0, [:], "full")
        H8.expect(try stack.reread(empty.objectID), 2, [:], "empty")
        #expect(try stack.reread(full.objectID).value(forKey: "serial") as? Int64 == 5)
        // Another writer moves the empty object's row on; setting a value back is still no
        // change, so the save neither conflicts nor writes.
        let rival = try stack.rival()
        try rival.existingObject(with: empty.objectID).setValue("theirs", forKey: "name")
        try rival.save()
        try empty.setValue("mine", forKey: "name")
        try empty.setValue(nil, forKey: "name")
        try stack.context.save()
        #expect(try stack.reread(empty.objectID).value(forKey: "name") as? String == "theirs")
        #expect(try stack.version(empty.objectID) == 2)
    }

    @Test(arguments: H8Kind.allCases)
    func relationshipOnlyChangesKeepTheAttributesAndMoveTheVersions(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let context = stack.context
        let objects = try Self.seeded(stack)
        let (first, second) = (try context.insertNewObject(forEntityNamed: "Box"), try context.insertNewObject(forEntityNamed: "Box"))
        try first.setValue("first", forKey: "label")
        try first.setValue([objects[0], objects[2]], forKey: "things")
        let tag = try context.insertNewObject(forEntityNamed: "Tag")
        try context.save()
        let before = objects.map(\.storeVersion)
        // A to-one moved (foreign key and the order of both boxes), then a many-to-many pair,
        // then an order change only.
        try objects[2].setValue(second, forKey: "box")
        try context.save()
        #expect(objects[2].storeVersion == before[2] + 1)
        #expect(objects[0].storeVersion == before[0], "untouched")
        try tag.mutableSetValue(forKey: "things").insert(objects[1])
        try context.save()
        try first.setValue([objects[1], objects[0]], forKey: "things")
        try context.save()
        let fresh = try stack.fresh()
        let seenFirst = try fresh.existingObject(with: first.objectID)
        #expect(try (seenFirst.value(forKey: "things") as? [ManagedObject])?.map(\.objectID) == [objects[1].objectID, objects[0].objectID])
        #expect(try seenFirst.value(forKey: "label") as? String == "first")
        let seenSecond = try fresh.existingObject(with: second.objectID)
        #expect(try (seenSecond.value(forKey: "things") as? [ManagedObject])?.map(\.objectID) == [objects[2].objectID])
        let seenTag = try fresh.existingObject(with: tag.objectID)
        #expect(try (seenTag.value(forKey: "things") as? Set<ManagedObject>)?.map(\.objectID) == [objects[1].objectID])
        H8.expect(try fresh.existingObject(with: objects[0].objectID), 0, [:], "full")
        H8.expect(try fresh.existingObject(with: objects[1].objectID), 2, [:], "empty")
        H8.expect(try fresh.existingObject(with: objects[2].objectID), 0, [:], "sub")
        #expect(try fresh.existingObject(with: objects[2].objectID).value(forKey: "extra") as? String == "extra")
        for object in objects + [first, second, tag] {
            #expect(try stack.version(object.objectID) == object.storeVersion, "\(object.entity.name)")
        }
        // Each relationship change made a version move: a rival holding the old versions
        // conflicts on every object the saves touched.
        #expect(objects[1].storeVersion > 1 && tag.storeVersion > 1 && first.storeVersion > 1)
    }
}
