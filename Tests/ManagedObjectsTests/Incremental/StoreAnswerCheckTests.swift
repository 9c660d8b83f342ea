import Foundation
import Synchronization
import Testing
@testable import ManagedObjects
import TestSupport

/// A store whose answers a test scripts: the rows of every fetch, a count, the rows by ID and
/// how new IDs are made. Saves succeed.
/// (Internal so that the suite's helpers can name it.)
final class ScriptedAnswerStore: PersistentStore {
    struct Script: Sendable {
        var rows: [StoreRow] = []
        var count: Int?
        /// Whether fetches return only rows of the entities asked for.
        var filtersByEntity = true
        var newIDs: @Sendable (_ names: [String], _ store: String) -> [ManagedObjectID] = { names, store in
            names.enumerated().map { ManagedObjectID(entityName: $1, storeIdentifier: store, primaryKey: Int64(100 + $0)) }
        }
    }
    let identifier = "5B1E0D7C-2A3F-4E6B-8C9D-0F1A2B3C4D5E"
    let storeType = "Scripted"
    let script: Mutex<Script>
    init(_ script: Script) { self.script = Mutex(script) }
    var metadata: [String: any Sendable] { [StoreMetadata.storeTypeKey: storeType, StoreMetadata.storeUUIDKey: identifier] }
    func load(for model: ManagedObjectModel) throws {}
    func fetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let script = script.withLock { $0 }
        if request.resultType == .count, let count = script.count { return StoreFetchResult(count: count) }
        let rows = script.filtersByEntity ? script.rows.filter { request.entityNames.contains($0.objectID.entityName) } : script.rows
        return StoreFetchResult(rows: rows, appliedPredicate: false, appliedOrderAndLimits: false)
    }
    func row(for id: ManagedObjectID) throws -> StoreRow? { script.withLock { $0.rows.first { $0.objectID == id } } }
    func newObjectIDs(for entityNames: [String]) throws -> [ManagedObjectID] {
        let make = script.withLock { $0.newIDs }
        return make(entityNames, identifier)
    }
    func save(_ changes: StoreSaveChanges) throws -> [ManagedObjectID: Int64] {
        Dictionary(changes.inserted.map { ($0.objectID, Int64(1)) }, uniquingKeysWith: { a, _ in a })
    }
}

@Suite struct StoreAnswerCheckTests {
    static let storeID = "5B1E0D7C-2A3F-4E6B-8C9D-0F1A2B3C4D5E"

