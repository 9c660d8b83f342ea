import Foundation
import Testing
import ManagedObjects
import KeyValueObserving
import UndoManagement
@testable import SQLiteStore

/// Hostile checks of session 10's stale to-one destination that follows the store's row during
/// a resolution (ConflictInverses `followStoreRow`): the first writer moves thing 1 from box 0
/// to box 1; the stale rival reorders box 0 (a conflict that drops thing 1), and changes
/// something more. Both sides of every relationship must agree afterwards, in the store and in
/// the rival, and nothing may point at a deleted object.
@Suite struct HostileSession10ConflictTests {
    typealias Setup = (H8Stack, [ManagedObject], [ManagedObject], [ManagedObject], ManagedObjectContext)

    /// The shared start: thing 1 moved to box 1 by the first writer; the rival's box 0
    /// reordered (still listing thing 1).
    static func start(_ kind: H8Kind) throws -> (Setup, theirThings: [ManagedObject], theirBoxes: [ManagedObject]) {
        let setup = try HostileSession9ConflictTests.setUp(kind)
        let (stack, things, boxes, _, rival) = setup
        try things[1].setValue(boxes[1], forKey: "box")
        try stack.context.save()
        let theirThings = try things.map { try rival.existingObject(with: $0.objectID) }
        let theirBoxes = try boxes.map { try rival.existingObject(with: $0.objectID) }
        try theirBoxes[0].setValue([theirThings[2], theirThings[1], theirThings[0]], forKey: "things")
        try theirBoxes[0].setValue("reordered", forKey: "label")
        return (setup, theirThings, theirBoxes)
    }

    /// No thing in the store names a box that is not there.
    static func noDanglingBox(_ stack: H8Stack, _ label: String) throws {
        let fresh = try stack.fresh()
        let boxIDs = Set(try fresh.fetch(EntityFetchRequest(entityName: "Box")).map(\.objectID))
        for thing in try fresh.fetch(EntityFetchRequest(entityName: "Thing")) {
            if let box = try? thing.value(forKey: "box") as? ManagedObject {
                let serial = (try? thing.value(forKey: "serial")) as? Int64
                #expect(boxIDs.contains(box.objectID), "\(label): thing \(serial ?? -1) names a deleted box")
            }
        }
    }

    /// Saves the rival with `policy`, expecting success and both sides agreeing in the store and
    /// in the rival.
    static func saveAndExpectAgreement(_ stack: H8Stack, _ rival: ManagedObjectContext, _ policy: MergePolicy,
                                       _ label: String) throws {
        rival.mergePolicy = policy
        var failure = ""
        do { try rival.save() } catch { failure = "\(error)" }
        #expect(failure.isEmpty, "\(label): \(failure)")
        try HostileSession9ConflictTests.bothSidesAgree(try stack.fresh(), label + " store")
        try HostileSession9ConflictTests.bothSidesAgree(rival, label + " rival")
    }

