import Foundation
import Testing
import ObjectGraphInternals
import TestSupport
@testable import ManagedObjects

/// The insert path's cheaper steps keep their rules: objects and IDs hash by a mix of their
/// identity or key (equal IDs alike, buckets spread, every collection seeded apart), an insert
/// probes the registry once, a save's registry rebuild still refuses a new ID that names an
/// object, and a new object takes its own copy of the layout's new-object values at its
/// insert.
@Suite struct InsertRegistryAndHashingTests {
    // MARK: Hashing

    @Test func equalIDsHashAlikeWhicheverWayTheyWereMade() {
        let store = "6C2F1E8D-3B4A-4F5C-9D0E-1A2B3C4D5E6F"
        let made = ManagedObjectID(entityName: "Apple", storeIdentifier: store, primaryKey: 42)
        let derived = ManagedObjectID(entityName: "Apple", storeIdentifier: store, primaryKey: 1).withPrimaryKey(42)
        let byReference = ManagedObjectID(entityName: "Apple", storeIdentifier: store, referenceObject: .integer(42))
        let keyed = ManagedObjectID(entityName: "Apple", storeIdentifier: store, referenceObject: .string("k"))
        let keyedAgain = ManagedObjectID(entityName: "Apple", storeIdentifier: store, referenceObject: .string("k"))
        #expect(made == derived && made == byReference && keyed == keyedAgain)
        for seed in [0, 1, -7, Int.max, 0x5EED] {
            #expect(made._rawHashValue(seed: seed) == derived._rawHashValue(seed: seed))
            #expect(made._rawHashValue(seed: seed) == byReference._rawHashValue(seed: seed))
            #expect(keyed._rawHashValue(seed: seed) == keyedAgain._rawHashValue(seed: seed))
        }
        #expect(made.hashValue == derived.hashValue && keyed.hashValue == keyedAgain.hashValue)
        // Same key, other entity: a different hash (the entity name takes part).
        let orange = ManagedObjectID(entityName: "Orange", storeIdentifier: store, primaryKey: 42)
        #expect(made._rawHashValue(seed: 0) != orange._rawHashValue(seed: 0))
    }

    /// Sequential keys and objects' addresses (16-byte aligned, a fixed stride apart) land in
    /// spread buckets: the low 12 bits of 4,096 hashes take most of their values, which the
    /// raw words would not (an address's low four bits are always zero).
    @Test func hashesOfSequentialKeysAndNearbyObjectsSpreadOverTheBuckets() throws {
        let store = "6C2F1E8D-3B4A-4F5C-9D0E-1A2B3C4D5E6F"
        let ids = (0..<4096).map { ManagedObjectID(entityName: "Apple", storeIdentifier: store, primaryKey: Int64($0 * 4096)) }
        #expect(Set(ids.map { $0._rawHashValue(seed: 3) & 0xFFF }).count > 2_400)
        let model = try FruitStandModel.make()
        let objects = try (0..<4096).map { _ in try ManagedObject(entityName: "Apple", in: model) }
        #expect(Set(objects.map { $0._rawHashValue(seed: 3) & 0xFFF }).count > 2_400)
        // Another seed, other buckets: what keeps copying one set into another linear.
        let moved = zip(objects.map { $0._rawHashValue(seed: 3) & 0xFFF }, objects.map { $0._rawHashValue(seed: 4) & 0xFFF })
        #expect(moved.filter { $0 != $1 }.count > 3_900)
        #expect(IdentityHashing.mix(1, 2, seed: 0) != IdentityHashing.mix(2, 1, seed: 0))
    }

    @Test func setsAndDictionariesOfManyIDsAndObjectsFindEveryMember() throws {
        let store = "6C2F1E8D-3B4A-4F5C-9D0E-1A2B3C4D5E6F"
        var byID: [ManagedObjectID: Int] = [:]
        for key in 0..<30_000 {
            byID[ManagedObjectID(entityName: key.isMultiple(of: 2) ? "Apple" : "Orange", storeIdentifier: store,
                                 primaryKey: Int64(key / 2))] = key
        }
        #expect(byID.count == 30_000)
        for key in stride(from: 0, to: 30_000, by: 7) {
            let id = ManagedObjectID(entityName: key.isMultiple(of: 2) ? "Apple" : "Orange", storeIdentifier: store,
                                     primaryKey: Int64(key / 2))
            #expect(byID[id] == key)
        }
        let model = try FruitStandModel.make()
        let objects = try (0..<5_000).map { _ in try ManagedObject(entityName: "Apple", in: model) }
        let set = Set(objects)
        #expect(set.count == 5_000 && objects.allSatisfy(set.contains))
        #expect(!set.contains(try ManagedObject(entityName: "Apple", in: model)))
    }

