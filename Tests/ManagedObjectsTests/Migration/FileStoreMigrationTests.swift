import Foundation
import Testing
import Predicates
@testable import ManagedObjects

/// Lightweight migration of atomic file stores, and store management on the coordinator.
@Suite struct FileStoreMigrationTests {
    /// Version 2 of the notes model: `body` renamed `text`, `pinned` required with a default,
    /// `created` added, entity `Tag` renamed `Label`, entity `Folder` added.
    static func v2() throws -> ManagedObjectModel {
        var text = AttributeDescription(name: "text", type: .string)
        text.renamingIdentifier = "body"
        var label = EntityDescription(name: "Label", properties: [
            .attribute("name", .string),
            .toMany("notes", "Note", inverse: "tags"),
        ])
        label.renamingIdentifier = "Tag"
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [
                .attribute("title", .string, isOptional: false),
                .attribute(text),
                .attribute("pinned", .boolean, isOptional: false, defaultValue: false),
                .attribute("created", .date),
                .toMany("tags", "Label", inverse: "notes"),
            ]),
            label,
            EntityDescription(name: "Folder", properties: [.attribute("name", .string)]),
        ])
    }

    /// v2 with `pinned` removed and `rank` (required, default 1) added.
    static func v3() throws -> ManagedObjectModel {
        var entities = try v2().entities
        entities[0].properties.removeAll { $0.name == "pinned" }
        entities[0].properties.append(.attribute("rank", .integer32, isOptional: false, defaultValue: 1))
        return try ManagedObjectModel(entities: entities)
    }

    /// A v1 file store with two notes (one pinned, one not set) and a tag on the first.
    static func v1Store() throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent("Notes.store")
        let coordinator = PersistentStoreCoordinator(model: try MappingInferenceTests.v1())
        try coordinator.addStore(with: StoreDescription(type: "Binary", url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.insertNewObject(forEntityNamed: "Note")
        try first.setValue("Groceries", forKey: "title")
        try first.setValue("milk, eggs", forKey: "body")
        try first.setValue(true, forKey: "pinned")
        let second = try context.insertNewObject(forEntityNamed: "Note")
        try second.setValue("Ideas", forKey: "title")
        let tag = try context.insertNewObject(forEntityNamed: "Tag")
        try tag.setValue("home", forKey: "name")
        try first.setValue(Set([tag]), forKey: "tags")
        try context.save()
        return url
    }

    static func migrating(_ url: URL) -> StoreDescription {
        var description = StoreDescription(type: AtomicFileStore.type, url: url)
        description.shouldMigrateStoreAutomatically = true
        description.shouldInferMappingModelAutomatically = true
        return description
    }

    @Test func aV1StoreMigratesInPlaceWithItsData() throws {
        let url = try Self.v1Store()
        let coordinator = PersistentStoreCoordinator(model: try Self.v2())
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try MappingInferenceTests.v1()])
        let context = ManagedObjectContext(coordinator: coordinator)
        let notes = try context.fetch(EntityFetchRequest(entityName: "Note", sortDescriptors: [KeyValueSortDescriptor(key: "title")]))
        #expect(try notes.map { try $0.value(forKey: "title") as? String } == ["Groceries", "Ideas"])
        #expect(try notes[0].value(forKey: "text") as? String == "milk, eggs", "renamed attribute keeps its values")
        #expect(try notes.map { try $0.value(forKey: "pinned") as? Bool } == [true, false], "nil became the default")
        #expect(try notes[0].value(forKeyPath: "tags.name") as? Set<String> == ["home"], "renamed entity, relationship kept")
        #expect(try context.count(for: EntityFetchRequest(entityName: "Folder")) == 0)
        #expect(notes.map(\.objectID.referenceObject) == [.integer(1), .integer(2)], "keys are kept")
        #expect(try coordinator.isStoreCompatible(at: url, type: "Binary"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["Notes.store"])
        // Reopening needs no migration.
        let again = PersistentStoreCoordinator(model: try Self.v2())
        try again.addStore(with: StoreDescription(type: "Binary", url: url))
        #expect(try ManagedObjectContext(coordinator: again).count(for: EntityFetchRequest(entityName: "Label")) == 1)
    }

    @Test func severalVersionsAreCrossedInOneMigration() throws {
        let url = try Self.v1Store()
        let coordinator = PersistentStoreCoordinator(model: try Self.v3())
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v2(), try MappingInferenceTests.v1()])
        let notes = try ManagedObjectContext(coordinator: coordinator).fetch(EntityFetchRequest(entityName: "Note"))
        #expect(try notes.map { try $0.value(forKey: "rank") as? Int32 } == [1, 1])
        #expect(try Set(notes.compactMap { try $0.value(forKey: "text") as? String }) == ["milk, eggs"])
    }

    @Test func withoutTheOptionsAnOldStoreIsRefusedByEntityAndLeftAlone() throws {
        let url = try Self.v1Store()
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: try Self.v2())
        #expect(throws: StoreManagementError.incompatibleModel(store: url.path, entities: ["Folder", "Label", "Note", "Tag"])) {
            try coordinator.addStore(with: StoreDescription(type: "Binary", url: url), sourceModels: [try MappingInferenceTests.v1()])
        }
        #expect(try !coordinator.isStoreCompatible(at: url, type: "Binary"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aChangeThatCannotBeInferredLeavesTheFileByteForByte() throws {
        let url = try Self.v1Store()
        let before = try Data(contentsOf: url)
        let v2 = try MappingInferenceTests.v1(changing: "Note") { note in
            note.properties.append(.attribute("color", .string, isOptional: false))
        }
        let coordinator = PersistentStoreCoordinator(model: v2)
        #expect(throws: StoreManagementError.cannotInferMapping(entity: "Note", property: "color",
                                                                reason: "it is a new required attribute without a default value")) {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: [try MappingInferenceTests.v1()])
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["Notes.store"])
    }

    @Test func aStoreNoSourceModelWroteIsRefused() throws {
        let url = try Self.v1Store()
        let coordinator = PersistentStoreCoordinator(model: try Self.v3())
        #expect(throws: StoreManagementError.noSourceModel(store: url.path, entities: ["Folder", "Label", "Note", "Tag"])) {
            try coordinator.addStore(with: Self.migrating(url), sourceModels: [try Self.v2()])
        }
        // The message reads as a sentence naming the store (trial13 T13).
        let text = StoreManagementError.noSourceModel(store: url.path, entities: ["Note"]).description
        #expect(text.hasPrefix("none of the source models given is the model that wrote \(url.path)"), "\(text)")
    }

    @Test func aStoreMovesToAnotherLocationAndTheOriginalStays() throws {
        let url = try Self.v1Store()
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(model: try MappingInferenceTests.v1())
        let store = try coordinator.addStore(with: StoreDescription(type: "Binary", url: url))
        let target = url.deletingLastPathComponent().appendingPathComponent("Moved.store")
        let moved = try coordinator.migratePersistentStore(store, to: target, type: "Binary")
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === moved)
        let context = ManagedObjectContext(coordinator: coordinator)
        let tagged = try context.fetch(EntityFetchRequest(entityName: "Note", predicate: try KeyValuePredicate(format: "tags.@count == 1")))
        #expect(try tagged.map { try $0.value(forKey: "body") as? String } == ["milk, eggs"])
        #expect(try Data(contentsOf: url) == before)
        #expect(throws: StoreManagementError.destinationExists(url.path)) {
            try coordinator.migratePersistentStore(moved, to: url, type: "Binary")
        }
    }

    @Test func aStoreIsReplacedByACopyOfAnother() throws {
        let source = try Self.v1Store()
        let destination = source.deletingLastPathComponent().appendingPathComponent("Other.store")
        let model = try MappingInferenceTests.v1()
        do {
            let coordinator = PersistentStoreCoordinator(model: model)
            try coordinator.addStore(with: StoreDescription(type: "Binary", url: destination))
            let context = ManagedObjectContext(coordinator: coordinator)
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("Old", forKey: "title")
            try context.save()
        }
        let coordinator = PersistentStoreCoordinator(model: try MappingInferenceTests.v1())
        try coordinator.replacePersistentStore(at: destination, withStoreAt: source, type: "Binary")
        try coordinator.addStore(with: StoreDescription(type: "Binary", url: destination))
        let titles = try ManagedObjectContext(coordinator: coordinator).fetch(EntityFetchRequest(entityName: "Note"))
            .map { try $0.value(forKey: "title") as? String }
        #expect(Set(titles) == ["Groceries", "Ideas"])
        #expect(throws: StoreManagementError.self) {
            try PersistentStoreCoordinator(model: try Self.v2()).replacePersistentStore(at: destination, withStoreAt: source, type: "Binary")
        }
    }

    @Test func renamesBuildingOnEachOtherMigrateVersionByVersion() throws {
        let url = try Self.v1Store()
        // v2: Tag → Label (v2 above); v2b: Label → Category, renaming identifier "Label".
        var entities = try Self.v2().entities
        entities[1].name = "Category"
        entities[1].renamingIdentifier = "Label"
        entities[0].properties = entities[0].properties.map { property in
            guard case .relationship(var relationship) = property else { return property }
            relationship.destinationEntityName = "Category"
            return .relationship(relationship)
        }
        let v3 = try ManagedObjectModel(entities: entities)
        #expect(throws: StoreManagementError.self) { try MappingModel.inferred(from: try MappingInferenceTests.v1(), to: v3) }
        let coordinator = PersistentStoreCoordinator(model: v3)
        try coordinator.addStore(with: Self.migrating(url), sourceModels: [try MappingInferenceTests.v1(), try Self.v2()])
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Category")).map { try $0.value(forKey: "name") as? String } == ["home"])
        #expect(try context.count(for: EntityFetchRequest(entityName: "Note", predicate: try KeyValuePredicate(format: "tags.@count == 1"))) == 1)
    }

    @Test func everyVersionOfAModelFolderLoads() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/models/coredataplus/SampleModel/SampleModel.xcdatamodeld")
        let versions = try ManagedObjectModel.versions(contentsOf: folder)
        #expect(versions.count == 3)
        #expect(versions[1].entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
    }

    @Test func anInMemoryStoreIsSavedToAFile() throws {
        let coordinator = PersistentStoreCoordinator(model: try MappingInferenceTests.v1())
        let memory = InMemoryStore()
        try coordinator.addStore(memory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let note = try context.insertNewObject(forEntityNamed: "Note")
        try note.setValue("Kept", forKey: "title")
        try context.save()
        let url = try temporaryDirectory().appendingPathComponent("Saved.store")
        let file = try coordinator.migratePersistentStore(memory, to: url, type: AtomicFileStore.type)
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === file)
        let reopened = PersistentStoreCoordinator(model: try MappingInferenceTests.v1())
        try reopened.addStore(with: StoreDescription(type: "Binary", url: url))
        #expect(try ManagedObjectContext(coordinator: reopened).fetch(EntityFetchRequest(entityName: "Note"))
            .map { try $0.value(forKey: "title") as? String } == ["Kept"])
        #expect(throws: ManagedObjectContextError.unknownStoreType("Nowhere")) {
            try coordinator.migratePersistentStore(file, to: url.appendingPathExtension("x"), type: "Nowhere")
        }
    }
}
