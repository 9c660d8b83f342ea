import Foundation
import Synchronization
import Testing
@testable import ManagedObjects
import TestSupport
import UndoManagement
import Predicates

/// Child contexts (Apple: a context whose `parent` is another context).
@Suite struct ChildContextTests {
    let stands = EntityFetchRequest(entityName: "Stand")
    let crates = EntityFetchRequest(entityName: "Crate")
    let fruit = EntityFetchRequest(entityName: "Fruit")

    /// A stocked coordinator and a parent context on it.
    func parentContext() throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = try stockedCoordinator()
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    func name(_ object: ManagedObject?) throws -> String? { try object?.value(forKey: "name") as? String }

    @Test func aChildFetchSeesTheParentsUnsavedState() throws {
        let (_, parent) = try parentContext()
        let corner = try #require(try parent.fetch(stands).first)
        try corner.setValue("Main", forKey: "name")
        let added = try parent.insertNewObject(forEntityNamed: "Stand")
        try added.setValue("New", forKey: "name")
        let oranges = try #require(try parent.fetch(crates).first { try $0.value(forKey: "label") as? String == "O" })
        parent.delete(oranges)   // cascades to its two oranges

        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        #expect(child.parent === parent)
        #expect(child.coordinator === parent.coordinator)
        #expect(Set(try child.fetch(stands).map { try name($0) ?? "" }) == ["Main", "New"])
        #expect(try child.count(for: crates) == 1)
        #expect(try child.count(for: fruit) == 3)
        let main = EntityFetchRequest(entityName: "Stand", predicate: try KeyValuePredicate(format: "name == 'Main'"))
        #expect(try child.fetch(main).count == 1, "the predicate sees the parent's unsaved value")
        // The child's objects are its own, with the parent's IDs (the new stand's is temporary).
        let childAdded = try #require(try child.fetch(stands).first { try name($0) == "New" })
        #expect(childAdded !== added)
        #expect(childAdded.objectID == added.objectID && childAdded.objectID.isTemporaryID)
        #expect(!child.hasChanges)
    }

    @Test func objectsFaultInFromTheParentsCurrentValues() throws {
        let (_, parent) = try parentContext()
        let corner = try #require(try parent.fetch(stands).first)
        try corner.setValue("Main", forKey: "name")
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let fault = try child.object(with: corner.objectID)
        #expect(fault.isFault)
        #expect(try name(fault) == "Main")
        #expect(try (fault.value(forKey: "crates") as? Set<ManagedObject>)?.count == 2)
        // A temporary ID of the parent's is reachable too; an unknown one is not.
        let added = try parent.insertNewObject(forEntityNamed: "Stand")
        try added.setValue("New", forKey: "name")
        #expect(try name(try child.object(with: added.objectID)) == "New")
        #expect(try name(try child.existingObject(with: added.objectID)) == "New")
        let stranger = try ManagedObjectContext(model: parent.model).insertNewObject(forEntityNamed: "Stand")
        #expect(throws: ManagedObjectContextError.objectNotFound(stranger.objectID)) { try child.object(with: stranger.objectID) }
        // An object the parent deleted is gone for the child.
        parent.delete(corner)
        #expect(throws: ManagedObjectContextError.objectNotFound(corner.objectID)) { try child.existingObject(with: corner.objectID) }
    }

