import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

// Hostile probes of optimistic locking when only changed columns are written (session 8): two
// writers of one row, column by column under every merge policy, then the file read again;
// deletes meeting a row changed underneath.
@Suite struct HostileSession8ConflictTests {
    enum Policy: String, CaseIterable, Sendable { case error, storeTrump, objectTrump, overwrite, rollback }

    static func mergePolicy(_ policy: Policy) -> MergePolicy {
        switch policy {
        case .error: .error
        case .storeTrump: .mergeByPropertyStoreTrump
        case .objectTrump: .mergeByPropertyObjectTrump
        case .overwrite: .overwrite
        case .rollback: .rollback
        }
    }

    static let cases: [(H8Kind, Policy, Bool)] = H8Kind.allCases.flatMap { kind in
        Policy.allCases.flatMap { policy in [false, true].map { (kind, policy, $0) } }
    }

    /// The first writer changes `name` and saves; the second (stale) changes `large`, and
    /// `name` too when `sameColumn`, then saves under `policy`.
    @Test(arguments: cases)
    func twoWritersOfOneRow(kind: H8Kind, policy: Policy, sameColumn: Bool) throws {
        let stack = try H8Stack(kind)
        let thing = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try H8.fill(thing, 0)
        try stack.context.save()
        let rival = try stack.rival()
        let theirs = try rival.existingObject(with: thing.objectID)
        try thing.setValue("first writer", forKey: "name")
        try stack.context.save()
        try theirs.setValue(Int64(42), forKey: "large")
        if sameColumn { try theirs.setValue("second writer", forKey: "name") }
        rival.mergePolicy = Self.mergePolicy(policy)
        let name: String
        let large: Int64
        let version: Int64
        switch policy {
        case .error:
            let error = try #require(throws: ManagedObjectMergeError.self) { try rival.save() }
            #expect(error.code == 133020)
            #expect(error.mergeConflicts.map(\.objectID) == [thing.objectID])
            #expect(error.mergeConflicts.first?.oldVersionNumber == 1)
            #expect(error.mergeConflicts.first?.newVersionNumber == 2)
            #expect(error.mergeConflicts.first?.persistedSnapshot?.attributes["name"] == .string("first writer"))
            #expect(rival.hasChanges, "a refused save keeps the changes")
            (name, large, version) = ("first writer", Int64.max, 2)
        case .storeTrump:
            try rival.save()
            (name, large, version) = ("first writer", 42, 3)
        case .objectTrump:
            try rival.save()
            (name, large, version) = (sameColumn ? "second writer" : "first writer", 42, 3)
        case .overwrite:
            try rival.save()
            (name, large, version) = (sameColumn ? "second writer" : H8.value("name", 0) as! String, 42, 3)
        case .rollback:
            try rival.save()
            (name, large, version) = ("first writer", Int64.max, 2)
        }
        let label = "\(policy) same column \(sameColumn)"
        let stored = try stack.reread(thing.objectID)
        #expect(try stored.value(forKey: "name") as? String == name, "\(label)")
        #expect(try stored.value(forKey: "large") as? Int64 == large, "\(label)")
        H8.expect(stored, 0, [:], label, except: ["name", "large"])
        #expect(try stack.version(thing.objectID) == version, "\(label)")
        if policy != .error {
            // The second writer's object agrees with the store, and saves again without conflict.
            #expect(try theirs.value(forKey: "name") as? String == name, "\(label)")
            #expect(try theirs.value(forKey: "large") as? Int64 == large, "\(label)")
            #expect(theirs.storeVersion == version, "\(label)")
            try theirs.setValue(Int16(1), forKey: "small")
            try rival.save()
            #expect(try stack.version(thing.objectID) == version + 1, "\(label)")
            #expect(try stack.reread(thing.objectID).value(forKey: "name") as? String == name, "\(label)")
        }
    }

    @Test(arguments: H8Kind.allCases)
    func manyDeletesWithOneRowChangedUnderneathDeleteNothing(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        var things: [ManagedObject] = []
        for index in 0..<60 {
            let thing = try stack.context.insertNewObject(forEntityNamed: index % 3 == 0 ? "SubThing" : "Thing")
            try thing.setValue(Int64(index), forKey: "serial")
            things.append(thing)
        }
        try stack.context.save()
        let rival = try stack.rival()
        try rival.existingObject(with: things[41].objectID).setValue("moved", forKey: "name")
        try rival.save()
        for thing in things { stack.context.delete(thing) }
        let error = try #require(throws: ManagedObjectMergeError.self) { try stack.context.save() }
        #expect(error.mergeConflicts.map(\.objectID) == [things[41].objectID])
        #expect(error.mergeConflicts.first?.isDeletedInContext == true)
        #expect(try stack.count("Thing") == 60, "nothing deleted")
        #expect(stack.context.deletedObjects.count == 60)
        // Object trump: the deletion wins, every row goes.
        stack.context.mergePolicy = .mergeByPropertyObjectTrump
        try stack.context.save()
        #expect(try stack.count("Thing") == 0)
        #expect(stack.context.registeredObjects.isEmpty)
    }

    @Test(arguments: H8Kind.allCases)
    func aDeletedObjectWhoseRowChangedComesBackUnderStoreTrump(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let thing = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try H8.fill(thing, 0)
        let other = try stack.context.insertNewObject(forEntityNamed: "Thing")
        try stack.context.save()
        let rival = try stack.rival()
        try rival.existingObject(with: thing.objectID).setValue("theirs", forKey: "name")
        try rival.save()
        stack.context.delete(thing)
        stack.context.delete(other)
        stack.context.mergePolicy = .mergeByPropertyStoreTrump
        try stack.context.save()
        let stored = try stack.reread(thing.objectID)
        H8.expect(stored, 0, [:], "store trump", except: ["name"])
        #expect(try stored.value(forKey: "name") as? String == "theirs")
        #expect(try stack.storedRow(other.objectID) == nil, "the unconflicted delete is written")
        #expect(try stack.count("Thing") == 1)
    }

    @Test(arguments: H8Kind.allCases)
    func aLockedObjectChangedUnderneathBlocksTheWholeSave(kind: H8Kind) throws {
        let stack = try H8Stack(kind)
        let things = try (0..<3).map { _ in try stack.context.insertNewObject(forEntityNamed: "Thing") }
        try stack.context.save()
        let rival = try stack.rival()
        try rival.existingObject(with: things[2].objectID).setValue(Int64(9), forKey: "serial")
        try rival.save()
        try things[0].setValue("changed", forKey: "name")
        stack.context.delete(things[1])
        stack.context.detectConflicts(for: things[2])
        let error = try #require(throws: ManagedObjectMergeError.self) { try stack.context.save() }
        #expect(error.mergeConflicts.map(\.objectID) == [things[2].objectID])
        #expect(try stack.reread(things[0].objectID).value(forKey: "name") == nil)
        #expect(try stack.storedRow(things[1].objectID) != nil)
        #expect(try stack.version(things[0].objectID) == 1)
    }
}
