import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile probes of two writers when one changes only relationships (session 8): a save writing
// only changed columns must still move the row's version for a relationship change, and merges
// must keep both writers' members and columns.
@Suite struct HostileSession8RelationshipConflictTests {
    /// A saved sub-thing (variant 0, extra "e"), two boxes, two tags; and a rival context.
    static func setUp(_ kind: H8Kind) throws -> (H8Stack, ManagedObject, [ManagedObject], ManagedObjectContext) {
        let stack = try H8Stack(kind)
        let thing = try stack.context.insertNewObject(forEntityNamed: "SubThing")
        try H8.fill(thing, 0)
        try thing.setValue("e", forKey: "extra")
        let others = try ["Box", "Box", "Tag", "Tag"].map { try stack.context.insertNewObject(forEntityNamed: $0) }
        try stack.context.save()
        return (stack, thing, others, try stack.rival())
    }

    @Test(arguments: H8Kind.allCases)
    func aRelationshipOnlySaveMakesAStaleAttributeSaveConflict(kind: H8Kind) throws {
        let (stack, thing, others, rival) = try Self.setUp(kind)
        let theirs = try rival.existingObject(with: thing.objectID)
        try thing.setValue(others[0], forKey: "box")          // a foreign key only
        try stack.context.save()
        #expect(try stack.version(thing.objectID) == 2)
        try theirs.setValue("rival", forKey: "extra")
        let error = try #require(throws: ManagedObjectMergeError.self) { try rival.save() }
        #expect(error.mergeConflicts.map(\.objectID) == [thing.objectID])
        // Store trump keeps the rival's column and the first writer's box.
        rival.mergePolicy = .mergeByPropertyStoreTrump
        try rival.save()
        let stored = try stack.reread(thing.objectID)
        #expect(try stored.value(forKey: "extra") as? String == "rival")
        #expect(try (stored.value(forKey: "box") as? ManagedObject)?.objectID == others[0].objectID)
        H8.expect(stored, 0, [:], "both writers")
        #expect(try stack.version(thing.objectID) == 3)
    }

    @Test(arguments: H8Kind.allCases)
    func twoWritersAddingTagsKeepBothUnderEitherPropertyPolicy(kind: H8Kind) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump] {
            let (stack, thing, others, rival) = try Self.setUp(kind)
            let theirs = try rival.existingObject(with: thing.objectID)
            let theirTag = try rival.existingObject(with: others[3].objectID)
            try thing.mutableSetValue(forKey: "tags").insert(others[2])
            try stack.context.save()
            try theirs.mutableSetValue(forKey: "tags").insert(theirTag)
            try theirs.setValue(Int64(1), forKey: "large")
            rival.mergePolicy = policy
            try rival.save()
            let stored = try stack.reread(thing.objectID)
            let tags = try stored.value(forKey: "tags") as? Set<ManagedObject> ?? []
            #expect(Set(tags.map(\.objectID)) == [others[2].objectID, others[3].objectID], "\(policy)")
            #expect(try stored.value(forKey: "large") as? Int64 == 1, "\(policy)")
            H8.expect(stored, 0, [:], "\(policy)", except: ["large"])
            if let url = stack.url { #expect(try H8.joinRows(url) == 2, "\(policy)") }
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aMovedForeignKeyAgainstAStaleMoveFollowsThePolicy(kind: H8Kind) throws {
        for (policy, winner) in [(MergePolicy.mergeByPropertyObjectTrump, 1), (.mergeByPropertyStoreTrump, 0), (.overwrite, 1), (.rollback, 0)] {
            let (stack, thing, others, rival) = try Self.setUp(kind)
            let theirs = try rival.existingObject(with: thing.objectID)
            try thing.setValue(others[0], forKey: "box")
            try stack.context.save()
            try theirs.setValue(try rival.existingObject(with: others[1].objectID), forKey: "box")
            rival.mergePolicy = policy
            try rival.save()
            let stored = try stack.reread(thing.objectID)
            #expect(try (stored.value(forKey: "box") as? ManagedObject)?.objectID == others[winner].objectID, "\(policy)")
            let loser = try stack.reread(others[1 - winner].objectID)
            // The box that loses the thing leaves it out, in either store (the in-memory store keeps
            // both sides of a relationship, so the resolution must change the losing box's inverse).
            #expect(try (loser.value(forKey: "things") as? [ManagedObject])?.isEmpty == true, "\(policy): the other box is empty")
            H8.expect(stored, 0, [:], "\(policy)")
            #expect(try stored.value(forKey: "extra") as? String == "e")
        }
    }
}
