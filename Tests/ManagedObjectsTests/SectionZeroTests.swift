import Foundation
import Testing
import Predicates
@testable import ManagedObjects

/// 0.0 and -0.0 are equal to sort descriptors, so a section key path holding both makes one
/// section, however the objects arrive (trial12 N5).
@Suite struct SectionZeroTests {
    static func controller() throws -> (ManagedObjectContext, FetchedResultsController) {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = EntityFetchRequest(entityName: "Apple", sortDescriptors: [
            KeyValueSortDescriptor(key: "radius"), KeyValueSortDescriptor(key: "variety"),
        ])
        return (context, try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "radius"))
    }

    static func insertApples(into context: ManagedObjectContext) throws {
        for (variety, radius) in [("a", 0.0), ("b", -0.0), ("c", 0.0), ("d", 1.5)] {
            let apple = try context.insertNewObject(TypedApple.self)
            apple.variety = variety
            apple.radius = radius
        }
        try context.save()
    }

    @Test func bothZerosNameOneSectionInAFetch() throws {
        let (context, controller) = try Self.controller()
        try Self.insertApples(into: context)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["0.0", "1.5"])
        #expect(controller.sections?.map(\.numberOfObjects) == [3, 1])
    }

    @Test func bothZerosNameOneSectionWhenTracked() throws {
        let (context, controller) = try Self.controller()
        try controller.performFetch()
        try Self.insertApples(into: context)
        #expect(controller.sections?.map(\.name) == ["0.0", "1.5"])
        #expect(controller.sections?.map(\.numberOfObjects) == [3, 1])
    }
}
