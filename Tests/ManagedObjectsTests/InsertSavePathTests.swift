import Foundation
import Testing
import KeyValueCoding
import Predicates
import UndoManagement
import TestSupport
@testable import ManagedObjects

/// The insert-and-save path's short cuts keep its rules: a new object's values at its insert
/// are its event-start values (its stores are quiet from the first), a save of many new
/// objects registers them anew under their permanent IDs, new objects' rows keep their slot
/// values alone when every value is exactly of its attribute's type, and validation reads
/// the value array in place.
@Suite struct InsertSavePathTests {
    static func model() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [
                .attribute("name", .string),
                .attribute("count", .integer64, defaultValue: 5),
                .attribute("when", .date),
            ]),
            EntityDescription(name: "Strict", properties: [
                .attribute("title", .string, isOptional: false),
                .attribute("when", .date),
            ]),
        ])
    }

    static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model())
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func aNewObjectsStoresAreQuietFromTheFirst() throws {
        let context = try Self.context()
        let item = try context.insertNewObject(forEntityNamed: "Item")
        #expect(item.quietSlots == item.layout.insertQuietSlots && item.quietSlots == 0b111)
        #expect(item.eventRecord?.count == 3, "every slot's value at the insert recorded")
        try item.setValue("a", forKey: "name")
        try item.setValue(Int64(7), forKey: "count")
        try item.setValue("b", forKey: "name")
        // The values at the insert: the default count, no name; the date never changed.
        let changed = item.changedValuesForCurrentEvent()
        #expect(Set(changed.keys) == ["name", "count"])
        #expect(changed["count"] as? Int64 == 5 && changed["name"].map { $0 == nil } == true)
        #expect(item.isInserted && !item.isUpdated && context.updatedObjects.isEmpty)
        context.processPendingChanges()
        #expect(item.eventRecord == nil && item.quietSlots == 0)
        // A later event: an update of that event (the full way again), still inserted.
        try item.setValue(Int64(8), forKey: "count")
        #expect(item.changedValuesForCurrentEvent()["count"] as? Int64 == 7)
        try context.save()
        #expect(item.quietSlots == 0 && !item.hasChanges)
    }

    /// The one difference the insert's record makes: a store without change tracking
    /// (`setPrimitiveValue`) before a slot's first change counts from the value at the insert.
    @Test func anUntrackedStoreOfANewObjectCountsFromTheInsert() throws {
        let context = try Self.context()
        let item = try context.insertNewObject(forEntityNamed: "Item")
        try item.setPrimitiveValue("untracked", forKey: "name")
        let untracked = item.changedValuesForCurrentEvent()
        #expect(Set(untracked.keys) == ["name"] && untracked["name"].map { $0 == nil } == true)
        try item.setValue("tracked", forKey: "name")
        #expect(item.changedValuesForCurrentEvent()["name"].map { $0 == nil } == true, "nil at the insert")
    }

    @Test func anUndoManagerSeesEveryStoreOfANewObject() throws {
        let context = try Self.context()
        context.undoManager = UndoHistory()
        let item = try context.insertNewObject(forEntityNamed: "Item")
        #expect(item.quietSlots == 0 && item.eventRecord == nil)
        try item.setValue("a", forKey: "name")
        context.processPendingChanges()
        try item.setValue("b", forKey: "name")
        try context.undo()
        #expect(try item.value(forKey: "name") as? String == "a")
        try context.undo()
        #expect(!context.insertedObjects.contains(item))
    }

    /// Saves `new` new items into a context already holding `loaded` saved ones.
    static func save(new: Int, besideLoaded loaded: Int) throws -> (ManagedObjectContext, [ManagedObject], [ManagedObjectID]) {
        let context = try Self.context()
        for index in 0..<loaded {
            try context.insertNewObject(forEntityNamed: "Item").setValue("old \(index)", forKey: "name")
        }
        try context.save()
        var items: [ManagedObject] = []
        for index in 0..<new {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue("new \(index)", forKey: "name")
            items.append(item)
        }
        let temporary = items.map(\.objectID)
        try context.save()
        return (context, items, temporary)
    }

    @Test(arguments: [(new: 40, loaded: 0), (new: 40, loaded: 10), (new: 3, loaded: 40)])
    func savedObjectsAreRegisteredUnderTheirPermanentIDs(new: Int, loaded: Int) throws {
        let (context, items, temporary) = try Self.save(new: new, besideLoaded: loaded)
        #expect(context.registeredObjects.count == new + loaded)
        for (item, old) in zip(items, temporary) {
            #expect(!item.objectID.isTemporaryID && context.registeredObject(for: item.objectID) === item)
            #expect(context.registeredObject(for: old) == nil)
        }
        #expect(Set(context.registeredObjects.map(\.objectID)).count == new + loaded)
    }

    @Test func newRowsKeepTheirValuesWhateverTheirTypes() throws {
        let context = try Self.context()
        let exact = try context.insertNewObject(forEntityNamed: "Item")
        try exact.setValue("exact", forKey: "name")
        try exact.setValue(Date(timeIntervalSinceReferenceDate: 10), forKey: "when")
        // A value of another integer type, stored without conversion: the row is made the
        // long way (converted), the object's other values unchanged.
        let converted = try context.insertNewObject(forEntityNamed: "Item")
        try converted.setValue("converted", forKey: "name")
        try converted.setPrimitiveValue(Int32(9), forKey: "count")
        try context.save()
        let store = try #require(context.coordinator?.stores.first)
        let exactRow = try #require(try store.row(for: exact.objectID))
        #expect(exactRow.attributeValue(named: "name") == .string("exact"))
        #expect(exactRow.attributeValue(named: "count") == .integer(5))
        #expect(exactRow.attributeValue(named: "when") == .date(Date(timeIntervalSinceReferenceDate: 10)))
        let convertedRow = try #require(try store.row(for: converted.objectID))
        #expect(convertedRow.attributeValue(named: "count") == .integer(9))
        // The store answers predicates from both kinds of row.
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let request = EntityFetchRequest(entityName: "Item", predicate: try KeyValuePredicate(format: "count >= 5"))
        let names = try other.fetch(request).compactMap { try $0.value(forKey: "name") as? String }
        #expect(Set(names) == ["exact", "converted"])
        let fetched = try other.existingObject(with: converted.objectID)
        #expect(try fetched.value(forKey: "count") as? Int64 == 9)
    }

    @Test func validationStillRefusesWhatTheModelRefuses() throws {
        let context = try Self.context()
        let missing = try context.insertNewObject(forEntityNamed: "Strict")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        try missing.setValue("t", forKey: "title")
        try missing.setPrimitiveValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "when")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        try missing.setPrimitiveValue(Int64(3), forKey: "title")
        try missing.setPrimitiveValue(nil, forKey: "when")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        try missing.setValue("t", forKey: "title")
        try missing.setValue(Date(timeIntervalSinceReferenceDate: 1), forKey: "when")
        try context.save()
        #expect(!missing.objectID.isTemporaryID)
    }
}
