import Foundation
import Observation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
import UndoManagement
@testable import ManagedObjects

/// Hostile checks of Observation's tracking after set-lean's fast paths (the skip of the
/// registrar while no key path is retained, inline notifications of a bound subclass's store
/// by key, exact-type checks), and of the cheap hashing of objects and IDs.
@Suite struct HostileSession9ObservationTests {
    /// ``RepeatedTypedStoreTests/savedCrate()`` and a second context on its coordinator.
    static func stack() throws -> (ManagedObjectContext, ManagedObjectContext, TypedCrate) {
        let (context, crate) = try RepeatedTypedStoreTests.savedCrate()
        return (context, ManagedObjectContext(coordinator: try #require(context.coordinator)), crate)
    }

    /// Tracks `read`, runs `change`, and says whether the tracking fired.
    static func fires(_ read: () -> Void, _ change: () throws -> Void) rethrows -> Bool {
        let fired = ChangeRecorder()
        withObservationTracking { read() } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try change()
        return fired.count > 0
    }

    @Test func everyKindOfValueStoredByKeyFires() throws {
        let (context, _, crate) = try Self.stack()
        _ = crate.capacity   // registrar made outside tracking
        let values: [Any?] = [Int16(1), NSNumber(value: 2), Optional<Int16>.some(3) as Any, 4 as Int, Int64(5),
                              Optional<Any>.some(Int16(6)) as Any, NSNumber(value: Int16(7)) as Any]
        for (index, value) in values.enumerated() {
            // Each value fires on its first tracked store, and on a second round too.
            for round in 0..<2 {
                let fired = try Self.fires({ _ = crate.capacity }) {
                    try crate.setValue(value, forKey: "capacity")
                }
                #expect(fired, "value \(index) round \(round)")
                #expect(crate.capacity == Int16(index + 1))
                try crate.setValue(Int16(100 + round), forKey: "capacity")
            }
            try crate.setValue(value, forKey: "capacity")
        }
        // A subclass instance stored by key into a relationship of its superclass's type.
        let apple = try context.insertNewObject(TypedApple.self)
        apple.radius = 1
        _ = apple.crate
        #expect(try Self.fires({ _ = apple.crate }) { try apple.setValue(crate as Any, forKey: "crate") })
        #expect(apple.crate === crate)
        #expect(try Self.fires({ _ = crate.fruit }) { try crate.setValue([] as [TypedFruit], forKey: "fruit") })
        #expect(apple.crate == nil)
        #expect(try Self.fires({ _ = apple.crate }) { try crate.setValue([apple] as [TypedApple], forKey: "fruit") })
        #expect(apple.crate === crate)
    }

    @Test func undoRedoRefreshRollbackAndMergesFire() throws {
        let (context, other, crate) = try Self.stack()
        context.undoManager = UndoHistory()
        _ = crate.capacity
        crate.capacity = 20
        context.processPendingChanges()
        #expect(try Self.fires({ _ = crate.capacity }) { try context.undo() })
        #expect(crate.capacity == 12)
        #expect(try Self.fires({ _ = crate.capacity }) { try context.redo() })
        #expect(crate.capacity == 20)
        #expect(Self.fires({ _ = crate.capacity }) { context.rollback() })
        #expect(crate.capacity == 12)
        // A refresh without merging drops the unsaved value, and tells observers (trial12 N8).
        crate.capacity = 30
        _ = crate.capacity
        #expect(Self.fires({ _ = crate.capacity }) { context.refresh(crate, mergeChanges: false) })
        #expect(crate.capacity == 12)
        // Another context's save, merged.
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = other.onDidSave { result, _ in saves.append(result) }
        defer { token.cancel() }
        let theirs = try #require(try other.existingObject(with: crate.objectID) as? TypedCrate)
        theirs.capacity = 44
        try other.save()
        _ = crate.capacity
        #expect(try Self.fires({ _ = crate.capacity }) { context.mergeChanges(from: try #require(saves.last)) })
        #expect(crate.capacity == 44)
        theirs.capacity = 55
        try other.save()
        context.stalenessInterval = 0
        _ = crate.capacity
        #expect(Self.fires({ _ = crate.capacity }) { context.refresh(crate, mergeChanges: true) })
        #expect(crate.capacity == 55)
    }

    @Test func relationshipChangesFireOnBothSides() throws {
        let (context, _, crate) = try Self.stack()
        let stand = try context.insertNewObject(TypedStand.self)
        stand.name = "s"
        let second = try context.insertNewObject(TypedStand.self)
        second.name = "t"
        _ = stand.crates
        _ = crate.stand
        // Set from the to-one side: the to-many side's tracking fires.
        #expect(Self.fires({ _ = stand.crates }) { crate.stand = stand })
        #expect(stand.crates.contains(crate))
        // Moved to another stand by key: the old stand, the new one and the crate fire.
        #expect(try Self.fires({ _ = stand.crates }) { try crate.setValue(second, forKey: "stand") })
        #expect(Self.fires({ _ = second.crates }) { crate.stand = stand })
        // From the to-many side: the to-one side fires.
        #expect(Self.fires({ _ = crate.stand }) { second.crates = [crate] })
        #expect(crate.stand === second && stand.crates.isEmpty)
        #expect(try Self.fires({ _ = crate.stand }) { try stand.setValue(Set([crate]), forKey: "crates") })
        #expect(crate.stand === stand)
        #expect(Self.fires({ _ = crate.stand }) { context.delete(stand) })
        #expect(crate.stand == nil)
    }

    @Test func trackingOnAnotherThreadFires() async throws {
        let crate = try TypedCrate(in: try TypedFixtures.model())
        _ = crate.capacity
        let box = SendableBox(crate)
        let fired = ChangeRecorder()
        for round in 0..<20 {
            await Task.detached {
                withObservationTracking { _ = box.crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
            }.value
            crate.capacity = Int16(round)
            #expect(fired.count == round + 1)
        }
    }

    // MARK: hashing

    @Test func idsHashConsistentlyWithEquality() throws {
        let stores = ["A-STORE", "B-STORE"]
        var ids: [ManagedObjectID] = []
        for store in stores {
            for entity in ["Crate", "Stand", "crate"] {
                for key: Int64 in [0, 1, -1, .min, .max] {
                    ids.append(ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: key))
                    ids.append(ManagedObjectID(entityName: entity, storeIdentifier: store, referenceObject: .string("\(key)")))
                }
                ids.append(ManagedObjectID(entityName: entity, storeIdentifier: store, referenceObject: .string("")))
            }
        }
        let temporary = ManagedObjectID.temporary(entityName: "Crate")
        ids.append(temporary)
        ids.append(ManagedObjectID.temporary(entityName: "Crate"))
        if case .temporary(let uuid) = temporary.referenceObject {
            // The same temporary key given back, and a foreign temporary UUID.
            let again = ManagedObjectID(entityName: "Crate", storeIdentifier: "A-STORE", referenceObject: .temporary(uuid))
            ids.append(again)
            ids.append(ManagedObjectID(entityName: "Crate", storeIdentifier: "A-STORE", referenceObject: .temporary(UUID())))
        }
        // Every ID made twice, independently: equal, same hash everywhere, one Set member.
        let copies = ids.map { id -> ManagedObjectID in
            ManagedObjectID(entityName: String(id.entityName), storeIdentifier: id.storeIdentifier ?? "nil",
                            referenceObject: id.referenceObject)
        }
        for (id, copy) in zip(ids, copies) where id.storeIdentifier != nil {
            #expect(id == copy)
            #expect(id.hashValue == copy.hashValue)
            #expect(AnyHashable(id) == AnyHashable(copy) && AnyHashable(id).hashValue == AnyHashable(copy).hashValue)
            var a = Hasher(), b = Hasher()
            a.combine(id)
            b.combine(copy)
            #expect(a.finalize() == b.finalize())
        }
        var distinct = 0
        for (i, a) in ids.enumerated() where !ids[..<i].contains(a) { distinct += 1 }
        #expect(Set(ids).count == distinct)
        #expect(Set(ids + copies.filter { $0.storeIdentifier != "nil" }).count == distinct)
        #expect(Set(ids.map(AnyHashable.init)).count == distinct)
        var table: [ManagedObjectID: Int] = [:]
        for (index, id) in ids.enumerated() where table[id] == nil { table[id] = index }
        for copy in copies where copy.storeIdentifier != "nil" { #expect(table[copy] != nil) }
        // Different stores, same entity and key: not equal, both kept.
        let a = ManagedObjectID(entityName: "Crate", storeIdentifier: "A-STORE", primaryKey: 1)
        let b = ManagedObjectID(entityName: "Crate", storeIdentifier: "B-STORE", primaryKey: 1)
        #expect(a != b && Set([a, b]).count == 2)
        // Integer key vs string key of the same digits: not equal.
        #expect(a != ManagedObjectID(entityName: "Crate", storeIdentifier: "A-STORE", referenceObject: .string("1")))
        // Temporary vs permanent of the same counter: not equal.
        #expect(!ids.filter(\.isTemporaryID).contains { !$0.isTemporaryID })
    }

    @Test func idsRoundTripThroughURIsAndKeepTheirHash() throws {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        var objects: [TypedCrate] = []
        for _ in 0..<50 { objects.append(try context.insertNewObject(TypedCrate.self)) }
        let temporaryIDs = objects.map(\.objectID)
        var byID = Dictionary(uniqueKeysWithValues: zip(temporaryIDs, objects))
        for id in temporaryIDs {
            // A temporary ID's URI names no store: whatever it gives back must be that ID.
            if let back = coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()) {
                #expect(back == id && back.hashValue == id.hashValue)
            }
        }
        try context.save()
        for object in objects {
            #expect(!object.objectID.isTemporaryID)
            #expect(byID[object.objectID] == nil, "a permanent ID is not its temporary one")
            byID[object.objectID] = object
            let uri = object.objectID.uriRepresentation()
            let back = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
            #expect(back == object.objectID && back.hashValue == object.objectID.hashValue)
            #expect(byID[back] === object)
            #expect(context.registeredObject(for: back) === object)
        }
        // Objects hash by identity: in a Set, as AnyHashable, as dictionary keys.
        let set = Set(objects)
        #expect(set.count == 50 && objects.allSatisfy { set.contains($0) })
        #expect(Set(objects.map(AnyHashable.init)).count == 50)
        let scratch = try TypedCrate(in: try TypedFixtures.model())
        #expect(!set.contains(scratch))
    }
}

/// A non-Sendable object handed to another thread on purpose (the test waits for it).
private final class SendableBox: @unchecked Sendable {
    let crate: TypedCrate
    init(_ crate: TypedCrate) { self.crate = crate }
}

/// Key-value observers of a bound subclass hear stores by key (delivered inline) with the
/// right old and new values, beside Observation's tracking.
@Suite struct HostileSession9KeyValueObserverTests {
    @Test func storesByKeyReportOldAndNewValues() throws {
        let (context, _, crate) = try HostileSession9ObservationTests.stack()
        context.undoManager = UndoHistory()
        let recorder = ChangeRecorder()
        try crate.addObserver(recorder, forKeyPath: "capacity", options: [.old, .new])
        _ = crate.capacity
        let fired = ChangeRecorder()
        withObservationTracking { _ = crate.capacity } onChange: { fired.record(KeyValueChange(kind: .setting)) }
        try crate.setValue(NSNumber(value: 30), forKey: "capacity")      // converted
        try crate.setValue(Int16(31), forKey: "capacity")                // exact
        crate.capacity = 32                                               // typed
        try crate.setValue(Optional<Int16>.some(33) as Any, forKey: "capacity")
        context.processPendingChanges()
        try context.undo()
        #expect(fired.count == 1)
        // The undo replays each recorded store backwards (one undo group).
        #expect(recorder.newValues(as: Int16.self) == [30, 31, 32, 33, 32, 31, 30, 12])
        #expect(recorder.oldValues(as: Int16.self) == [12, 30, 31, 32, 33, 32, 31, 30])
        #expect(crate.capacity == 12)
        try crate.removeObserver(recorder, forKeyPath: "capacity")
    }
}
