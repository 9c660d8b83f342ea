// The worked examples of Docs/ManagedObjects.md "A main-actor view observing managed objects" and
// "Several background imports at once", compiled in Swift 6 mode: no `@unchecked`, no
// `assumeIsolated`.
import Foundation
import Observation
import Testing
import ManagedObjects

/// A main-actor view of one crate: it renders what it reads inside `withObservationTracking`
/// and renders again when Observation says one of those reads changed.
@MainActor
final class CrateLabel {
    private(set) var text = ""
    private(set) var renderCount = 0
    let crate: TypedCrate

    init(crate: TypedCrate) {
        self.crate = crate
        render()
    }

    func render() {
        renderCount += 1
        text = withObservationTracking {
            "\(crate.capacity) in \(crate.stand?.name ?? "no stand")"
        } onChange: { [weak self] in
            // Called before the change is applied: render again on the main actor, after it.
            Task { @MainActor in self?.render() }
        }
    }
}

@Suite @MainActor struct MainActorObservationExampleTests {
    /// A coordinator on an in-memory store with the typed fruit-stand classes bound.
    func coordinator() throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: try TypedFixtures.model())
        try coordinator.addStore(InMemoryStore())
        return coordinator
    }

    /// Waits (at most about five seconds: a hang guard, not a timing) until `done` holds.
    func waitUntil(_ done: () -> Bool) async throws {
        for _ in 0..<500 where !done() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func theLabelRendersAgainWhenTheMainActorChangesTheCrate() async throws {
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: try coordinator())
        let crate = try viewContext.insertNewObject(TypedCrate.self)
        crate.capacity = 12
        let label = CrateLabel(crate: crate)
        #expect(label.text == "12 in no stand")
        let stand = try viewContext.insertNewObject(TypedStand.self)
        stand.name = "Harbour"
        crate.stand = stand
        try await waitUntil { label.renderCount >= 2 }
        #expect(label.text == "12 in Harbour")
    }

    @Test func theLabelFollowsABackgroundSaveMergedIntoTheViewContext() async throws {
        let coordinator = try coordinator()
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        viewContext.automaticallyMergesChangesFromParent = true
        let crate = try viewContext.insertNewObject(TypedCrate.self)
        crate.capacity = 12
        try viewContext.save()
        let label = CrateLabel(crate: crate)
        let id = crate.objectID
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try await background.perform { context in
            try context.object(with: id).setValue(Int16(30), forKey: "capacity")
            try context.save()
        }
        try await waitUntil { label.text == "30 in no stand" }
        #expect(label.text == "30 in no stand")
        #expect(crate.capacity == 30 && !crate.hasChanges)
    }

    @Test func severalBackgroundImportsRunAtOnceFromATaskGroup() async throws {
        let coordinator = try coordinator()
        let batches = (0..<4).map { batch in (0..<25).map { "Stand \(batch)-\($0)" } }
        let ids = try await withThrowingTaskGroup(of: [ManagedObjectID].self) { group in
            for names in batches {
                group.addTask {
                    // One private-queue context per task: contexts are not shared between tasks.
                    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                    return try await context.perform { context in
                        let stands = try names.map { name in
                            let stand = try context.insertNewObject(TypedStand.self)
                            stand.name = name
                            return stand
                        }
                        try context.save()
                        return stands.map(\.objectID)
                    }
                }
            }
            var all: [ManagedObjectID] = []
            for try await saved in group { all += saved }
            return all
        }
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        let names = try ids.map { try viewContext.existingObject(with: $0).value(forKey: "name") as? String }
        #expect(Set(names.compactMap { $0 }) == Set(batches.joined()))
        #expect(try viewContext.count(for: EntityFetchRequest(entityName: "Stand")) == 100)
    }
}
