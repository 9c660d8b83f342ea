import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import TestSupport
import UndoManagement
@testable import ManagedObjects

/// A context's objects reach it through one observation state the context shares among them
/// (its change sink), and make a state of their own only when first observed: every change
/// still reaches the context through the change seam, before the object's observers, whichever
/// state the object uses.
@Suite struct SharedObservationStateTests {
    static var model: ManagedObjectModel { ManagedObjectKeyValueTests.model }

    @Test func objectsOfAContextShareItsStateUntilObserved() throws {
        let context = ManagedObjectContext(model: Self.model)
        let first = try context.insertNewObject(forEntityNamed: "Stand")
        let second = try context.insertNewObject(forEntityNamed: "Stand")
        let shared = context.objectObservationStorage
        #expect(first.keyValueObservationStorage === shared && second.keyValueObservationStorage === shared)
        #expect(first.keyValueChangeSink === context, "the context is the change sink, as with setKeyValueChangeSink")
        let recorder = ChangeRecorder()
        let observation = try first.observe("name", options: [.old, .new], changeHandler: recorder.handler())
        let own = try #require(first.keyValueObservationStorage)
        #expect(own !== shared && second.keyValueObservationStorage === shared)
        #expect(first.keyValueChangeSink === context, "the object's own state carries the context's sink")
        // Observing one object of the context observes no other.
        try second.setValue("Pier", forKey: "name")
        #expect(recorder.changes.isEmpty)
        try first.setValue("Corner", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["Corner"])
        // Both changes reached the context (the first through the shared state).
        #expect(first.changedValues()["name"] as? String == "Corner")
        #expect(second.changedValues()["name"] as? String == "Pier")
        observation.invalidate()
    }

    @Test func theContextHearsOfAChangeBeforeTheObjectsObservers() throws {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        try context.save()
        var seen: [(updated: Bool, committed: String?)] = []
        let observation = try stand.observe("name", options: [.new]) { object, _ in
            // Called after the context recorded the change: updated, committed value kept.
            seen.append((object.isUpdated, object.committedValues(forKeys: ["name"])["name"] as? String))
        }
        try stand.setValue("Market", forKey: "name")
        #expect(seen.count == 1 && seen.first?.updated == true && seen.first?.committed == "Corner")
        observation.invalidate()
    }

    @Test func anObjectObservedBeforeInsertGetsTheContextsSinkInItsOwnState() throws {
        let stand = try ManagedObject(entityName: "Stand", in: Self.model)
        let recorder = ChangeRecorder()
        let observation = try stand.observe("name", options: [.new], changeHandler: recorder.handler())
        let own = try #require(stand.keyValueObservationStorage)
        #expect(stand.keyValueChangeSink == nil)
        let context = ManagedObjectContext(model: Self.model)
        try context.insert(stand)
        #expect(stand.keyValueObservationStorage === own && stand.keyValueChangeSink === context)
        try stand.setValue("Corner", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["Corner"])
        #expect(stand.changedValues()["name"] as? String == "Corner" && context.hasChanges)
        // Leaving the context (reset) takes its sink away from the object's own state too.
        context.reset()
        #expect(stand.keyValueChangeSink == nil && stand.keyValueObservationStorage === own)
        try stand.setValue("Pier", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["Corner", "Pier"])
        #expect(!context.hasChanges)
        observation.invalidate()
    }

    @Test func anObjectLeavingItsContextKeepsNoSink() throws {
        let context = ManagedObjectContext(model: Self.model)
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        context.delete(stand)
        // A deleted inserted object is forgotten: no state, no sink.
        #expect(stand.keyValueObservationStorage == nil && stand.keyValueChangeSink == nil)
        try stand.setValue("Corner", forKey: "name")
        #expect(!context.hasChanges)
        // Inserted again, it is the context's again.
        try context.insert(stand)
        #expect(stand.keyValueObservationStorage === context.objectObservationStorage)
        try stand.setValue("Pier", forKey: "name")
        #expect(stand.changedValues()["name"] as? String == "Pier")
    }

    @Test func aSinkInstalledOnAnObjectOutsideAContextHearsItsChanges() throws {
        final class Log: KeyValueChangeSink {
            var keys: [String] = []
            func observedObject(_ object: any KeyValueObservable, willChange event: KeyValueChangeEvent) {}
            func observedObject(_ object: any KeyValueObservable, didChange event: KeyValueChangeEvent) {
                keys.append(event.key)
            }
        }
        let stand = try ManagedObject(entityName: "Stand", in: Self.model)
        let log = Log()
        stand.setKeyValueChangeSink(log)
        #expect(stand.keyValueChangeSink === log && stand.keyValueObservationStorage != nil)
        try stand.setValue("Corner", forKey: "name")
        #expect(log.keys == ["name"])
        // A context takes the object over: its sink replaces the installed one.
        let context = ManagedObjectContext(model: Self.model)
        try context.insert(stand)
        #expect(stand.keyValueChangeSink === context)
        try stand.setValue("Pier", forKey: "name")
        #expect(log.keys == ["name"] && stand.changedValues()["name"] as? String == "Pier")
    }