    static func id(_ entity: String, _ key: Int64, store: String = storeID) -> ManagedObjectID {
        ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: key)
    }

    static func context(_ script: ScriptedAnswerStore.Script, model: ManagedObjectModel? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: try model ?? FruitStandModel.make())
        try coordinator.addStore(ScriptedAnswerStore(script))
        return ManagedObjectContext(coordinator: coordinator)
    }

    // MARK: Relationships to objects of the wrong entity

    @Test func aRelationshipToAnObjectOfAnotherEntityIsDropped() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Apple", 1), version: 1, attributes: ["radius": .double(2)],
                                relationships: ["crate": [Self.id("Stand", 1)]]),
                       StoreRow(objectID: Self.id("Stand", 1), version: 1, attributes: ["name": .string("Corner")])]
        let context = try Self.context(script)
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first)
        #expect(try apple.value(forKey: "crate") == nil)
    }

    @Test func aTypedReadOfARelationshipToAnObjectOfAnotherEntityDoesNotTrap() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Apple", 1), version: 1, attributes: ["radius": .double(2)],
                                relationships: ["crate": [Self.id("Stand", 1)]]),
                       StoreRow(objectID: Self.id("Crate", 2), version: 1,
                                relationships: ["fruit": [Self.id("Stand", 1), Self.id("Apple", 1)], "stand": [Self.id("Crate", 2)]]),
                       StoreRow(objectID: Self.id("Stand", 1), version: 1, attributes: ["name": .string("Corner")])]
        let context = try Self.context(script, model: try TypedFixtures.model())
        let apple = try #require(try context.fetch(EntityFetchRequest(entityName: "Apple")).first as? TypedApple)
        #expect(apple.crate == nil)
        let crate = try #require(try context.existingObject(with: Self.id("Crate", 2)) as? TypedCrate)
        #expect(crate.stand == nil)
        #expect(crate.fruit.map(\.objectID) == [Self.id("Apple", 1)])
    }

    @Test func aToManyRelationshipKeepsOnlyObjectsOfTheDestinationOrASubentity() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Crate", 1), version: 1,
                                relationships: ["fruit": [Self.id("Apple", 1), Self.id("Stand", 1), Self.id("Orange", 2)]])]
        let context = try Self.context(script)
        let crate = try context.existingObject(with: Self.id("Crate", 1))
        let fruit = try #require(try crate.value(forKey: "fruit") as? Set<ManagedObject>)
        #expect(Set(fruit.map(\.objectID)) == [Self.id("Apple", 1), Self.id("Orange", 2)])
    }

    // MARK: New IDs

    enum BadIDs: String, CaseIterable, Sendable {
        case tooFew, tooMany, repeated, temporary, otherEntity, otherStore

        var make: @Sendable ([String], String) -> [ManagedObjectID] {
            switch self {
            case .tooFew: return { _, _ in [] }
            case .tooMany: return { names, store in (0...names.count).map { StoreAnswerCheckTests.id("Apple", Int64(50 + $0), store: store) } }
            case .repeated: return { names, store in names.map { StoreAnswerCheckTests.id($0, 7, store: store) } }
            case .temporary: return { names, _ in names.map { ManagedObjectID.temporary(entityName: $0) } }
            case .otherEntity: return { names, store in names.indices.map { StoreAnswerCheckTests.id("Stand", Int64($0 + 1), store: store) } }
            case .otherStore: return { names, _ in names.enumerated().map { StoreAnswerCheckTests.id($1, Int64($0 + 1), store: "elsewhere") } }
            }
        }
    }

    @Test(arguments: BadIDs.allCases)
    func wrongNewIDsFailTheSaveAndNothingIsSaved(bad: BadIDs) throws {
        var script = ScriptedAnswerStore.Script()
        script.newIDs = bad.make
        let context = try Self.context(script)
        let apples = try (0..<2).map { _ in try context.insertNewObject(forEntityNamed: "Apple") }
        for apple in apples { try apple.setValue(2.0, forKey: "radius") }
        do {
            try context.save()
            Issue.record("the save went through with \(bad) IDs")
        } catch let error as ManagedObjectContextError {
            guard case .invalidStoreAnswer(let store, _) = error else { Issue.record("\(error)"); return }
            #expect(store.contains("Scripted"))
            #expect(error.localizedDescription.contains("newObjectIDs"))
        }
        #expect(apples.allSatisfy { $0.objectID.isTemporaryID })
        #expect(context.insertedObjects == Set(apples))
        #expect(context.hasChanges)
    }

    @Test func soundNewIDsStillSave() throws {
        let context = try Self.context(ScriptedAnswerStore.Script())
        let apple = try context.insertNewObject(forEntityNamed: "Apple")
        try apple.setValue(2.0, forKey: "radius")
        try context.save()
        #expect(apple.objectID == Self.id("Apple", 100))
    }

    // MARK: Fetch answers

    @Test func aFetchedRowOfAnEntityNotAskedForIsAThrownError() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Crate", 1), version: 1)]
        script.filtersByEntity = false
        let context = try Self.context(script)
        let error = #expect(throws: ManagedObjectContextError.self) { try context.fetch(EntityFetchRequest(entityName: "Stand")) }
        let text = error?.localizedDescription ?? ""
        #expect(text.contains("Scripted") && text.contains("Crate"))
        #expect(context.registeredObjects.isEmpty)
    }

    /// Rows after the first are checked too: those sharing an ID scope with a checked row pass
    /// as it did, and a later row of another entity or store is still refused.
    @Test(arguments: [("Crate", StoreAnswerCheckTests.storeID), ("Stand", "0C0FFEE0-0000-4000-8000-000000000000")])
    func aLaterRowOfAnotherEntityOrStoreIsAThrownError(entity: String, store: String) throws {
        var script = ScriptedAnswerStore.Script()
        let good = Self.id("Stand", 1)
        script.rows = [StoreRow(objectID: good, version: 1), StoreRow(objectID: good.withPrimaryKey(2), version: 1),
                       StoreRow(objectID: Self.id(entity, 3, store: store), version: 1)]
        script.filtersByEntity = false
        let context = try Self.context(script)
        #expect(throws: ManagedObjectContextError.self) { try context.fetch(EntityFetchRequest(entityName: "Stand")) }
        #expect(context.registeredObjects.isEmpty)
    }

    @Test func rowsSharingAScopeAfterACheckedRowAreFetched() throws {
        var script = ScriptedAnswerStore.Script()
        let first = Self.id("Stand", 1)
        script.rows = (1...3).map { StoreRow(objectID: first.withPrimaryKey($0), version: 1) }
        #expect(script.rows[2].objectID.sharesScope(with: first))
        #expect(try Self.context(script).fetch(EntityFetchRequest(entityName: "Stand")).count == 3)
    }

    @Test func rowsOfSubentitiesAreAnswersToTheirParent() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Apple", 1), version: 1, attributes: ["radius": .double(1)]),
                       StoreRow(objectID: Self.id("Orange", 2), version: 1, attributes: ["radius": .double(2)])]
        let context = try Self.context(script)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Fruit")).count == 2)
    }

    @Test func aNegativeCountIsAThrownError() throws {
        var script = ScriptedAnswerStore.Script()
        script.count = -3
        let context = try Self.context(script)
        #expect(throws: ManagedObjectContextError.self) { try context.count(for: EntityFetchRequest(entityName: "Stand")) }
    }

    @Test func repeatedRowsOfOneObjectGiveOneObjectWithTheFirstRowsValues() throws {
        var script = ScriptedAnswerStore.Script()
        script.rows = [StoreRow(objectID: Self.id("Stand", 1), version: 1, attributes: ["name": .string("first")]),
                       StoreRow(objectID: Self.id("Stand", 1), version: 2, attributes: ["name": .string("second")])]
        let context = try Self.context(script)
        let stands = try context.fetch(EntityFetchRequest(entityName: "Stand"))
        #expect(stands.count == 1)
        #expect(try stands.first?.value(forKey: "name") as? String == "first")
    }
}
