import Foundation
import Testing
import KeyValueCoding
import Predicates
import UndoManagement
@testable import ManagedObjects
@testable import SQLiteStore

/// The worked examples, each a small story told through the public API.
@Suite @MainActor struct WorkedExampleTests {
    static func container(_ model: ManagedObjectModel, undo: Bool = true) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Example", model: model)
        container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
        try container.loadPersistentStores()
        if undo { container.viewContext.undoManager = UndoHistory() }
        return container
    }

    @Test func aTheaterWithMovies() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Theater", properties: [
                .attribute("name", .string, isOptional: false),
                .toMany("movies", "Movie", inverse: "theater", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Movie", properties: [
                .attribute("title", .string, isOptional: false),
                .attribute("year", .integer16),
                .toOne("theater", "Theater", inverse: "movies", isOptional: false),
            ]),
        ])
        let container = try Self.container(model)
        let context = container.viewContext
        let rex = try context.insertNewObject(forEntityNamed: "Theater")
        try rex.setValue("Rex", forKey: "name")
        for (title, year) in [("Metropolis", 1927), ("Casablanca", 1942), ("Alien", 1979)] {
            let movie = try context.insertNewObject(forEntityNamed: "Movie")
            try movie.setValue(title, forKey: "title")
            try movie.setValue(year, forKey: "year")
            try movie.setValue(rex, forKey: "theater")
        }
        try context.save()
        #expect(try rex.value(forKeyPath: "movies.@count") as? Int == 3)
        let old = try context.fetch(EntityFetchRequest(entityName: "Movie", predicate: KeyValuePredicate(format: "year < 1950 AND theater.name == 'Rex'"),
                                                       sortDescriptors: [KeyValueSortDescriptor(key: "year")]))
        #expect(try old.map { try $0.value(forKey: "title") as? String } == ["Metropolis", "Casablanca"])
        // A movie without its theater cannot be saved: the to-one is mandatory.
        let orphan = try context.insertNewObject(forEntityNamed: "Movie")
        try orphan.setValue("Nosferatu", forKey: "title")
        let error = try #require(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(error.code == .missingMandatoryProperty && error.key == "theater")
        context.delete(orphan)
        // Deleting the theater cascades to its movies.
        context.delete(rex)
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Movie")) == 0)
    }

    @Test func aFruitStandWithUndo() throws {
        let container = try Self.container(try ContextMatrixTests.fruitModel())
        let context = container.viewContext
        // Insert a stand, two crates, apples and oranges.
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        var crates: [ManagedObject] = []
        for (label, kind, radii) in [("apples", "Apple", [2.0, 2.4, 2.2]), ("oranges", "Orange", [2.6, 1.9])] {
            let crate = try context.insertNewObject(forEntityNamed: "Crate")
            try crate.setValue(label, forKey: "label")
            try stand.mutableSetValue(forKey: "crates").insert(AnyHashable(crate))
            for radius in radii {
                let fruit = try context.insertNewObject(forEntityNamed: kind)
                try fruit.setValue(radius, forKey: "radius")
                try crate.mutableSetValue(forKey: "fruit").insert(AnyHashable(fruit))
            }
            crates.append(crate)
        }
        context.processPendingChanges()
        try context.save()
        // List the stand.
        #expect(try stand.value(forKeyPath: "crates.@count") as? Int == 2)
        let labels = try stand.value(forKeyPath: "crates.label") as? Set<AnyHashable>
        #expect(labels == ["apples", "oranges"], "\(String(describing: labels))")
        // Fetch apples with radius > 2.1.
        let big = try context.fetch(EntityFetchRequest(entityName: "Apple", predicate: KeyValuePredicate(format: "radius > 2.1")))
        #expect(Set(try big.map { try $0.value(forKey: "radius") as? Double }) == [2.2, 2.4])
        // Fruit by radius, largest first; remove the largest apple.
        let sorted = try context.fetch(EntityFetchRequest(entityName: "Fruit", sortDescriptors: [KeyValueSortDescriptor(key: "radius", ascending: false)]))
        #expect(try sorted.map { try $0.value(forKey: "radius") as? Double } == [2.6, 2.4, 2.2, 2.0, 1.9])
        let largestApple = try #require(sorted.first { $0.entity.name == "Apple" })
        context.delete(largestApple)
        context.processPendingChanges()
        #expect((try crates[0].value(forKey: "fruit") as? Set<ManagedObject>)?.count == 2)
        // Delete the stand: crates and fruit cascade.
        context.delete(stand)
        context.processPendingChanges()
        #expect(context.deletedObjects.count == 1 + 2 + 5)
        // Undo each step.
        try context.undo()
        #expect(context.deletedObjects == [largestApple])
        try context.undo()
        #expect(context.deletedObjects.isEmpty)
        #expect(try (crates[0].value(forKey: "fruit") as? Set<ManagedObject>)?.count == 3)
        try context.save()
        #expect(try context.count(for: EntityFetchRequest(entityName: "Fruit")) == 5)
    }

    @Test func aJournalNewestFirst() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [
                .attribute("text", .string, isOptional: false, rules: [.minimumLength(1)]),
                .attribute("created", .date, isOptional: false),
            ]),
        ])
        let container = try Self.container(model)
        let context = container.viewContext
        let newestFirst = EntityFetchRequest(entityName: "Entry", sortDescriptors: [KeyValueSortDescriptor(key: "created", ascending: false)])
        func texts() throws -> [String?] { try context.fetch(newestFirst).map { try $0.value(forKey: "text") as? String } }
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for (offset, text) in ["woke up", "had tea", "wrote code"].enumerated() {
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue(text, forKey: "text")
            try entry.setValue(start.addingTimeInterval(Double(offset) * 60), forKey: "created")
            context.processPendingChanges()
        }
        #expect(try texts() == ["wrote code", "had tea", "woke up"])
        try context.undo()                                   // undo the add
        #expect(try texts() == ["had tea", "woke up"])
        let tea = try #require(context.fetch(newestFirst).first)
        try tea.setValue("had coffee", forKey: "text")       // update
        context.processPendingChanges()
        context.delete(try #require(context.fetch(newestFirst).last))   // delete
        context.processPendingChanges()
        #expect(try texts() == ["had coffee"])
        try context.undo()                                   // undo the delete
        try context.undo()                                   // undo the update
        #expect(try texts() == ["had tea", "woke up"])
        try tea.setValue("", forKey: "text")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        try tea.setValue("had tea", forKey: "text")
        try context.save()
        let fresh = ManagedObjectContext(coordinator: container.coordinator)
        #expect(try fresh.fetch(newestFirst).map { try $0.value(forKey: "text") as? String } == ["had tea", "woke up"])
    }
}
