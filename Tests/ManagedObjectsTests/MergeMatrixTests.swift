import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates

/// Merging and merge policies on the in-memory store (the shared bodies: TestSupport/MergeMatrix;
/// SQLiteStoreTests runs them on the SQLite store).
@Suite struct MergeMatrixTests {
    /// One in-memory store per test; every coordinator of the test shares it.
    static func factory() -> TestStoreFactory {
        let store = InMemoryStore()
        return TestStoreFactory("in-memory") { store }
    }

    @Test(arguments: MergePolicy.Kind.allCases) func optimisticLocking(kind: MergePolicy.Kind) throws {
        try MergeMatrix.optimisticLocking(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func relationshipOnlyChange(kind: MergePolicy.Kind) throws {
        try MergeMatrix.relationshipOnlyChange(kind, Self.factory())
    }

    @Test(arguments: [MergePolicy.Kind.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump])
    func toManyMergedByMember(kind: MergePolicy.Kind) throws {
        try MergeMatrix.toManyMergedByMember(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func deletedInStore(kind: MergePolicy.Kind) throws {
        try MergeMatrix.deletedInStore(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func deletedInContext(kind: MergePolicy.Kind) throws {
        try MergeMatrix.deletedInContext(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func constraintWithStoredRow(kind: MergePolicy.Kind) throws {
        try MergeMatrix.constraintWithStoredRow(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func constraintWithinContext(kind: MergePolicy.Kind) throws {
        try MergeMatrix.constraintWithinContext(kind, Self.factory())
    }

    @Test func constraintWithRegisteredObject() throws { try MergeMatrix.constraintWithRegisteredObject(Self.factory()) }
    @Test func customPolicy() throws { try MergeMatrix.customPolicy(Self.factory()) }
    @Test func mergeFromContextDidSave() throws { try MergeMatrix.mergeFromContextDidSave(Self.factory()) }
    @Test func mergeKeepsLocalChanges() throws { try MergeMatrix.mergeKeepsLocalChanges(Self.factory()) }
    @Test func refreshing() throws { try MergeMatrix.refreshing(Self.factory()) }
    @Test func remoteMergeAndStaleness() throws { try MergeMatrix.remoteMergeAndStaleness(Self.factory()) }

    @Test func defaultPolicyIsError() throws {
        let context = ManagedObjectContext(model: try MergeMatrix.model())
        #expect(context.mergePolicy.kind == .error && context.stalenessInterval < 0)
    }

    /// A constraint of an entity holds across its subentities: an orange cannot take an
    /// apple's code.
    @Test func constraintsHoldForSubentities() throws {
        var fruit = EntityDescription(name: "Fruit", isAbstract: true, properties: [.attribute("code", .string)])
        fruit.uniquenessConstraints = [["code"]]
        let model = try ManagedObjectModel(entities: [
            fruit, EntityDescription(name: "Apple", parent: "Fruit"), EntityDescription(name: "Orange", parent: "Fruit"),
        ])
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityNamed: "Apple").setValue("x", forKey: "code")
        try context.save()
        let orange = try context.insertNewObject(forEntityNamed: "Orange")
        try orange.setValue("x", forKey: "code")
        let error = #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        #expect(error?.constraintConflicts.first?.databaseObjectID?.entityName == "Apple")
        try orange.setValue(nil, forKey: "code")
        try context.save()                                  // nil never conflicts
    }

    /// The in-memory store refuses a save that breaks a uniqueness constraint by itself (a
    /// writer that did not check first).
    @Test func inMemoryStoreEnforcesUniqueness() throws {
        let model = try MergeMatrix.model()
        let store = InMemoryStore()
        try store.load(for: model)
        let ids = try store.newObjectIDs(for: ["Book", "Book", "Book"])
        func row(_ id: ManagedObjectID, _ isbn: String?) -> StoreRow {
            StoreRow(objectID: id, version: 0, attributes: isbn.map { ["isbn": .string($0)] } ?? [:])
        }
        #expect(throws: StoreSaveError.uniquenessConstraint(ids[1], properties: ["isbn"])) {
            try store.save(StoreSaveChanges(inserted: [row(ids[0], "1"), row(ids[1], "1")]))
        }
        _ = try store.save(StoreSaveChanges(inserted: [row(ids[0], "1"), row(ids[1], nil), row(ids[2], nil)]))
        #expect(throws: StoreSaveError.self) {
            try store.save(StoreSaveChanges(updated: [StoreRow(objectID: ids[2], version: 1, attributes: ["isbn": .string("1")])]))
        }
        // Deleting the holder of a value in the same save frees it.
        _ = try store.save(StoreSaveChanges(updated: [StoreRow(objectID: ids[2], version: 1, attributes: ["isbn": .string("1")])],
                                            deleted: [(ids[0], 1)]))
        #expect(try store.row(for: ids[2])?.attributes["isbn"] == .string("1"))
    }
}
