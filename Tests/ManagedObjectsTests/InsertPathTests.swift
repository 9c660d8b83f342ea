import Foundation
import Predicates
import TestSupport
import Testing
@testable import ManagedObjects

/// Counts how often its initialiser runs: a bound subclass's own initialiser must run for each
/// new object, however many objects of other entities a context made before.
final class InsertPathCountingObject: ManagedObject {
    nonisolated(unsafe) static var initialisations = 0
    override class var entityName: String { "Counted" }

    required init(entityName: String, in model: ManagedObjectModel) throws(ManagedObjectModelError) {
        Self.initialisations += 1
        try super.init(entityName: entityName, in: model)
    }
}

/// The insert and save path: new objects made from a context's template, the save order,
/// permanent IDs, the in-memory store's batched writes.
@Suite(.serialized) struct InsertPathTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Plain", properties: [
                .attribute("name", .string, defaultValue: "untitled"),
                .attribute("count", .integer64, defaultValue: 5),
            ]),
            EntityDescription(name: "Counted", properties: [.attribute("name", .string)]),
        ])
    }

    static func context(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    static func key(_ object: ManagedObject) -> Int64? {
        if case .integer(let key) = object.objectID.referenceObject { return key }
        return nil
    }

    @Test func newObjectsOfOneEntityAreAlikeButDistinct() throws {
        let context = try Self.context(try Self.model())
        let objects = try (0..<4).map { _ in try context.insertNewObject(forEntityNamed: "Plain") }
        for object in objects {
            #expect(type(of: object) == ManagedObject.self)
            #expect(object.entity.name == "Plain" && object.objectID.entityName == "Plain")
            #expect(object.objectID.isTemporaryID && object.objectID.storeIdentifier == nil)
            #expect(object.managedObjectContext === context)
            #expect(try object.value(forKey: "name") as? String == "untitled")
            #expect(try object.value(forKey: "count") as? Int64 == 5)
            #expect(context.registeredObject(for: object.objectID) === object)
        }
        #expect(Set(objects.map(\.objectID)).count == 4)
        #expect(context.insertedObjects == Set(objects))
        // A value set on one object is its own.
        try objects[1].setValue("second", forKey: "name")
        #expect(try objects[2].value(forKey: "name") as? String == "untitled")
        try context.save()
        #expect(objects.map(Self.key) == [1, 2, 3, 4], "keys in insert order")
        #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObjects.count == 4)
    }

    @Test func aBoundSubclassStillRunsItsInitialiserBetweenPlainObjects() throws {
        let model = try Self.model()
        try model.setManagedObjectClass(InsertPathCountingObject.self, forEntityNamed: "Counted")
        let context = try Self.context(model)
        let before = InsertPathCountingObject.initialisations
        var made: [ManagedObject] = []
        for name in ["Plain", "Counted", "Plain", "Plain", "Counted"] { made.append(try context.insertNewObject(forEntityNamed: name)) }
        #expect(made.map { "\(type(of: $0))" } == ["ManagedObject", "InsertPathCountingObject", "ManagedObject", "ManagedObject",
                                                   "InsertPathCountingObject"])
        #expect(made.map(\.entity.name) == ["Plain", "Counted", "Plain", "Plain", "Counted"])
        #expect(InsertPathCountingObject.initialisations - before == 2)
        #expect(throws: ManagedObjectModelError.self) { try context.insertNewObject(forEntityNamed: "Missing") }
        #expect(context.insertedObjects.count == 5)
    }

    @Test func aContextWithoutCoordinatorSeesClassBindingsMadeLater() throws {
        // The model is still editable: a class bound after the first insert applies to the next.
        let model = try Self.model()
        let context = ManagedObjectContext(model: model)
        let first = try context.insertNewObject(forEntityNamed: "Counted")
        try model.setManagedObjectClass(InsertPathCountingObject.self, forEntityNamed: "Counted")
        let second = try context.insertNewObject(forEntityNamed: "Counted")
        #expect(type(of: first) == ManagedObject.self)
        #expect(type(of: second) == InsertPathCountingObject.self)
    }

    @Test func validationErrorsOfSparseUpdatesComeInRegistrationOrder() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Plain", properties: [.attribute("name", .string, isOptional: false)]),
        ])
        let context = try Self.context(model)
        let objects = try (0..<40).map { i -> ManagedObject in
            let object = try context.insertNewObject(forEntityNamed: "Plain")
            try object.setValue("n\(i)", forKey: "name")
            return object
        }
        try context.save()
        // Far apart in registration: sorted, not placed.
        try objects[39].setValue(nil, forKey: "name")
        try objects[0].setValue(nil, forKey: "name")
        try objects[20].setValue(nil, forKey: "name")
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.errors.map(\.objectDescription) == [0, 20, 39].map { objects[$0].objectID.description })
    }

    @Test func validationErrorsOfNewObjectsComeInInsertOrder() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Plain", properties: [.attribute("name", .string, isOptional: false)]),
        ])
        let context = try Self.context(model)
        let objects = try (0..<6).map { _ in try context.insertNewObject(forEntityNamed: "Plain") }
        try objects[2].setValue("valid", forKey: "name")
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.errors.map(\.objectDescription) == [0, 1, 3, 4, 5].map { objects[$0].objectID.description })
        #expect(objects.allSatisfy { $0.objectID.isTemporaryID }, "a failed save keeps the temporary IDs")
    }

    @Test func aDateWithoutRulesMustStillBeFinite() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Event", properties: [
                .attribute("when", .date),
                .attribute("due", .date, isOptional: false),
            ]),
        ])
        let context = try Self.context(model)
        let event = try context.insertNewObject(forEntityNamed: "Event")
        try event.setValue(Date(timeIntervalSinceReferenceDate: 10), forKey: "when")
        let missing = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(missing.errors.map(\.code) == [.missingMandatoryProperty] && missing.errors.first?.key == "due")
        // Key-value coding refuses such a date; a primitive store does not, and the save checks it.
        try event.setPrimitiveValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "when")
        try event.setValue(Date(timeIntervalSinceReferenceDate: 20), forKey: "due")
        let infinite = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(infinite.errors.map(\.code) == [.invalidDate] && infinite.errors.first?.key == "when")
        try event.setValue(nil, forKey: "when")
        try context.save()
        #expect(!event.objectID.isTemporaryID)
    }

    @Test func inMemoryStoreCountsKeysPerRootAcrossRunsOfNames() throws {
        let store = InMemoryStore()
        try store.load(for: try FruitStandModel.make())
        let ids = try store.newObjectIDs(for: ["Apple", "Apple", "Orange", "Apple", "Stand", "Stand"])
        #expect(ids.map(\.entityName) == ["Apple", "Apple", "Orange", "Apple", "Stand", "Stand"])
        #expect(ids.map(\.referenceObject) == [.integer(1), .integer(2), .integer(3), .integer(4), .integer(1), .integer(2)])
        #expect(ids.allSatisfy { $0.storeIdentifier == store.identifier })
        #expect(ids[0] == ManagedObjectID(entityName: "Apple", storeIdentifier: store.identifier, primaryKey: 1))
        #expect(ids[0].hashValue == ManagedObjectID(entityName: "Apple", storeIdentifier: store.identifier, primaryKey: 1).hashValue)
        let next = try store.newObjectIDs(for: ["Orange"])
        #expect(next.map(\.referenceObject) == [.integer(5)])
    }

    @Test func inMemoryStoreSavesInterleavedEntitiesAndRefusesRepeatedRows() throws {
        let store = InMemoryStore()
        try store.load(for: try FruitStandModel.make())
        let ids = try store.newObjectIDs(for: ["Apple", "Orange", "Apple"])
        let rows = zip(ids, [2.0, 3.0, 4.0]).map { StoreRow(objectID: $0, version: 0, attributes: ["radius": .double($1)]) }
        var changes = StoreSaveChanges()
        changes.inserted = rows
        let versions = try store.save(changes)
        #expect(versions == Dictionary(uniqueKeysWithValues: ids.map { ($0, Int64(1)) }))
        for (id, radius) in zip(ids, [2.0, 3.0, 4.0]) {
            let row = try #require(try store.row(for: id))
            #expect(row.version == 1 && row.attributes["radius"] == .double(radius))
        }
        let apples = try store.fetch(StoreFetchRequest(entityNames: ["Apple"], predicate: KeyValuePredicate(format: "radius > 1")))
        #expect(Set(apples.rows.map(\.objectID)) == [ids[0], ids[2]])
        // A row already stored, or of another store, is refused; nothing of that save is written.
        let fresh = try store.newObjectIDs(for: ["Apple"])[0]
        var again = StoreSaveChanges()
        again.inserted = [StoreRow(objectID: fresh, version: 0), rows[1]]
        #expect(throws: StoreSaveError.self) { try store.save(again) }
        #expect(try store.row(for: fresh) == nil)
        var foreign = StoreSaveChanges()
        foreign.inserted = [StoreRow(objectID: ManagedObjectID(entityName: "Apple", storeIdentifier: "elsewhere", primaryKey: 9), version: 0)]
        #expect(throws: StoreSaveError.self) { try store.save(foreign) }
        // Many small saves after a fetch keep every row.
        for radius in 0..<50 {
            var one = StoreSaveChanges()
            one.inserted = [StoreRow(objectID: try store.newObjectIDs(for: ["Apple"])[0], version: 0, attributes: ["radius": .double(Double(radius))])]
            _ = try store.save(one)
        }
        let all = try store.fetch(StoreFetchRequest(entityNames: ["Apple"]))
        #expect(all.rows.count == 52)
    }

    /// An entity of attributes only, of every type a new object's row is packed for, and one
    /// with a relationship (rows with a dictionary).
    static func typesModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Typed", properties: [
                .attribute("s", .string), .attribute("i16", .integer16), .attribute("i32", .integer32),
                .attribute("i64", .integer64), .attribute("d", .double), .attribute("b", .boolean),
                .attribute("date", .date), .attribute("unset", .string),
            ]),
            EntityDescription(name: "Owner", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("items", "Item", inverse: "owner"),
            ]),
            EntityDescription(name: "Item", properties: [
                .attribute("name", .string),
                .toOne("owner", "Owner", inverse: "items"),
            ]),
        ])
    }

    @Test func savedRowsReadBackAsTheObjectsHeldThem() throws {
        let model = try Self.typesModel()
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        var typed: [ManagedObject] = []
        for i in 0..<3 {
            let object = try context.insertNewObject(forEntityNamed: "Typed")
            try object.setValue("s\(i)", forKey: "s")
            try object.setValue(Int16(i), forKey: "i16")
            try object.setValue(Int32(-i), forKey: "i32")
            try object.setValue(Int64(i) << 40, forKey: "i64")
            try object.setValue(Double(i) / 3, forKey: "d")
            try object.setValue(i == 1, forKey: "b")
            try object.setValue(date.addingTimeInterval(Double(i)), forKey: "date")
            typed.append(object)
        }
        // A value given as another number type is converted on the way in (stored as Int16).
        try typed[2].setValue(7, forKey: "i16")
        // A primitive value of another integer type stays so in the object; the row has the
        // attribute's constant, and a fetch gives the attribute's type.
        try typed[0].setPrimitiveValue(Int(99), forKey: "i64")
        let owner = try context.insertNewObject(forEntityNamed: "Owner")
        try owner.setValue("o", forKey: "name")
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setValue(owner, forKey: "owner")
        try context.save()

        // The store's rows: the values as constants, unset ones left out.
        let row = try #require(try store.row(for: typed[1].objectID))
        #expect(row.version == 1)
        #expect(row.attributes == ["s": .string("s1"), "i16": .integer(1), "i32": .integer(-1), "i64": .integer(1 << 40),
                                   "d": .double(1.0 / 3), "b": .bool(true), "date": .date(date.addingTimeInterval(1))])
        #expect(row.relationships.isEmpty)
        #expect(try store.row(for: typed[2].objectID)?.attributes["i16"] == .integer(7))
        #expect(try store.row(for: typed[0].objectID)?.attributes["i64"] == .integer(99))
        #expect(try store.row(for: item.objectID)?.relationships["owner"] == [owner.objectID])

        // Another context reads the same values, of the attributes' types.
        let other = ManagedObjectContext(coordinator: coordinator)
        let request = EntityFetchRequest(entityName: "Typed", predicate: try KeyValuePredicate(format: "i64 >= %@", Int64(1) << 40),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "s", ascending: false)])
        let fetched = try other.fetch(request)
        #expect(try fetched.map { try $0.value(forKey: "s") as? String } == ["s2", "s1"])
        let second = try #require(fetched.last)
        #expect(try second.value(forKey: "i16") as? Int16 == 1)
        #expect(try second.value(forKey: "i32") as? Int32 == -1)
        #expect(try second.value(forKey: "i64") as? Int64 == 1 << 40)
        #expect(try second.value(forKey: "d") as? Double == 1.0 / 3)
        #expect(try second.value(forKey: "b") as? Bool == true)
        #expect(try second.value(forKey: "date") as? Date == date.addingTimeInterval(1))
        #expect(try second.value(forKey: "unset") == nil)
        #expect(try fetched.first?.value(forKey: "i16") as? Int16 == 7)
        let all = try other.fetch(EntityFetchRequest(entityName: "Typed", sortDescriptors: [KeyValueSortDescriptor(key: "s", ascending: true)]))
        #expect(try all.first?.value(forKey: "i64") as? Int64 == 99)

        // The saved objects change on their own; the store keeps the saved values.
        try typed[1].setValue("changed", forKey: "s")
        #expect(try store.row(for: typed[1].objectID)?.attributes["s"] == .string("s1"))
        #expect(try second.value(forKey: "s") as? String == "s1")
        try context.save()
        #expect(try store.row(for: typed[1].objectID)?.attributes["s"] == .string("changed"))
        #expect(try store.row(for: typed[1].objectID)?.version == 2)
    }

    @Test func uniquenessHoldsForPackedRows() throws {
        var tag = EntityDescription(name: "Tag", properties: [.attribute("name", .string), .attribute("rank", .integer64)])
        tag.uniquenessConstraints = [["name"]]
        let model = try ManagedObjectModel(entities: [tag])
        let context = try Self.context(model)
        let first = try context.insertNewObject(forEntityNamed: "Tag")
        try first.setValue("a", forKey: "name")
        try context.save()
        let second = try context.insertNewObject(forEntityNamed: "Tag")
        try second.setValue("a", forKey: "name")
        #expect(throws: (any Error).self) { try context.save() }
        try second.setValue("b", forKey: "name")
        try context.save()
        #expect(!second.objectID.isTemporaryID)
    }

    @Test func objectsOutliveTheirContextWithoutIt() throws {
        var objects: [ManagedObject] = []
        do {
            let context = try Self.context(try Self.model())
            objects = try (0..<3).map { _ in try context.insertNewObject(forEntityNamed: "Plain") }
            try context.save()
            #expect(objects.allSatisfy { $0.managedObjectContext === context })
        }
        #expect(objects.allSatisfy { $0.managedObjectContext == nil })
        #expect(try objects[0].value(forKey: "name") as? String == "untitled")
    }
}
