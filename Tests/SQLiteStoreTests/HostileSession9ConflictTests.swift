import Foundation
import Testing
import ManagedObjects
import Predicates
@testable import SQLiteStore

/// Hostile checks of the inverses a merge policy's resolution leaves (session 9's
/// ConflictInverses): after any policy, both sides of every relationship must agree, in the
/// resolving context and in the store, for moves of an ordered to-many's member, many-to-many
/// changes, and deletes by the other writer.
@Suite struct HostileSession9ConflictTests {
    static var policies: [(MergePolicy, rivalWins: Bool)] { [
        (.mergeByPropertyObjectTrump, true), (.mergeByPropertyStoreTrump, false), (.overwrite, true), (.rollback, false),
    ] }

    /// Both sides of `box`/`things` and `tags`/`things` agree for every object of a context.
    static func bothSidesAgree(_ context: ManagedObjectContext, _ label: String) throws {
        let things = try context.fetch(EntityFetchRequest(entityName: "Thing"))
        let boxes = try context.fetch(EntityFetchRequest(entityName: "Box"))
        let tags = try context.fetch(EntityFetchRequest(entityName: "Tag"))
        for box in boxes {
            let members = try box.value(forKey: "things") as? [ManagedObject] ?? []
            #expect(Set(members.map(ObjectIdentifier.init)).count == members.count, "\(label): a box lists a thing twice")
            for thing in members {
                #expect(try thing.value(forKey: "box") as? ManagedObject === box, "\(label): box lists a thing that is elsewhere")
            }
        }
        for thing in things {
            if let box = try thing.value(forKey: "box") as? ManagedObject {
                let members = try box.value(forKey: "things") as? [ManagedObject] ?? []
                #expect(members.contains { $0 === thing }, "\(label): thing's box does not list it")
            }
            let thingTags = try thing.value(forKey: "tags") as? Set<ManagedObject> ?? []
            for tag in thingTags {
                let members = try tag.value(forKey: "things") as? Set<ManagedObject> ?? []
                #expect(members.contains(thing), "\(label): thing's tag does not list it")
            }
        }
        for tag in tags {
            for thing in try tag.value(forKey: "things") as? Set<ManagedObject> ?? [] {
                let thingTags = try thing.value(forKey: "tags") as? Set<ManagedObject> ?? []
                #expect(thingTags.contains(tag), "\(label): tag lists a thing without it")
            }
        }
    }

    /// Three boxes (the first holding two things, the middle one of which moves), three tags.
    static func setUp(_ kind: H8Kind) throws -> (H8Stack, [ManagedObject], [ManagedObject], [ManagedObject], ManagedObjectContext) {
        let stack = try H8Stack(kind)
        let things = try (0..<3).map { index -> ManagedObject in
            let thing = try stack.context.insertNewObject(forEntityNamed: "Thing")
            try thing.setValue(Int64(index), forKey: "serial")
            return thing
        }
        let boxes = try (0..<3).map { _ in try stack.context.insertNewObject(forEntityNamed: "Box") }
        let tags = try (0..<3).map { _ in try stack.context.insertNewObject(forEntityNamed: "Tag") }
        try boxes[0].setValue(things, forKey: "things")
        try things[1].setValue(Set([tags[0]]), forKey: "tags")
        try stack.context.save()
        let rival = try stack.rival()
        // The rival loads the graph before the first writer's save (stale afterwards).
        for object in things + boxes + tags {
            let theirs = try rival.existingObject(with: object.objectID)
            for key in ["things", "tags", "box"] { _ = try? theirs.value(forKey: key) }
        }
        return (stack, things, boxes, tags, rival)
    }

