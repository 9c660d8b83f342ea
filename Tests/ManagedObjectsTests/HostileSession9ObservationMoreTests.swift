import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
import UndoManagement
@testable import ManagedObjects

/// Observation of properties declared by a superclass (`TypedFruit.radius`) on objects of a
/// subentity's layout (Apple, and Orange with no class of its own), tracked through either
/// static type, changed by every way in.
@Suite struct HostileSession9InheritedObservationTests {
    @Test func inheritedPropertiesFireOnSubentityObjects() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let apple = try context.insertNewObject(TypedApple.self)
        let orange = try #require(try context.insertNewObject(forEntityNamed: "Orange") as? TypedFruit)
        let crate = try context.insertNewObject(TypedCrate.self)
        apple.radius = 1
        orange.radius = 1
        try context.save()
        for fruit in [apple as TypedFruit, orange] {
            _ = fruit.radius
            let ways: [(String, () throws -> Void)] = [
                ("typed", { fruit.radius = fruit.radius + 1 }),
                ("by key exact", { try fruit.setValue(fruit.radius + 1, forKey: "radius") }),
                ("by key Int", { try fruit.setValue(Int(fruit.radius) + 1, forKey: "radius") }),
                ("by key NSNumber", { try fruit.setValue(NSNumber(value: fruit.radius + 1), forKey: "radius") }),
                ("to-one typed", { fruit.crate = fruit.crate == nil ? crate : nil }),
                ("inverse", { try crate.mutableArrayValue(forKey: "fruit").append(fruit) }),
            ]
            for (name, change) in ways {
                for round in 0..<2 {
                    let fired = ChangeRecorder()
                    withObservationTracking {
                        _ = fruit.radius
                        _ = fruit.crate
                    } onChange: { fired.record(KeyValueChange(kind: .setting)) }
                    try change()
                    #expect(fired.count == 1, "\(fruit.entity.name) \(name) round \(round)")
                    if name == "inverse" { fruit.crate = nil }
                }
            }
            if let apple = fruit as? TypedApple {
                let fired = ChangeRecorder()
                withObservationTracking { _ = apple.variety } onChange: { fired.record(KeyValueChange(kind: .setting)) }
                try apple.setValue("Gala", forKey: "variety")
                #expect(fired.count == 1)
            }
        }
    }
}

/// Relationship changes that the context makes on its own (delete rules, rollback, undo,
/// merges) fire Observation's tracking of both sides.
@Suite struct HostileSession9RelationshipObservationTests {
    @Test func contextMadeRelationshipChangesFire() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = UndoHistory()
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "s"
        let other = try context.insertNewObject(TypedStand.self)
        other.name = "o"
        let crates = (0..<3).map { _ in try! context.insertNewObject(TypedCrate.self) }
        for crate in crates { crate.stand = stand }
        try context.save()
        func fires(_ read: () -> Void, _ change: () throws -> Void) rethrows -> Bool {
            let fired = ChangeRecorder()
            withObservationTracking { read() } onChange: { fired.record(KeyValueChange(kind: .setting)) }
            try change()
            return fired.count > 0
        }
        _ = stand.crates
        _ = crates[0].stand
        // Delete rule (nullify on the crate's side): the stand's set loses it.
        #expect(fires({ _ = stand.crates }) { context.delete(crates[0]) })
        #expect(stand.crates.count == 2)
        // Rollback brings it back.
        #expect(fires({ _ = stand.crates }) { context.rollback() })
        #expect(stand.crates.count == 3)
        // Undo of a move: both stands and the crate.
        crates[1].stand = other
        context.processPendingChanges()
        #expect(try fires({ _ = other.crates }) { try context.undo() })
        #expect(crates[1].stand === stand && other.crates.isEmpty)
        #expect(try fires({ _ = crates[1].stand }) { try context.redo() })
        #expect(crates[1].stand === other)
        try context.save()
        // A merge of another context's move.
        let second = ManagedObjectContext(coordinator: coordinator)
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = second.onDidSave { result, _ in saves.append(result) }
        defer { token.cancel() }
        let theirs = try #require(try second.existingObject(with: crates[2].objectID) as? TypedCrate)
        theirs.stand = try #require(try second.existingObject(with: other.objectID) as? TypedStand)
        try second.save()
        _ = stand.crates
        _ = crates[2].stand
        #expect(try fires({ _ = crates[2].stand; _ = stand.crates }) { context.mergeChanges(from: try #require(saves.last)) })
        #expect(crates[2].stand === other)
        #expect(!stand.crates.contains(crates[2]))
        // Deleting the stand cascades to its crates: the crate's tracking fires.
        _ = crates[1].capacity
        #expect(fires({ _ = other.crates; _ = crates[1].stand }) { context.delete(other) })
        #expect(crates[1].isDeleted)
    }
}