    @Test func aChildSavePushesIntoTheParentAndNotIntoTheStore() throws {
        let (coordinator, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let stand = try #require(try child.fetch(stands).first)
        try stand.setValue("Main", forKey: "name")
        let crate = try child.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue("P", forKey: "label")
        try crate.setValue(stand, forKey: "stand")
        let smallest = try #require(try child.fetch(fruit).min { try ($0.value(forKey: "radius") as? Double ?? 0) < ($1.value(forKey: "radius") as? Double ?? 0) })
        child.delete(smallest)
        let saves = Mutex(0)
        let token = child.onDidSave { _, _ in saves.withLock { $0 += 1 } }
        try child.save()
        #expect(saves.withLock { $0 } == 1)
        #expect(!child.hasChanges)
        #expect(crate.objectID.isTemporaryID, "IDs stay temporary until a save reaches the store")

        // The parent's objects changed and carry the changes.
        let parentStand = try #require(parent.registeredObject(for: stand.objectID))
        #expect(try name(parentStand) == "Main")
        #expect(parent.updatedObjects.contains(parentStand))
        let parentCrate = try #require(parent.registeredObject(for: crate.objectID))
        #expect(parent.insertedObjects == [parentCrate])
        #expect(try parentCrate.value(forKey: "label") as? String == "P")
        #expect(try (parentStand.value(forKey: "crates") as? Set<ManagedObject>)?.contains(parentCrate) == true)
        #expect(parent.deletedObjects.map(\.objectID) == [smallest.objectID])

        // The store has none of it: a second context on the coordinator sees the old state.
        let other = ManagedObjectContext(coordinator: coordinator)
        #expect(try name(try other.fetch(stands).first) == "Corner")
        #expect(try other.count(for: crates) == 2)
        #expect(try other.count(for: fruit) == 5)

        try parent.save()
        let after = ManagedObjectContext(coordinator: coordinator)
        #expect(try name(try after.fetch(stands).first) == "Main")
        #expect(try after.count(for: crates) == 3)
        #expect(try after.count(for: fruit) == 4)
        withExtendedLifetime(token) {}
    }

    @Test func aChildKeepsTemporaryIDsUntilItFetchesAgain() throws {
        let (_, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let stand = try child.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("New", forKey: "name")
        let temporary = stand.objectID
        try child.save()
        try parent.save()
        let permanent = try #require(parent.fetch(stands).first { try name($0) == "New" }).objectID
        #expect(!permanent.isTemporaryID)
        #expect(stand.objectID == temporary, "the child still knows it by its temporary ID")
        // Changes to it still reach the parent's object.
        try stand.setValue("Newer", forKey: "name")
        try child.save()
        #expect(try name(parent.registeredObject(for: permanent)) == "Newer")
        #expect(parent.updatedObjects.count == 1)
        // Fetching again gives the child's object its permanent ID: no second object.
        let fetched = try child.fetch(stands)
        #expect(fetched.count == 2)
        #expect(fetched.contains { $0 === stand })
        #expect(stand.objectID == permanent)
        #expect(child.registeredObject(for: permanent) === stand && child.registeredObject(for: temporary) == nil)
    }

    @Test func obtainPermanentIDsGivesTheWholeChainThePermanentIDs() throws {
        let (coordinator, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let pushed = try child.insertNewObject(forEntityNamed: "Stand")
        try pushed.setValue("Pushed", forKey: "name")
        try child.save()
        let temporary = pushed.objectID
        let fresh = try child.insertNewObject(forEntityNamed: "Stand")
        try fresh.setValue("Fresh", forKey: "name")
        try child.obtainPermanentIDs(for: [pushed, fresh])
        #expect(!pushed.objectID.isTemporaryID && !fresh.objectID.isTemporaryID)
        #expect(child.registeredObject(for: pushed.objectID) === pushed)
        // The parent's object for `pushed` is registered under the same permanent ID.
        let parentObject = try #require(parent.registeredObject(for: pushed.objectID))
        #expect(parent.registeredObject(for: temporary) == nil)
        #expect(parent.insertedObjects == [parentObject])
        // Saving keeps the IDs: the store's rows have them.
        try child.save()
        let expected: Set<ManagedObjectID> = [pushed.objectID, fresh.objectID]
        #expect(Set(parent.insertedObjects.map(\.objectID)) == expected)
        #expect(parent.updatedObjects.isEmpty)
        try parent.save()
        #expect(pushed.objectID == parentObject.objectID)
        let other = ManagedObjectContext(coordinator: coordinator)
        #expect(try name(try other.existingObject(with: pushed.objectID)) == "Pushed")
        #expect(try name(try other.existingObject(with: fresh.objectID)) == "Fresh")
        // Objects with permanent IDs keep them.
        let before = pushed.objectID
        try child.obtainPermanentIDs(for: [pushed])
        #expect(pushed.objectID == before)
    }

    @Test func obtainPermanentIDsOnAContextOnACoordinatorKeepsThemThroughTheSave() throws {
        let (coordinator, context) = try parentContext()
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Early", forKey: "name")
        try context.obtainPermanentIDs(for: [stand])
        let early = stand.objectID
        #expect(!early.isTemporaryID)
        #expect(context.registeredObject(for: early) === stand)
        #expect(stand.isInserted)
        try context.save()
        #expect(stand.objectID == early)
        #expect(try name(try ManagedObjectContext(coordinator: coordinator).existingObject(with: early)) == "Early")
        let scratch = ManagedObjectContext(model: try FruitStandModel.make())
        let loose = try scratch.insertNewObject(forEntityNamed: "Stand")
        #expect(throws: ManagedObjectContextError.noStore("Stand")) { try scratch.obtainPermanentIDs(for: [loose]) }
    }

    @Test func aChildSavePushesOnlyTheChangedPropertiesOverTheParentsLaterChanges() throws {
        let (_, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let crate = try #require(try child.fetch(crates).first { try $0.value(forKey: "label") as? String == "A" })
        let parentCrate = try parent.object(with: crate.objectID)
        // The parent moves the crate to a new stand after the child loaded it; the child relabels it.
        let other = try parent.insertNewObject(forEntityNamed: "Stand")
        try other.setValue("Other", forKey: "name")
        try parentCrate.setValue(other, forKey: "stand")
        try crate.setValue("B", forKey: "label")
        try child.save()
        #expect(try parentCrate.value(forKey: "label") as? String == "B")
        #expect(try parentCrate.value(forKey: "stand") as? ManagedObject === other, "the child did not change the stand")
    }

    @Test func siblingsAddingToOneToManyRelationshipKeepEachOthersAdditions() throws {
        let (_, parent) = try parentContext()
        let first = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let second = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let firstStand = try #require(try first.fetch(stands).first)
        let secondStand = try #require(try second.fetch(stands).first)
        #expect(try (firstStand.value(forKey: "crates") as? Set<ManagedObject>)?.count == 2)
        #expect(try (secondStand.value(forKey: "crates") as? Set<ManagedObject>)?.count == 2)
        for (context, stand, label) in [(first, firstStand, "F"), (second, secondStand, "S")] {
            let crate = try context.insertNewObject(forEntityNamed: "Crate")
            try crate.setValue(label, forKey: "label")
            try crate.setValue(stand, forKey: "stand")
        }
        // The second removes one of the old crates from the stand as well.
        let old = try #require(try (secondStand.value(forKey: "crates") as? Set<ManagedObject>)?.first { try $0.value(forKey: "label") as? String == "A" })
        try old.setValue(nil, forKey: "stand")
        try first.save()
        try second.save()
        let parentStand = try #require(try parent.fetch(stands).first)
        let labels = try (parentStand.value(forKey: "crates") as? Set<ManagedObject> ?? []).map { try $0.value(forKey: "label") as? String ?? "" }
        #expect(Set(labels) == ["O", "F", "S"])
    }

    @Test func aChildCanDeleteWhatItsParentInserted() throws {
        let (_, parent) = try parentContext()
        let added = try parent.insertNewObject(forEntityNamed: "Stand")
        try added.setValue("New", forKey: "name")
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        child.delete(try child.object(with: added.objectID))
        try child.save()
        #expect(parent.insertedObjects.isEmpty)
        #expect(parent.registeredObject(for: added.objectID) == nil)
        #expect(try parent.count(for: stands) == 1)
    }

    @Test func refreshingAChildsObjectReloadsTheParentsValues() throws {
        let (_, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let stand = try #require(try child.fetch(stands).first)
        try stand.setValue("Mine", forKey: "name")
        try parent.fetch(stands).first?.setValue("Theirs", forKey: "name")
        child.refresh(stand, mergeChanges: false)
        #expect(stand.isFault)
        #expect(try name(stand) == "Theirs")
        #expect(!child.hasChanges)
    }

    @Test func aGrandchildWorksThroughTwoParents() throws {
        let (coordinator, root) = try parentContext()
        let rootStand = try root.insertNewObject(forEntityNamed: "Stand")
        try rootStand.setValue("Root", forKey: "name")
        let middle = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let leaf = ManagedObjectContext(concurrencyType: .confinement, parent: middle)
        #expect(Set(try leaf.fetch(stands).map { try name($0) ?? "" }) == ["Corner", "Root"])
        let leafStand = try leaf.insertNewObject(forEntityNamed: "Stand")
        try leafStand.setValue("Leaf", forKey: "name")
        try leaf.save()
        #expect(try middle.count(for: stands) == 3)
        #expect(try root.count(for: stands) == 2)
        try middle.save()
        #expect(try root.count(for: stands) == 3)
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: stands) == 1)
        try root.save()
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: stands) == 3)
        // The leaf's object takes its permanent ID, through the middle context, when it fetches.
        _ = try leaf.fetch(stands)
        #expect(!leafStand.objectID.isTemporaryID)
        #expect(middle.registeredObject(for: leafStand.objectID) != nil)
    }

    @Test func aChildsUndoManagerIsIndependentOfItsParents() throws {
        let (_, parent) = try parentContext()
        parent.undoManager = UndoHistory()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        child.undoManager = UndoHistory()
        let stand = try #require(try child.fetch(stands).first)
        try stand.setValue("Main", forKey: "name")
        child.processPendingChanges()
        #expect(child.undoManager?.canUndo == true)
        #expect(parent.undoManager?.canUndo == false)
        try child.undo()
        #expect(try name(stand) == "Corner")
        try stand.setValue("Main", forKey: "name")
        try child.save()
        // The parent's change is the parent's to undo; undoing it leaves the child alone.
        #expect(parent.undoManager?.canUndo == true)
        try parent.undo()
        #expect(try name(parent.fetch(stands).first) == "Corner")
        #expect(try name(stand) == "Main")
    }

    @Test func aChildDroppedWithoutSavingLeavesNoTrace() throws {
        let (_, parent) = try parentContext()
        let corner = try #require(try parent.fetch(stands).first)
        let registered = parent.registeredObjects.count
        do {
            let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
            let stand = try #require(try child.fetch(stands).first)
            try stand.setValue("Gone", forKey: "name")
            try child.insertNewObject(forEntityNamed: "Crate")
            for object in try child.fetch(fruit) { child.delete(object) }
            #expect(child.hasChanges)
        }
        #expect(!parent.hasChanges)
        #expect(parent.registeredObjects.count == registered)
        #expect(try name(corner) == "Corner")
        #expect(try parent.count(for: fruit) == 5)
        #expect(parent.childCount.load(ordering: .relaxed) == 0)
    }

    @Test func aChildSaveThatFailsValidationLeavesTheParentAlone() throws {
        let (_, parent) = try parentContext()
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        try child.insertNewObject(forEntityNamed: "Stand")   // no name: required
        #expect(throws: ManagedObjectValidationError.self) { try child.save() }
        #expect(!parent.hasChanges)
        #expect(child.hasChanges)
    }

    @Test func childrenWithTheFlagMergeWhatTheirParentReceivesAndSaves() throws {
        let (_, parent) = try parentContext()
        let merging = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        merging.automaticallyMergesChangesFromParent = true
        let quiet = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let editor = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let mergingStand = try #require(try merging.fetch(stands).first)
        let quietStand = try #require(try quiet.fetch(stands).first)
        try editor.fetch(stands).first?.setValue("Main", forKey: "name")
        try editor.save()
        #expect(try name(mergingStand) == "Main")
        #expect(try name(quietStand) == "Corner")
        // The parent's own save reaches the flagged child too.
        try parent.fetch(stands).first?.setValue("Harbour", forKey: "name")
        try parent.save()
        #expect(try name(mergingStand) == "Harbour")
        #expect(try name(quietStand) == "Corner")
        // A deleted object leaves the merging child.
        let doomed = try #require(try parent.fetch(crates).first)
        let mergingCrate = try merging.object(with: doomed.objectID)
        _ = try mergingCrate.value(forKey: "label")
        parent.delete(doomed)
        try parent.save()
        #expect(merging.registeredObject(for: doomed.objectID) == nil)
        merging.automaticallyMergesChangesFromParent = false
        try parent.fetch(stands).first?.setValue("Quay", forKey: "name")
        try parent.save()
        #expect(try name(mergingStand) == "Harbour")
    }
}

/// Parent and child on different queues.
@Suite struct ChildContextQueueTests {
    @Test func aPrivateChildOfAPrivateParentSavesThroughTheParentsQueue() async throws {
        let coordinator = try stockedCoordinator()
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let onParentQueue = Mutex<[Bool]>([])
        let parentHop = ContextHop(context: parent)
        let token = parent.performAndWait {
            parent.onObjectsDidChange { _ in
                onParentQueue.withLock { $0.append(parentHop.context.confinement.isHeldByCurrentThread) }
            }
        }
        let id = try await child.perform { context in
            let stand = try #require(try context.fetch(EntityFetchRequest(entityName: "Stand")).first)
            try stand.setValue("Main", forKey: "name")
            let crate = try context.insertNewObject(forEntityNamed: "Crate")
            try crate.setValue(stand, forKey: "stand")
            try context.save()
            return stand.objectID
        }
        #expect(onParentQueue.withLock { $0 } == [true])
        let (name, inserted) = try await parent.perform { context in
            (try context.object(with: id).value(forKey: "name") as? String, context.insertedObjects.count)
        }
        #expect(name == "Main" && inserted == 1)
        let stored = ManagedObjectContext(coordinator: coordinator)
        #expect(try stored.fetch(EntityFetchRequest(entityName: "Stand")).first?.value(forKey: "name") as? String == "Corner")
        try await parent.perform { try $0.save() }
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: EntityFetchRequest(entityName: "Crate")) == 3)
        withExtendedLifetime(token) {}
    }

    @Test func childrenOnTheirOwnQueuesSaveIntoOneParentAtOnce() async throws {
        let coordinator = try stockedCoordinator()
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let watcher = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        watcher.performAndWait { watcher.automaticallyMergesChangesFromParent = true }
        let standID = try await watcher.perform { try #require(try $0.fetch(EntityFetchRequest(entityName: "Stand")).first).objectID }
        // Swift refuses to share contexts between tasks; the test does it on purpose, as a
        // parent serves children on any queue.
        let children = (0..<6).map { _ in ContextHop(context: ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, child) in children.enumerated() {
                group.addTask {
                    try await child.context.perform { context in
                        var crates: [ManagedObject] = []
                        for number in 0..<10 {
                            let crate = try context.insertNewObject(forEntityNamed: "Crate")
                            try crate.setValue("\(index)-\(number)", forKey: "label")
                            try crate.setValue(try context.object(with: standID), forKey: "stand")
                            crates.append(crate)
                        }
                        if index.isMultiple(of: 2) { try context.obtainPermanentIDs(for: crates) }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let (inserted, crates) = try await parent.perform { context in
            (context.insertedObjects.count,
             (try context.object(with: standID).value(forKey: "crates") as? Set<ManagedObject>)?.count ?? 0)
        }
        #expect(inserted == 60)
        #expect(crates == 62)
        let seen = try await watcher.perform(schedule: .enqueued) { context in
            (try context.object(with: standID).value(forKey: "crates") as? Set<ManagedObject>)?.count ?? 0
        }
        #expect(seen == 62, "the flagged child merged every sibling's save")
        try await parent.perform { try $0.save() }
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: EntityFetchRequest(entityName: "Crate")) == 62)
    }

    @MainActor
    @Test func aPrivateChildOfTheMainQueueContextPushesOnTheMainQueue() async throws {
        let coordinator = try stockedCoordinator()
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        let onMain = Mutex<[Bool]>([])
        let token = view.onObjectsDidChange { _ in onMain.withLock { $0.append(MainQueueCheck.isRunningOnMainQueue()) } }
        let editor = ManagedObjectContext(concurrencyType: .privateQueue, parent: view)
        let sibling = ManagedObjectContext(concurrencyType: .privateQueue, parent: view)
        sibling.performAndWait { sibling.automaticallyMergesChangesFromParent = true }
        let id = try await sibling.perform { try #require(try $0.fetch(EntityFetchRequest(entityName: "Stand")).first).objectID }
        try await editor.perform { context in
            try context.object(with: id).setValue("Main", forKey: "name")
            try context.save()
        }
        #expect(onMain.withLock { $0 } == [true])
        #expect(try view.object(with: id).value(forKey: "name") as? String == "Main")
        let merged = try await sibling.perform(schedule: .enqueued) { try $0.object(with: id).value(forKey: "name") as? String }
        #expect(merged == "Main")
        withExtendedLifetime(token) {}
    }

    /// Apple runs `performAndWait` on the caller's thread: from the main queue, a private child
    /// of the main-queue context saves inside `performAndWait` (its push reaches the parent
    /// inline, on the thread that holds the main queue), and nested waits across contexts work.
    @MainActor
    @Test func performAndWaitFromTheMainQueueReachesTheMainQueueContextInline() throws {
        let coordinator = try stockedCoordinator()
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: view)
        try child.performAndWait {
            let stand = try child.insertNewObject(forEntityNamed: "Stand")
            try stand.setValue("Quay", forKey: "name")
            try child.save()
        }
        #expect(view.insertedObjects.count == 1)
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let names = try background.performAndWait {
            try view.performAndWait { try view.fetch(EntityFetchRequest(entityName: "Stand")).count }
        }
        #expect(names == view.registeredObjects.filter { $0.entity.name == "Stand" }.count)
        try view.save()
    }
}