    @Test(arguments: H8Kind.allCases)
    func anOrderedMemberMovedByBothWritersIsListedOnce(kind: H8Kind) throws {
        for (policy, rivalWins) in Self.policies {
            let (stack, things, boxes, _, rival) = try Self.setUp(kind)
            try things[1].setValue(boxes[1], forKey: "box")
            try stack.context.save()
            let theirs = try rival.existingObject(with: things[1].objectID)
            try theirs.setValue(try rival.existingObject(with: boxes[2].objectID), forKey: "box")
            try theirs.setValue(Int64(99), forKey: "large")
            rival.mergePolicy = policy
            try rival.save()
            let winner = rivalWins ? boxes[2] : boxes[1]
            let stored = try stack.reread(things[1].objectID)
            #expect(try (stored.value(forKey: "box") as? ManagedObject)?.objectID == winner.objectID, "\(policy)")
            let fresh = try stack.fresh()
            try Self.bothSidesAgree(fresh, "\(kind) \(policy) store")
            try Self.bothSidesAgree(rival, "\(kind) \(policy) rival")
            let first = try fresh.existingObject(with: boxes[0].objectID)
            let order = (try first.value(forKey: "things") as? [ManagedObject] ?? []).map(\.objectID)
            #expect(order == [things[0].objectID, things[2].objectID], "\(kind) \(policy): the first box keeps its order")
        }
    }

