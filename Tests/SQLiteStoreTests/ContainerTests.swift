import Foundation
import Testing
import KeyValueCoding
@testable import ManagedObjects
@testable import SQLiteStore

@Suite @MainActor struct ContainerTests {
    @Test func theDefaultContainerOpensAnSQLiteStoreInItsFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = PersistentContainer(name: "Stand", model: try ContextMatrixTests.fruitModel())
        container.storeDescriptions = [.sqlite(at: directory.file("nested/Stand.sqlite"))]
        try container.loadPersistentStores()
        let stand = try container.viewContext.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try container.viewContext.save()
        let again = PersistentContainer(name: "Stand", model: try ContextMatrixTests.fruitModel())
        again.storeDescriptions = [StoreDescription(type: "SQLite", url: directory.file("nested/Stand.sqlite"))]
        try again.loadPersistentStores()
        #expect(try again.viewContext.fetch(EntityFetchRequest(entityName: "Stand")).first?.value(forKey: "name") as? String == "Corner")
    }

    @Test func defaultDirectoryFollowsXDG() {
        #if os(Linux)
        #expect(PersistentContainer.defaultDirectoryURL(name: "Theater", environment: ["XDG_DATA_HOME": "/data/me", "HOME": "/home/me"]).path
                == "/data/me/Theater")
        #expect(PersistentContainer.defaultDirectoryURL(name: "Theater", environment: ["HOME": "/home/me"]).path
                == "/home/me/.local/share/Theater")
        #expect(PersistentContainer.defaultDirectoryURL(name: "Theater", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/me"]).path
                == "/home/me/.local/share/Theater", "a relative XDG_DATA_HOME is ignored, as the spec says")
        #endif
    }

    @Test func anInMemoryContainerSavesAndFetches() throws {
        let container = PersistentContainer(name: "FruitStand", model: try ContextMatrixTests.fruitModel())
        #expect(container.storeDescriptions.first?.type == "SQLite", "Apple's default store type")
        #expect(container.storeDescriptions.first?.url?.lastPathComponent == "FruitStand.sqlite")
        container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
        try container.loadPersistentStores()
        let stand = try container.viewContext.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try container.viewContext.save()
        let other = ManagedObjectContext(coordinator: container.coordinator)
        #expect(try other.count(for: EntityFetchRequest(entityName: "Stand")) == 1)
        #expect(container.viewContext === container.viewContext)
        #expect(!container.model.isEditable)
    }

    @Test func unknownStoreTypesAreReportedAndCustomTypesRegister() throws {
        let container = PersistentContainer(name: "Custom", model: try ContextMatrixTests.fruitModel())
        container.storeDescriptions = [StoreDescription(type: "Nowhere")]
        var outcomes: [String] = []
        container.loadPersistentStores { description, error in outcomes.append("\(description.type): \(error.map { "\($0)" } ?? "ok")") }
        #expect(outcomes.count == 1 && outcomes[0].contains("no store type 'Nowhere' is registered"))
        PersistentStoreCoordinator.registerStoreType("CountingMemory") { _ in InMemoryStore(identifier: "11111111-2222-3333-4444-555555555555") }
        container.storeDescriptions = [StoreDescription(type: "CountingMemory")]
        try container.loadPersistentStores()
        #expect(container.coordinator.stores.first?.identifier == "11111111-2222-3333-4444-555555555555")
        #expect(PersistentStoreCoordinator.registeredStoreTypes.contains("CountingMemory"))
    }

}

@Suite @MainActor struct ContainerFromModelFileTests {
    @Test func aContainerLoadsItsModelFromAnXcodeFile() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ManagedObjectsTests/Fixtures/models/mwkcoredata/MWKCoreDataTests.xcdatamodeld")
        let container = try PersistentContainer(name: "MWK", modelURL: url)
        container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
        try container.loadPersistentStores()
        let context = container.viewContext
        let employee = try context.insertNewObject(forEntityNamed: "Employee")
        try employee.setValue("Ada", forKey: "name")
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Employee")) == 1)
        #expect(throws: ManagedObjectModelError.self) { try PersistentContainer(name: "X", modelURL: url.appendingPathComponent("missing")) }
    }
}

@Suite struct ContainerNameTests {
    @Test(arguments: ["", "..", "../../x", "a/b"])
    func namesThatAreNotOneFileNameAreRefused(name: String) throws {
        let container = PersistentContainer(name: name, model: try ContextMatrixTests.fruitModel())
        #expect(throws: SQLiteStoreError.self) { try container.loadPersistentStores() }
    }
}