/// Random rounds of tracking and stores: a tracking fires exactly when a key it read changes,
/// however many trackings are installed and let go on the way (the skip's counts move up and
/// down with them).
@Suite struct HostileSession9TrackingFuzzTests {
    final class Tracker {
        let reads: [(crate: Int, key: Int)]
        let fired = ChangeRecorder()
        init(reads: [(crate: Int, key: Int)]) { self.reads = reads }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomTrackingRounds(seed: UInt64) throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let crates = (0..<3).map { _ in try! context.insertNewObject(TypedCrate.self) }
        let stands = (0..<2).map { index -> TypedStand in
            let stand = try! context.insertNewObject(TypedStand.self)
            stand.name = "s\(index)"
            return stand
        }
        try context.save()
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        func read(_ crate: Int, _ key: Int) {
            if key == 0 { _ = crates[crate].capacity } else { _ = crates[crate].stand }
        }
        var counter: Int16 = 100
        var active: [Tracker] = []
        for step in 0..<400 {
            switch next(6) {
            case 0, 1:
                let reads = (0..<(1 + next(2))).map { _ in (crate: next(3), key: next(2)) }
                let tracker = Tracker(reads: reads)
                let fired = tracker.fired
                withObservationTracking {
                    for pair in reads { read(pair.crate, pair.key) }
                } onChange: { fired.record(KeyValueChange(kind: .setting)) }
                active.append(tracker)
            case 2:
                // An untracked read (makes registrars, retains nothing).
                read(next(3), next(2))
            case 5:
                if next(3) == 0 { try context.save() } else { context.processPendingChanges() }
            default:
                let crate = next(3), key = next(2), way = next(2)
                counter &+= 1
                if key == 0 {
                    if way == 0 { crates[crate].capacity = counter } else { try crates[crate].setValue(counter, forKey: "capacity") }
                } else {
                    let current = crates[crate].stand
                    let target: TypedStand? = current === stands[0] ? stands[1] : (current === stands[1] ? nil : stands[0])
                    if way == 0 { crates[crate].stand = target } else { try crates[crate].setValue(target, forKey: "stand") }
                }
                var remaining: [Tracker] = []
                for tracker in active {
                    let hit = tracker.reads.contains { $0.crate == crate && $0.key == key }
                    #expect(tracker.fired.count == (hit ? 1 : 0), "seed \(seed) step \(step): crate \(crate) key \(key) way \(way)")
                    if !hit { remaining.append(tracker) }
                }
                active = remaining
            }
        }
    }
}