    @Test(arguments: H8Kind.allCases)
    func manyToManyChangesOfBothWritersAgreeOnBothSides(kind: H8Kind) throws {
        for (policy, _) in Self.policies {
            let (stack, things, _, tags, rival) = try Self.setUp(kind)
            // The first writer swaps tag 0 for tag 1; the rival adds tag 2.
            try things[1].setValue(Set([tags[1]]), forKey: "tags")
            try stack.context.save()
            let theirs = try rival.existingObject(with: things[1].objectID)
            try theirs.mutableSetValue(forKey: "tags").insert(try rival.existingObject(with: tags[2].objectID))
            try theirs.setValue(Int64(5), forKey: "large")
            rival.mergePolicy = policy
            try rival.save()
            try Self.bothSidesAgree(try stack.fresh(), "\(kind) \(policy) store")
            try Self.bothSidesAgree(rival, "\(kind) \(policy) rival")
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aMoveIntoABoxTheOtherWriterEmptiedAgrees(kind: H8Kind) throws {
        for (policy, _) in Self.policies {
            let (stack, things, boxes, _, rival) = try Self.setUp(kind)
            // The first writer moves every thing out of box 0 into box 1 and deletes thing 2.
            try boxes[1].setValue([things[0], things[1]], forKey: "things")
            stack.context.delete(things[2])
            try stack.context.save()
            // The stale rival moves thing 1 back to box 0's end, and reorders box 0.
            let theirBox = try rival.existingObject(with: boxes[0].objectID)
            let theirThings = try things.prefix(2).map { try rival.existingObject(with: $0.objectID) }
            try theirBox.setValue([theirThings[1], theirThings[0]], forKey: "things")
            rival.mergePolicy = policy
            do {
                try rival.save()
            } catch {
                // A conflict the policy cannot resolve (the deleted thing) may be refused,
                // but the store must stay consistent.
            }
            try Self.bothSidesAgree(try stack.fresh(), "\(kind) \(policy) store")
            #expect(try stack.count("Thing") == 2, "\(kind) \(policy)")
        }
    }
}

extension HostileSession9ConflictTests {
    /// The other writer deleted the destination the stale rival links: the rival's save is
    /// refused or leaves no link to the deleted object; both sides agree either way.
    @Test(arguments: H8Kind.allCases)
    func aLinkToADestinationDeletedElsewhere(kind: H8Kind) throws {
        for (policy, _) in Self.policies {
            for target in ["Tag", "Box"] {
                let (stack, things, boxes, tags, rival) = try Self.setUp(kind)
                let doomed = target == "Tag" ? tags[1] : boxes[1]
                stack.context.delete(doomed)
                try stack.context.save()
                let theirs = try rival.existingObject(with: things[1].objectID)
                let theirDoomed = try #require(rival.registeredObject(for: doomed.objectID))
                if target == "Tag" {
                    try theirs.mutableSetValue(forKey: "tags").insert(theirDoomed)
                } else {
                    try theirs.setValue(theirDoomed, forKey: "box")
                }
                try theirs.setValue(Int64(3), forKey: "large")
                rival.mergePolicy = policy
                var saved = true
                do { try rival.save() } catch { saved = false }
                let fresh = try stack.fresh()
                try Self.bothSidesAgree(fresh, "\(kind) \(policy) \(target) saved \(saved)")
                #expect(try stack.count(target) == 2, "\(kind) \(policy) \(target): the deleted one stays deleted")
                let stored = try fresh.existingObject(with: things[1].objectID)
                if target == "Tag" {
                    let stillTagged = try stored.value(forKey: "tags") as? Set<ManagedObject> ?? []
                    #expect(!stillTagged.contains { $0.objectID == doomed.objectID }, "\(kind) \(policy): dangling tag")
                } else {
                    let box = try stored.value(forKey: "box") as? ManagedObject
                    #expect(box?.objectID != doomed.objectID, "\(kind) \(policy): dangling box")
                }
            }
        }
    }
}

extension HostileSession9ConflictTests {
    /// The first writer moves thing 1 from box 0 to box 1; the stale rival reorders box 0
    /// (still listing thing 1), or changes only an attribute of thing 1: after any policy both
    /// sides agree, in the store and in the rival.
    @Test(arguments: H8Kind.allCases)
    func aReorderOfTheBoxAMemberLeftAgrees(kind: H8Kind) throws {
        for (policy, _) in Self.policies {
            for reorder in [true, false] {
                let (stack, things, boxes, _, rival) = try Self.setUp(kind)
                try things[1].setValue(boxes[1], forKey: "box")
                try stack.context.save()
                let theirThings = try things.map { try rival.existingObject(with: $0.objectID) }
                if reorder {
                    let theirBox = try rival.existingObject(with: boxes[0].objectID)
                    try theirBox.setValue([theirThings[2], theirThings[1], theirThings[0]], forKey: "things")
                    try theirBox.setValue("reordered", forKey: "label")
                } else {
                    try theirThings[1].setValue(Int64(8), forKey: "large")
                }
                rival.mergePolicy = policy
                var saved = true
                var failure = ""
                do { try rival.save() } catch { saved = false; failure = "\(error)" }
                #expect(saved, "\(kind) \(policy) reorder \(reorder): \(failure)")
                let label = "\(kind) \(policy) reorder \(reorder)"
                try Self.bothSidesAgree(try stack.fresh(), label + " store")
                try Self.bothSidesAgree(rival, label + " rival")
                // The rival's thing 1 (when reordering: loaded before the first writer's save and
                // unchanged) follows the store's row once box 0's resolution drops it: it is in
                // box 1, which lists it (Docs/ManagedObjects.md, the inverses after a
                // resolution). Overwrite wrote the rival's box 0 (or thing 1) whole: box 0.
                let expected = "\(policy)".contains("overwrite") ? boxes[0] : boxes[1]
                let theirBox = try theirThings[1].value(forKey: "box") as? ManagedObject
                #expect(theirBox?.objectID == expected.objectID, "\(label): the rival's thing 1 is in \(String(describing: theirBox?.objectID))")
                let members = try theirBox?.value(forKey: "things") as? [ManagedObject] ?? []
                #expect(members.contains { $0 === theirThings[1] }, "\(label): the rival's box lists thing 1")
            }
        }
    }
}

extension HostileSession9ConflictTests {
    /// After the stale state above, the rival's later changes of thing 1 (an attribute, or a
    /// move to box 2) still save a graph whose sides agree in the store and in the rival.
    @Test(arguments: H8Kind.allCases)
    func laterChangesOfTheStaleMemberSaveAConsistentGraph(kind: H8Kind) throws {
        for (policy, _) in Self.policies {
            for move in [false, true] {
                let (stack, things, boxes, _, rival) = try Self.setUp(kind)
                try things[1].setValue(boxes[1], forKey: "box")
                try stack.context.save()
                let theirThings = try things.map { try rival.existingObject(with: $0.objectID) }
                let theirBox = try rival.existingObject(with: boxes[0].objectID)
                try theirBox.setValue([theirThings[2], theirThings[1], theirThings[0]], forKey: "things")
                rival.mergePolicy = policy
                try rival.save()
                if move {
                    try theirThings[1].setValue(try rival.existingObject(with: boxes[2].objectID), forKey: "box")
                } else {
                    try theirThings[1].setValue(Int64(1), forKey: "large")
                }
                try rival.save()
                let label = "\(kind) \(policy) move \(move)"
                let fresh = try stack.fresh()
                try Self.bothSidesAgree(fresh, label + " store")
                try Self.bothSidesAgree(rival, label + " rival")
                let stored = try fresh.existingObject(with: things[1].objectID)
                let box = try stored.value(forKey: "box") as? ManagedObject
                if move && "\(policy)".contains("Trump") == false && "\(policy)".contains("overwrite") == false {
                    #expect(box?.objectID == boxes[1].objectID, "\(label)")   // rollback: the store's box
                } else if move && ("\(policy)".contains("ObjectTrump") || "\(policy)".contains("overwrite")) {
                    #expect(box?.objectID == boxes[2].objectID, "\(label)")
                } else if !move {
                    // Overwrite wrote the rival's whole box 0 first (thing 1 back in it).
                    let expected = "\(policy)".contains("overwrite") ? boxes[0] : boxes[1]
                    #expect(box?.objectID == expected.objectID, "\(label)")
                }
            }
        }
    }
}

/// One-to-one moves by two writers (the to-one inverse path of the mend).
@Suite struct HostileSession9OneToOneConflictTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", properties: [
                .attribute("name", .string), .toOne("passport", "Passport", inverse: "holder"),
            ]),
            EntityDescription(name: "Passport", properties: [
                .attribute("number", .integer64), .toOne("holder", "Person", inverse: "passport"),
            ]),
        ])
    }

    static func agree(_ context: ManagedObjectContext, _ label: String) throws {
        for person in try context.fetch(EntityFetchRequest(entityName: "Person")) {
            if let passport = try person.value(forKey: "passport") as? ManagedObject {
                #expect(try passport.value(forKey: "holder") as? ManagedObject === person, "\(label): passport's holder")
            }
        }
        for passport in try context.fetch(EntityFetchRequest(entityName: "Passport")) {
            if let holder = try passport.value(forKey: "holder") as? ManagedObject {
                #expect(try holder.value(forKey: "passport") as? ManagedObject === passport, "\(label): holder's passport")
            }
        }
    }

    @Test(arguments: H8Kind.allCases)
    func aPassportGivenToTwoPeopleEndsWithOne(kind: H8Kind) throws {
        for (policy, rivalWins) in HostileSession9ConflictTests.policies {
            let stack = try H8Stack(kind, model: try Self.model())
            let people = try (0..<3).map { index -> ManagedObject in
                let person = try stack.context.insertNewObject(forEntityNamed: "Person")
                try person.setValue("p\(index)", forKey: "name")
                return person
            }
            let passport = try stack.context.insertNewObject(forEntityNamed: "Passport")
            try passport.setValue(people[0], forKey: "holder")
            try stack.context.save()
            let rival = try stack.rival()
            for object in people + [passport] {
                let theirs = try rival.existingObject(with: object.objectID)
                _ = try theirs.value(forKey: object.entity.name == "Person" ? "passport" : "holder")
            }
            try passport.setValue(people[1], forKey: "holder")
            try stack.context.save()
            let theirPassport = try rival.existingObject(with: passport.objectID)
            try theirPassport.setValue(try rival.existingObject(with: people[2].objectID), forKey: "holder")
            try theirPassport.setValue(Int64(7), forKey: "number")
            rival.mergePolicy = policy
            try rival.save()
            let fresh = try stack.fresh()
            try Self.agree(fresh, "\(kind) \(policy) store")
            try Self.agree(rival, "\(kind) \(policy) rival")
            let stored = try fresh.existingObject(with: passport.objectID)
            let holder = try stored.value(forKey: "holder") as? ManagedObject
            #expect(holder?.objectID == (rivalWins ? people[2] : people[1]).objectID, "\(kind) \(policy)")
            let first = try fresh.existingObject(with: people[0].objectID)
            #expect(try first.value(forKey: "passport") == nil, "\(kind) \(policy)")
        }
    }
}
