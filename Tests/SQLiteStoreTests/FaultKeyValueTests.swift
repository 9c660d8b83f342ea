import Foundation
import Testing
import ManagedObjects
import SQLiteStore
import TestSupport
import Predicates

/// A typed subclass for the fault tests: its `@Managed` properties are read by key-value coding
/// straight from their storage, which must load a fault first.
final class ProbeMovie: ManagedObject {
    @Managed var title: String?
    @Managed var rating: Double?
}

/// Key-value reads and writes of faults load them first (Apple: any access fires a fault),
/// for generic objects and typed subclasses, so predicates, sorting and sections through
/// relationships see stored values in a fresh context.
@Suite struct FaultKeyValueTests {
    @Test func keyPathsThroughFaultsFireThem() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Theater", properties: [.attribute("name", .string), .toMany("movies", "Movie", inverse: "theater")]),
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .toOne("theater", "Theater", inverse: "movies")]),
        ])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(SQLitePersistentStore(url: directory.url.appendingPathComponent("t.sqlite")))
        let first = ManagedObjectContext(coordinator: coordinator)
        let theater = try first.insertNewObject(forEntityNamed: "Theater")
        try theater.setValue("Rex", forKey: "name")
        let movie = try first.insertNewObject(forEntityNamed: "Movie")
        try movie.setValue("Alien", forKey: "title")
        try movie.setValue(theater, forKey: "theater")
        try first.save()
        let second = ManagedObjectContext(coordinator: coordinator)
        let movies = try second.fetch(EntityFetchRequest(entityName: "Movie"))
        #expect(try movies[0].value(forKeyPath: "theater.name") as? String == "Rex")
        let third = ManagedObjectContext(coordinator: coordinator)
        third.stalenessInterval = 0
        let again = try third.fetch(EntityFetchRequest(entityName: "Movie"))
        #expect(try again[0].value(forKeyPath: "theater.name") as? String == "Rex")
        let sorted = try third.fetch(EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "theater.name")]))
        #expect(sorted.count == 1)
        let controller = try FetchedResultsController(fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "theater.name")]),
                                                      context: ManagedObjectContext(coordinator: coordinator), sectionNameKeyPath: "theater.name")
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Rex"])
    }

    @Test func keyValueReadsAndWritesOfTypedFaultsFireThem() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .attribute("rating", .double)]),
        ])
        try model.setManagedObjectClass(ProbeMovie.self, forEntityNamed: "Movie")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(SQLitePersistentStore(url: directory.url.appendingPathComponent("m.sqlite")))
        let first = ManagedObjectContext(coordinator: coordinator)
        let movie = try first.insertNewObject(forEntityNamed: "Movie")
        try movie.setValue("Alien", forKey: "title")
        try movie.setValue(3.0, forKey: "rating")
        try first.save()

        // Objects hold their contexts weakly (as Apple's): each context is kept while used.
        let readerContext = ManagedObjectContext(coordinator: coordinator)
        let reader = try readerContext.object(with: movie.objectID)
        #expect(reader.isFault)
        #expect(try reader.value(forKey: "rating") as? Double == 3)
        #expect(!reader.isFault)
        let matcherContext = ManagedObjectContext(coordinator: coordinator)
        let matcher = try matcherContext.object(with: movie.objectID)
        #expect(try KeyValuePredicate(format: "rating < 5").evaluate(with: matcher))
        let fresh = ManagedObjectContext(coordinator: coordinator)
        #expect(try fresh.fetch(EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "rating < 5"))).count == 1)

        let writer = ManagedObjectContext(coordinator: coordinator)
        let target = try writer.object(with: movie.objectID)
        try target.setValue(4.0, forKey: "rating")
        #expect(try target.value(forKey: "title") as? String == "Alien", "the write loaded the other values first")
        #expect(try target.value(forKey: "rating") as? Double == 4, "the loaded row did not overwrite the write")
        #expect(writer.hasChanges)
    }
}