/// To-many values by key in every collection form a caller may box them in: each either
/// stores the members (both sides follow, tracking fires) or is refused with nothing changed.
@Suite struct HostileSession9ToManyBoxingTests {
    @Test func everyCollectionFormStoresOrRefusesCleanly() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "s"
        let crates = (0..<2).map { _ in try! context.insertNewObject(TypedCrate.self) }
        try context.save()
        let forms: [(String, Any)] = [
            ("Set<TypedCrate>", Set(crates)),
            ("Set<ManagedObject>", Set(crates.map { $0 as ManagedObject })),
            ("[TypedCrate]", crates),
            ("[ManagedObject]", crates.map { $0 as ManagedObject }),
            ("[Any]", crates.map { $0 as Any }),
            ("Set<AnyHashable>", Set(crates.map(AnyHashable.init))),
            ("NSSet", NSSet(array: crates)),
            ("Optional<Set<TypedCrate>>", Optional(Set(crates)) as Any),
        ]
        for (name, value) in forms {
            stand.crates = []
            #expect(crates.allSatisfy { $0.stand == nil })
            _ = stand.crates
            let fired = ChangeRecorder()
            withObservationTracking { _ = stand.crates; _ = crates[1].stand } onChange: { fired.record(KeyValueChange(kind: .setting)) }
            do {
                try stand.setValue(value, forKey: "crates")
                #expect(stand.crates == Set(crates), "\(name)")
                #expect(crates.allSatisfy { $0.stand === stand }, "\(name): inverses")
                #expect(fired.count == 1, "\(name): tracking")
            } catch {
                #expect(stand.crates.isEmpty, "\(name): refused but changed")
                #expect(fired.count == 0, "\(name): refused but fired")
            }
        }
    }
}

/// Inserts undone and deletes merged from another context change the to-many side the
/// tracking read.
@Suite struct HostileSession9InsertDeleteObservationTests {
    @Test func undoneInsertsAndMergedDeletesFire() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "s"
        let kept = try context.insertNewObject(TypedCrate.self)
        kept.stand = stand
        try context.save()
        context.undoManager = UndoHistory()
        let crate = try context.insertNewObject(TypedCrate.self)
        crate.stand = stand
        context.processPendingChanges()
        _ = stand.crates
        let undone = ChangeRecorder()
        withObservationTracking { _ = stand.crates } onChange: { undone.record(KeyValueChange(kind: .setting)) }
        try context.undo()
        #expect(undone.count == 1)
        #expect(stand.crates == [kept])
        context.undoManager = nil

        let other = ManagedObjectContext(coordinator: coordinator)
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = other.onDidSave { result, _ in saves.append(result) }
        defer { token.cancel() }
        other.delete(try other.existingObject(with: kept.objectID))
        try other.save()
        _ = stand.crates
        let merged = ChangeRecorder()
        withObservationTracking { _ = stand.crates } onChange: { merged.record(KeyValueChange(kind: .setting)) }
        context.mergeChanges(from: try #require(saves.last))
        #expect(merged.count == 1)
        #expect(stand.crates.isEmpty)
    }
}

/// Two private-queue contexts of one model (one layout, one set of tracking key paths) track
/// and store at once on their queues: every tracking fires exactly once, whatever the other
/// queue's trackings do to the key paths' counts meanwhile.
@Suite struct HostileSession9QueueTrackingTests {
    @Test func concurrentTrackingOnTwoQueues() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let contexts = [ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator),
                        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)]
        let failures = ChangeRecorder()
        let group = DispatchGroup()
        for (index, context) in contexts.enumerated() {
            group.enter()
            context.perform { context in
                defer { group.leave() }
                let crate = try! context.insertNewObject(TypedCrate.self)
                _ = crate.capacity
                for round in 0..<2000 {
                    let fired = ChangeRecorder()
                    if round % 3 != 0 {
                        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
                    }
                    crate.capacity = Int16(truncatingIfNeeded: round + index)
                    if round % 5 == 0 { try? crate.setValue(Int16(7), forKey: "capacity") }
                    let expected = round % 3 != 0 ? 1 : 0
                    if fired.count != expected {
                        failures.record(KeyValueChange(kind: .setting), keyPath: "queue \(index) round \(round): \(fired.count)")
                    }
                }
            }
        }
        group.wait()
        #expect(failures.records.map(\.keyPath) == [])
    }
}
