import Foundation
import Testing
@testable import ManagedObjects

/// A class bound to "Step" that logs its save hooks, and on its first `willSave()` with a
/// `spawn` name inserts another object (user code changing the sets during the walk).
private final class Step: ManagedObject {
    override class var entityName: String { "Step" }
    nonisolated(unsafe) var log: [String]? = nil
    nonisolated(unsafe) var spawned: Step?
    var name: String { (try? value(forKey: "name")) as? String ?? "?" }

    override func willSave() {
        log?.append("will \(name)")
        if name == "spawn", let context = managedObjectContext,
           let child = try? context.insertNewObject(forEntityNamed: "Step") {
            try? child.setValue("child", forKey: "name")
            (child as? Step)?.log = []
            spawned = child as? Step
        }
    }

    override func didSave() { log?.append("did \(name)") }
}

/// The save hooks walk the change sets' arrays without reference counting (session 16): each
/// object's `willSave()` and `didSave()` run once, in change-set order, and objects a
/// `willSave()` inserts are saved without a call of their own.
@Suite struct SaveHookWalkTests {
    @Test func hooksRunOncePerObjectInChangeSetOrder() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Step", properties: [.attribute("name", .string)])])
        try model.setManagedObjectClass(Step.self, forEntityNamed: "Step")
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        var steps: [Step] = []
        for name in ["a", "b", "c", "d"] {
            let step = try #require(try context.insertNewObject(forEntityNamed: "Step") as? Step)
            try step.setValue(name, forKey: "name")
            steps.append(step)
        }
        try context.save()
        var log: [String] = []
        // A change, a delete and new objects, one of which inserts another in its willSave().
        try steps[1].setValue("b2", forKey: "name")
        context.delete(steps[3])
        let spawn = try #require(try context.insertNewObject(forEntityNamed: "Step") as? Step)
        try spawn.setValue("spawn", forKey: "name")
        let late = try #require(try context.insertNewObject(forEntityNamed: "Step") as? Step)
        try late.setValue("late", forKey: "name")
        for step in steps + [spawn, late] { step.log = [] }
        try context.save()
        for step in steps + [spawn, late] { log += step.log ?? [] }
        #expect(log.filter { $0.hasPrefix("will") }.sorted() == ["will b2", "will d", "will late", "will spawn"])
        #expect(log.filter { $0.hasPrefix("did") }.sorted() == ["did b2", "did d", "did late", "did spawn"])
        // The object inserted by a willSave() is saved: no willSave() of its own, one didSave().
        #expect(spawn.spawned?.log == ["did child"])
        #expect(spawn.log == ["will spawn", "did spawn"] && late.log == ["will late", "did late"])
        #expect(steps[0].log == [] && steps[2].log == [])
        // The object the hook inserted was saved with the others.
        let saved = try context.fetch(EntityFetchRequest(entityName: "Step"))
        #expect(Set(saved.compactMap { ($0 as? Step)?.name }) == ["a", "b2", "c", "spawn", "late", "child"])
        #expect(!context.hasChanges)
    }
}
