import Foundation
import Testing
import TestSupport
import KeyValueCoding
import Predicates
@testable import ManagedObjects

@Suite struct ContextSaveFetchTests {
    /// The shared fruit-stand model (TestSupport).
    static func fruitModel() throws -> ManagedObjectModel { try FruitStandModel.make() }

    /// A stand with two crates: apples 2.0, 2.4, 2.2 in the first, oranges 2.6, 1.9 in the second.
    static func stocked() throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: try fruitModel())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        try FruitStandModel.stock(context)
        return (coordinator, context)
    }

    @Test func saveAssignsPermanentIDsPerInheritanceRoot() throws {
        let (coordinator, context) = try Self.stocked()
        #expect(!context.hasChanges)
        let fruit = try context.fetch(EntityFetchRequest(entityName: "Fruit"))
        #expect(fruit.count == 5)
        #expect(fruit.allSatisfy { !$0.objectID.isTemporaryID && $0.objectID.storeIdentifier == coordinator.stores[0].identifier })
        let keys = fruit.compactMap { id -> Int64? in
            if case .integer(let key) = id.objectID.referenceObject { return key }
            return nil
        }
        #expect(Set(keys) == Set(1...5), "apples and oranges share the Fruit root's key counter")
        #expect(coordinator.model.isEditable == false)
    }

    @Test func anotherContextFetchesWithPredicatesSortingAndSubentities() throws {
        let (coordinator, _) = try Self.stocked()
        let context = ManagedObjectContext(coordinator: coordinator)
        let big = try context.fetch(EntityFetchRequest(entityName: "Apple", predicate: KeyValuePredicate(format: "radius > 2.1")))
        #expect(Set(try big.map { try $0.value(forKey: "radius") as? Double }) == [2.4, 2.2])
        let sorted = try context.fetch(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)]))
        #expect(try sorted.map { try $0.value(forKey: "radius") as? Double } == [2.6, 2.4, 2.2, 2.0, 1.9])
        #expect(try sorted.first?.value(forKeyPath: "crate.stand.name") as? String == "Corner")
        var onlyFruit = EntityFetchRequest(entityName: "Fruit")
        onlyFruit.includesSubentities = false
        #expect(try context.count(for: onlyFruit) == 0, "Fruit is abstract")
        var limited = EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius")])
        limited.fetchOffset = 1
        limited.fetchLimit = 2
        #expect(try context.fetch(limited).map { try $0.value(forKey: "radius") as? Double } == [2.0, 2.2])
        let stand = try #require(context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let crates = try context.fetch(EntityFetchRequest(entityName: "Crate", predicate: KeyValuePredicate(format: "stand == %@", stand)))
        #expect(crates.count == 2)
    }

    @Test func relatedObjectsAreFaultsUntilRead() throws {
        let (coordinator, _) = try Self.stocked()
        let context = ManagedObjectContext(coordinator: coordinator)
        let apple = try #require(context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        let crate = try #require(try apple.value(forKey: "crate") as? ManagedObject)
        #expect(crate.isFault)
        #expect(try crate.value(forKey: "label") as? String == "A")
        #expect(!crate.isFault)
    }

    @Test func pendingChangesAreReflected() throws {
        let (_, context) = try Self.stocked()
        let orange = try context.insertNewObject(forEntityNamed: "Orange")
        try orange.setValue(3.0, forKey: "radius")
        let largest = try context.fetch(EntityFetchRequest(entityName: "Fruit", predicate: KeyValuePredicate(format: "radius > 2.5")))
        #expect(largest.count == 2)
        context.delete(try #require(largest.first { $0 !== orange }))
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit")) == 5)
        var saved = EntityFetchRequest(entityName: "Fruit")
        saved.includesPendingChanges = false
        #expect(try context.count(for: saved) == 5, "the saved fruit, the deleted one included")
    }

    @Test func deletesCascadeIntoTheStore() throws {
        let (coordinator, context) = try Self.stocked()
        let stand = try #require(context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        context.delete(stand)
        #expect(context.deletedObjects.count == 8)
        try context.save()
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Fruit")) == 0)
        #expect(try fresh.count(for: EntityFetchRequest(entityName: "Crate")) == 0)
    }

    @Test func updatesReachTheStoreAndConflictsAreRefused() throws {
        let (coordinator, first) = try Self.stocked()
        let second = ManagedObjectContext(coordinator: coordinator)
        let standA = try #require(first.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let standB = try #require(second.fetch(EntityFetchRequest(entityName: "Stand")).first)
        try standA.setValue("Market", forKey: "name")
        try first.save()
        let third = ManagedObjectContext(coordinator: coordinator)
        #expect(try third.fetch(EntityFetchRequest(entityName: "Stand")).first?.value(forKey: "name") as? String == "Market")
        try standB.setValue("Station", forKey: "name")
        // The default merge policy (error) throws the store's conflict as Apple's merge error.
        let error = #expect(throws: ManagedObjectMergeError.self) { try second.save() }
        #expect(error?.mergeConflicts.map(\.objectID) == [standB.objectID])
        #expect(second.hasChanges, "a refused save keeps the changes")
    }

    @Test func denyRuleRefusesTheSaveAndRollbackRecovers() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Owner", properties: [.toMany("pets", "Pet", inverse: "owner", deleteRule: .deny)]),
            EntityDescription(name: "Pet", properties: [.toOne("owner", "Owner", inverse: "pets")]),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let owner = try context.insertNewObject(forEntityNamed: "Owner")
        let pet = try context.insertNewObject(forEntityNamed: "Pet")
        try pet.setValue(owner, forKey: "owner")
        try context.save()
        context.delete(owner)
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.code == .relationshipDeniedDelete && error.code.rawValue == 1600 && error.key == "pets")
        #expect(error.objectDescription == owner.objectID.description)
        context.rollback()
        #expect(!owner.isDeleted && !context.hasChanges)
        #expect(try pet.value(forKey: "owner") as? ManagedObject === owner)
    }

    @Test func objectIDsLeadBackToObjects() throws {
        let (coordinator, context) = try Self.stocked()
        let stand = try #require(context.fetch(EntityFetchRequest(entityName: "Stand")).first)
        let uri = stand.objectID.uriRepresentation()
        let other = ManagedObjectContext(coordinator: coordinator)
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        let found = try other.existingObject(with: id)
        #expect(try found.value(forKey: "name") as? String == "Corner")
        #expect(try other.object(with: id) === found, "uniquing: one object per ID per context")
        context.delete(stand)
        try context.save()
        let late = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: ManagedObjectContextError.objectNotFound(id)) { try late.existingObject(with: id) }
    }

    @Test func saveValidatesEveryChangedObjectAndCollectsTheErrors() throws {
        let (_, context) = try Self.stocked()
        let nameless = try context.insertNewObject(forEntityNamed: "Stand")
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.code == .multipleErrors)
        #expect(Set(error.errors.map(\.code)) == [.missingMandatoryProperty])
        #expect(Set(error.errors.compactMap(\.key)) == ["name", "radius"])
        #expect(Set(error.errors.compactMap(\.objectDescription)) == [nameless.objectID.description, apple.objectID.description])
        #expect(nameless.objectID.isTemporaryID && context.hasChanges, "nothing was saved")
        try nameless.setValue("Kiosk", forKey: "name")
        try apple.setValue(2.0, forKey: "radius")
        try context.save()
        #expect(!apple.objectID.isTemporaryID)
        var value: Any? = nil
        #expect(throws: ManagedObjectValidationError.self) { try apple.validateValue(&value, forKey: "radius") }
    }

    @Test func aContextWithoutStoreCannotSave() throws {
        let context = ManagedObjectContext(model: try Self.fruitModel())
        try context.insertNewObject(forEntityNamed: "Stand")
        #expect(throws: ManagedObjectContextError.noStore("Stand")) { try context.save() }
        // The message says what to do (a porter's first save often has no store).
        let message = ManagedObjectContextError.noStore("Stand").localizedDescription
        #expect(message.contains("'Stand'") && message.contains("addStore") && message.contains("init(model:)"))
    }
}