    @Test(arguments: H8Kind.allCases)
    func theDestinationsOwnInverseChangedByTheRival(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let ((stack, _, _, _, rival), theirThings, theirBoxes) = try Self.start(kind)
            // The rival also puts thing 2 into its (stale, empty) box 1: box 1's things change
            // in the rival, so following the store's row leaves box 1 alone.
            try theirThings[2].setValue(theirBoxes[1], forKey: "box")
            try Self.saveAndExpectAgreement(stack, rival, policy, "\(kind) \(policy)")
        }
    }

    /// Known issue (predates the follow; see ``aDeletedDestinationWithoutAReorder(kind:)``): the
    /// rival deletes its stale box 1, which the store's row of box 1 (saved by the first writer)
    /// says holds thing 1. With mergeByPropertyObjectTrump the rival's delete wins, yet box 1's
    /// cascade (or a nullify) never reaches thing 1: the store keeps thing 1 → the deleted box 1,
    /// and thing 1 (followed to box 1 in the rival) is listed by no box, in the rival and the
    /// store. Expected: thing 1 deleted by the cascade (or its box nil), and no dangling box.
    @Test(arguments: H8Kind.allCases)
    func theDestinationDeletedByTheRival(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let check = {
                let ((stack, _, _, _, rival), _, theirBoxes) = try Self.start(kind)
                // The rival deletes its stale box 1 (empty there: nothing cascades), the box the
                // store's row gives thing 1.
                rival.delete(theirBoxes[1])
                rival.mergePolicy = policy
                var failure = ""
                do { try rival.save() } catch { failure = "\(error)" }
                let label = "\(kind) \(policy) saved \(failure.isEmpty)"
                try HostileSession9ConflictTests.bothSidesAgree(try stack.fresh(), label + " store")
                try Self.noDanglingBox(stack, label)
                if failure.isEmpty { try HostileSession9ConflictTests.bothSidesAgree(rival, label + " rival") }
            }
            if "\(policy)".contains("ObjectTrump") {
                withKnownIssue("a box deleted by the winning side of a resolution, whose store row lists a thing the deleting context never loaded in it, leaves that thing pointing at the deleted box (no cascade, no nullify)") {
                    try check()
                }
            } else {
                try check()
            }
        }
    }

    @Test(arguments: H8Kind.allCases)
    func anObserverOfTheFollowedSlotIsTold(kind: H8Kind) throws {
        let ((stack, _, boxes, _, rival), theirThings, theirBoxes) = try Self.start(kind)
        var seen: [ManagedObjectID?] = []
        let observation = try theirThings[1].observe("box", options: [.new]) { _, change in
            seen.append((change.newValue as? ManagedObject)?.objectID)
        }
        var memberCounts: [Int] = []
        let boxObservation = try theirBoxes[1].observe("things", options: [.new]) { _, change in
            memberCounts.append((change.newValue as? [ManagedObject])?.count ?? -1)
        }
        rival.mergePolicy = .mergeByPropertyObjectTrump
        try rival.save()
        _ = stack
        #expect(try theirThings[1].value(forKey: "box") as? ManagedObject === theirBoxes[1])
        #expect(seen.last == boxes[1].objectID, "observer saw \(seen)")
        #expect(memberCounts.last == 1, "box 1's observer saw \(memberCounts)")
        observation.invalidate()
        boxObservation.invalidate()
    }

    @Test(arguments: H8Kind.allCases)
    func aFaultedDestinationFollowsWhenLoaded(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let ((stack, _, _, _, rival), theirThings, theirBoxes) = try Self.start(kind)
            // The rival's box 1 a fault (its stale empty things dropped).
            rival.refresh(theirBoxes[1], mergeChanges: false)
            rival.mergePolicy = policy
            try rival.save()
            let label = "\(kind) \(policy)"
            try HostileSession9ConflictTests.bothSidesAgree(try stack.fresh(), label + " store")
            try HostileSession9ConflictTests.bothSidesAgree(rival, label + " rival")
            _ = theirThings
        }
    }

    @Test(arguments: H8Kind.allCases)
    func undoAfterTheResolvedSaveStaysConsistent(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let setup = try HostileSession9ConflictTests.setUp(kind)
            let (stack, things, boxes, _, rival) = setup
            rival.undoManager = UndoHistory()
            try things[1].setValue(boxes[1], forKey: "box")
            try stack.context.save()
            let theirThings = try things.map { try rival.existingObject(with: $0.objectID) }
            let theirBox = try rival.existingObject(with: boxes[0].objectID)
            rival.processPendingChanges()
            try theirBox.setValue([theirThings[2], theirThings[1], theirThings[0]], forKey: "things")
            rival.processPendingChanges()
            rival.mergePolicy = policy
            try rival.save()
            try rival.undo()
            var failure = ""
            do { try rival.save() } catch { failure = "\(error)" }
            let label = "\(kind) \(policy) undo saved \(failure.isEmpty)"
            // Undo puts box 0's recorded members back ([thing 0, thing 1, thing 2]), but the
            // resolution moved thing 1 to box 1 outside the undo history, so nothing moves thing
            // 1 back: box 0 lists thing 1 while thing 1 is in box 1 (in the rival; the in-memory
            // store saves that too). Expected: undo leaves both sides agreeing (or the
            // resolution clears the undo history it invalidated).
            withKnownIssue("undo after a save whose conflict resolution changed relationships replays members the resolution moved elsewhere: a box lists a thing that is in another box") {
                try HostileSession9ConflictTests.bothSidesAgree(rival, label + " rival")
                try HostileSession9ConflictTests.bothSidesAgree(try stack.fresh(), label + " store")
            }
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aManyToManyMoveByTheFirstWriter(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let (stack, things, _, tags, rival) = try HostileSession9ConflictTests.setUp(kind)
            // Thing 1 moves from tag 0 to tag 1; the stale rival gives tag 0 thing 2 as well.
            try things[1].setValue(Set([tags[1]]), forKey: "tags")
            try stack.context.save()
            let theirTag = try rival.existingObject(with: tags[0].objectID)
            let theirThings = try things.map { try rival.existingObject(with: $0.objectID) }
            try theirTag.setValue(Set([theirThings[1], theirThings[2]]), forKey: "things")
            try theirTag.setValue("two", forKey: "name")
            try Self.saveAndExpectAgreement(stack, rival, policy, "\(kind) \(policy)")
        }
    }
}