    // MARK: Registry

    @Test func insertingARegisteredObjectAgainChangesNothing() throws {
        let context = try InsertSavePathTests.context()
        let item = try context.insertNewObject(forEntityNamed: "Item")
        let sequence = item.registrationSequence
        try context.insert(item)
        #expect(context.registeredObjects == [item] && context.insertedObjects == [item])
        #expect(item.registrationSequence == sequence && context.registeredObject(for: item.objectID) === item)
    }

    /// A store that hands out an ID naming a registered object fails the save, whether the
    /// save registers its new objects one by one (few new objects among many registered) or
    /// rebuilds the registry (mostly new objects); nothing changes ID.
    @Test(arguments: [1, 6])
    func aNewIDNamingARegisteredObjectFailsTheSaveEitherWay(newObjects: Int) throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = (100..<104).map { key in
            StoreRow(objectID: StoreAnswerCheckTests.id("Apple", Int64(key)), version: 1, attributes: ["radius": .double(2)])
        }
        // Rising keys from 103: the first new one names the fetched apple 103.
        script.newIDs = { names, store in
            names.enumerated().map { ManagedObjectID(entityName: $1, storeIdentifier: store, primaryKey: Int64(103 + $0)) }
        }
        let context = try StoreAnswerCheckTests.context(script)
        let fetched = try context.fetch(EntityFetchRequest(entityName: "Apple"))
        #expect(fetched.count == 4)
        let apples = try (0..<newObjects).map { _ in try context.insertNewObject(forEntityNamed: "Apple") }
        for apple in apples { try apple.setValue(2.5, forKey: "radius") }
        let temporaryIDs = apples.map(\.objectID)
        do {
            try context.save()
            Issue.record("the save went through with an ID that names a registered object")
        } catch let error as ManagedObjectContextError {
            guard case .invalidStoreAnswer(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("already names an object"))
        }
        #expect(apples.map(\.objectID) == temporaryIDs)
        #expect(zip(apples, temporaryIDs).allSatisfy { context.registeredObject(for: $1) === $0 })
        for object in fetched { #expect(context.registeredObject(for: object.objectID) === object) }
        #expect(context.registeredObjects.count == 4 + newObjects && context.insertedObjects == Set(apples))
    }

    // MARK: New objects' values

    @Test func aNewObjectTakesItsOwnCopyOfPlainDefaultsAtItsInsert() throws {
        let context = try InsertSavePathTests.context()
        let first = try context.insertNewObject(forEntityNamed: "Item")
        #expect(first.layout.newObjectValuesCopiedBitwise() != nil, "nil, an integer and nil: plain values")
        #expect(!first.layout.isNewObjectValues(first.values), "its own array from the insert on")
        try first.setValue(Int64(9), forKey: "count")
        try first.setValue("a", forKey: "name")
        let second = try context.insertNewObject(forEntityNamed: "Item")
        #expect(try second.value(forKey: "count") as? Int64 == 5 && second.layout.newObjectValues[1] as? Int64 == 5)
        let changed = first.changedValuesForCurrentEvent()
        #expect(changed["count"] as? Int64 == 5 && Set(changed.keys) == ["count", "name"])
        try context.save()
        #expect(try first.value(forKey: "count") as? Int64 == 9)
        #expect(try second.value(forKey: "count") as? Int64 == 5)
    }

    @Test func defaultsHoldingReferencesAreCopiedAsBefore() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("text", .string, defaultValue: "blank")]),
        ])
        let context = ManagedObjectContext(model: model)
        let note = try context.insertNewObject(forEntityNamed: "Note")
        #expect(note.layout.newObjectValuesCopiedBitwise() == nil, "a string may hold a reference")
        #expect(note.layout.isNewObjectValues(note.values), "shared until its first store, as before")
        try note.setValue("written", forKey: "text")
        #expect(try context.insertNewObject(forEntityNamed: "Note").value(forKey: "text") as? String == "blank")
        #expect(note.changedValuesForCurrentEvent()["text"] as? String == "blank")
        // An empty to-many set is not a plain value either.
        let stand = try ManagedObject(entityName: "Stand", in: try FruitStandModel.make())
        #expect(stand.layout.newObjectValuesCopiedBitwise() == nil)
    }
}
