import Foundation
import Testing
import TestSupport
import ManagedObjects
import Predicates
import Synchronization

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

    @Test(arguments: MergePolicy.Kind.allCases) func toOneMovedBothWays(kind: MergePolicy.Kind) throws {
        try MergeMatrix.toOneMovedBothWays(kind, Self.factory())
    }

    @Test(arguments: MergePolicy.Kind.allCases) func toOneMovedBothWaysAgainstStaleShelves(kind: MergePolicy.Kind) throws {
        try MergeMatrix.toOneMovedBothWays(kind, Self.factory(), staleShelves: true)
    }

    /// The atomic file store keeps both sides of a relationship as the in-memory store does.
    @Test(arguments: MergePolicy.Kind.allCases, [false, true])
    func toOneMovedBothWaysOnAFileStore(kind: MergePolicy.Kind, staleShelves: Bool) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("MergeMatrix-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        let store = AtomicFileStore(url: url)
        try MergeMatrix.toOneMovedBothWays(kind, TestStoreFactory("file") { store }, staleShelves: staleShelves)
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

    @Test(arguments: MergePolicy.Kind.allCases) func constraintByUpdate(kind: MergePolicy.Kind) throws {
        try MergeMatrix.constraintByUpdate(kind, Self.factory())
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

    /// Another writer saves a duplicate between the context's check and its write: the store
    /// refuses the write, and the next round finds the stored row and resolves the conflict.
    @Test func aDuplicateSavedDuringTheSaveIsResolvedInTheNextRound() throws {
        let store = InMemoryStore()
        let racing = RacingStore(store)
        let coordinator = PersistentStoreCoordinator(model: try MergeMatrix.model())
        try coordinator.addStore(racing)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = .mergeByPropertyObjectTrump
        let book = try context.insertNewObject(forEntityNamed: "Book")
        try book.setValue("7", forKey: "isbn")
        try book.setValue("Mine", forKey: "title")
        try context.save()
        #expect(racing.saves.withLock { $0 } == 2, "refused once, then saved")
        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Book"])).rows
        #expect(rows.count == 1 && rows.first?.attributes["title"] == .string("Mine"))
        #expect(book.objectID == rows.first?.objectID, "the new object took the racing row's identity")
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

/// A store that lets "another writer" insert a book with ISBN 7 just before the first save.
private final class RacingStore: PersistentStore {
    let base: InMemoryStore
    let saves = Mutex(0)
    init(_ base: InMemoryStore) { self.base = base }
    var identifier: String { base.identifier }
    var storeType: String { base.storeType }
    var metadata: [String: any Sendable] { base.metadata }
    func load(for model: ManagedObjectModel) throws { try base.load(for: model) }
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult { try base.fetch(request) }
    func row(for id: ManagedObjectID) throws -> StoreRow? { try base.row(for: id) }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] { try base.newObjectIDs(for: entityNames) }
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        if saves.withLock({ count in count += 1; return count }) == 1 {
            let id = try base.newObjectIDs(for: ["Book"])[0]
            _ = try base.save(StoreSaveChanges(inserted: [StoreRow(objectID: id, version: 0, attributes: [
                "isbn": .string("7"), "title": .string("Theirs"),
            ])]))
        }
        return try base.save(changes)
    }
}