extension HostileSession10ConflictTests {
    /// Known issue, without any follow (no reorder, so box 0 is not resolved): the first
    /// writer moves thing 1 into box 1; the stale rival (box 1 empty there) deletes box 1. With
    /// mergeByPropertyObjectTrump and overwrite the save succeeds and the store's thing 1 still
    /// names box 1, which is gone. Expected: the delete's cascade (Box.things is cascade) or a
    /// nullify reaches thing 1, or the save fails with the conflict.
    @Test(arguments: H8Kind.allCases)
    func aDeletedDestinationWithoutAReorder(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let check = {
                let (stack, things, boxes, _, rival) = try HostileSession9ConflictTests.setUp(kind)
                try things[1].setValue(boxes[1], forKey: "box")
                try stack.context.save()
                rival.delete(try rival.existingObject(with: boxes[1].objectID))
                rival.mergePolicy = policy
                var failure = ""
                do { try rival.save() } catch { failure = "\(error)" }
                try Self.noDanglingBox(stack, "\(kind) \(policy) saved \(failure.isEmpty)")
            }
            if "\(policy)".contains("ObjectTrump") || "\(policy)".contains("overwrite") {
                withKnownIssue("a delete that wins a resolution leaves a thing the store's row of the deleted box lists pointing at it") {
                    try check()
                }
            } else {
                try check()
            }
        }
    }
}

extension HostileSession10ConflictTests {
    /// Fixed: the rival's thing 1 kept naming box 0 (the follow found no store row and left
    /// it). The first writer moves thing 1 to box 1 and then deletes box 1 (cascading to thing 1);
    /// the stale rival reorders box 0, still listing thing 1. After any policy the store has
    /// no dangling box, and the rival's graph agrees (thing 1, gone from the store, is not
    /// left pointing at box 0 while box 0 no longer lists it).
    @Test(arguments: H8Kind.allCases)
    func theFollowedRowIsGone(kind: H8Kind) throws {
        for (policy, _) in HostileSession9ConflictTests.policies {
            let (stack, things, boxes, _, rival) = try HostileSession9ConflictTests.setUp(kind)
            try things[1].setValue(boxes[1], forKey: "box")
            try stack.context.save()
            stack.context.delete(boxes[1])
            try stack.context.save()
            // Loaded by the rival before both saves (setUp): its stale objects.
            let theirThings = try things.map { try #require(rival.registeredObject(for: $0.objectID)) }
            let theirBox = try #require(rival.registeredObject(for: boxes[0].objectID))
            try theirBox.setValue([theirThings[2], theirThings[1], theirThings[0]], forKey: "things")
            try theirBox.setValue("reordered", forKey: "label")
            rival.mergePolicy = policy
            var failure = ""
            do { try rival.save() } catch { failure = "\(error)" }
            let label = "\(kind) \(policy) saved \(failure.isEmpty)"
            try Self.noDanglingBox(stack, label)
            try HostileSession9ConflictTests.bothSidesAgree(try stack.fresh(), label + " store")
            guard failure.isEmpty else { continue }
            let check = {
                let box = try theirThings[1].value(forKey: "box") as? ManagedObject
                let members = try theirBox.value(forKey: "things") as? [ManagedObject] ?? []
                #expect(box !== theirBox || members.contains { $0 === theirThings[1] }, "\(label): the rival's thing 1 names box 0, which does not list it")
            }
            if "\(policy)".contains("overwrite") {
                // Overwrite writes the rival's box 0 without thing 1 (gone from the store) and
                // mends no inverse: the rival's thing 1 (deleted elsewhere, still registered)
                // keeps naming box 0.
                withKnownIssue("after an overwrite, a stale object another writer deleted keeps naming the box that no longer lists it") {
                    try check()
                }
            } else {
                try check()
            }
        }
    }
}