    @Test func undoOfAChangeThroughTheSharedState() throws {
        let context = ManagedObjectContext(model: Self.model)
        context.undoManager = UndoHistory()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Corner", forKey: "name")
        context.processPendingChanges()
        #expect(stand.keyValueObservationStorage === context.objectObservationStorage)
        try stand.setValue("Pier", forKey: "name")
        context.processPendingChanges()
        try context.undo()
        #expect(try stand.value(forKey: "name") as? String == "Corner")
    }

    @Test func releasedContextsAndObjectsReleaseTheSharedState() throws {
        let tracker = LifetimeTracker()
        var survivor: ManagedObject?
        do {
            let context = tracker.track(ManagedObjectContext(model: Self.model), "context")
            let stand = tracker.track(try context.insertNewObject(forEntityNamed: "Stand"), "stand")
            let crate = tracker.track(try context.insertNewObject(forEntityNamed: "Crate"), "crate")
            try crate.setValue(stand, forKey: "stand")
            tracker.track(context.objectObservationStorage, "shared state")
            let recorder = ChangeRecorder()
            let observation = try stand.observe("name", changeHandler: recorder.handler())
            tracker.track(try #require(stand.keyValueObservationStorage), "own state")
            observation.invalidate()
            survivor = stand
        }
        // The context and the crate are gone; the object outlives them, holding both states.
        #expect(tracker.survivors == ["stand", "shared state", "own state"])
        do {
            let stand = try #require(survivor)
            #expect(stand.managedObjectContext == nil && stand.keyValueChangeSink == nil)
            // A change by key to an object whose context was released is refused (trial13 T9).
            #expect(throws: ManagedObjectContextError.contextGone(stand.objectID)) { try stand.setValue("Corner", forKey: "name") }
            #expect(try stand.value(forKey: "name") == nil)
        }
        survivor = nil
        tracker.expectAllReleased()
    }

    @Test func theSharedStateGoesWithTheLastObject() throws {
        let tracker = LifetimeTracker()
        do {
            let context = tracker.track(ManagedObjectContext(model: Self.model), "context")
            for _ in 0..<3 { tracker.track(try context.insertNewObject(forEntityNamed: "Stand"), "stand") }
            tracker.track(context.objectObservationStorage, "shared state")
        }
        tracker.expectAllReleased()
    }
    // MARK: Observers through several objects, in hostile orders

    @Test func aKeyPathChainThroughRegisteredObjectsGivesEachItsOwnState() throws {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        var context: ManagedObjectContext? = ManagedObjectContext(coordinator: coordinator)
        let stand = try #require(context).insertNewObject(forEntityNamed: "Stand")
        let crate = try #require(context).insertNewObject(forEntityNamed: "Crate")
        let apple = try #require(context).insertNewObject(forEntityNamed: "Apple")
        try stand.setValue("North", forKey: "name")
        try crate.setValue(stand, forKey: "stand")
        try apple.setValue(crate, forKey: "crate")
        let shared = try #require(context).objectObservationStorage
        let recorder = ChangeRecorder()
        // The chain observes the apple, its crate and the crate's stand.
        let observation = try apple.observe("crate.stand.name", options: [.old, .new], changeHandler: recorder.handler())
        #expect(stand.keyValueObservationStorage !== shared && crate.keyValueObservationStorage !== shared)
        #expect(shared.hasObserverLists == false, "the shared state never holds an observer list")
        try stand.setValue("South", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["South"])
        #expect(stand.changedValues()["name"] as? String == "South", "the context still heard the change")
        // Reset with the chain in place: the objects leave the context, the observers stay.
        context?.reset()
        try stand.setValue("East", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["South", "East"])
        // The context goes while the chain is observed; then the observation ends.
        context = nil
        try stand.setValue("West", forKey: "name")
        #expect(recorder.newValues(as: String.self) == ["South", "East", "West"])
        observation.invalidate()
        try stand.setValue("Gone", forKey: "name")
        #expect(recorder.newValues(as: String.self).count == 3)
    }

    @Test func observersAddedAndRemovedInEveryOrderLeaveTheContextHearingEveryChange() throws {
        let coordinator = PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(InMemoryStore())
        let context = ManagedObjectContext(coordinator: coordinator)
        let stands = try (0..<3).map { _ in try context.insertNewObject(forEntityNamed: "Stand") }
        let recorders = stands.map { _ in ChangeRecorder() }
        var observations = try zip(stands, recorders).map { try $0.observe("name", options: [.new], changeHandler: $1.handler()) }
        // End them in an order other than the one they began in, changing objects in between.
        for index in [1, 0, 2] {
            observations[index].invalidate()
            for (offset, stand) in stands.enumerated() { try stand.setValue("name \(index)-\(offset)", forKey: "name") }
        }
        observations.removeAll()
        #expect(recorders[1].changes.isEmpty)
        #expect(recorders[0].changes.count == 1 && recorders[2].changes.count == 2)
        for (offset, stand) in stands.enumerated() {
            #expect(stand.changedValues()["name"] as? String == "name 2-\(offset)", "every change reached the context")
            #expect(stand.isInserted)
        }
        try context.save()
        #expect(!context.hasChanges)
    }
}
