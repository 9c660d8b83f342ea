import Foundation
import Testing
@testable import ManagedObjects
import Predicates

/// A child context that saves after its parent dropped objects the child still changes (the
/// parent inserted them, then `reset()` or `rollback()`): the save throws naming the objects,
/// instead of losing the child's edits in silence.
@Suite struct ChildSaveAfterParentResetTests {
    let stands = EntityFetchRequest(entityName: "Stand")

    func name(_ object: ManagedObject?) throws -> String? { try object?.value(forKey: "name") as? String }

    @Test func editsOfAnObjectTheParentResetAwayThrowNamingIt() throws {
        let parent = ManagedObjectContext(coordinator: try stockedCoordinator())
        let added = try parent.insertNewObject(forEntityNamed: "Stand")
        try added.setValue("New", forKey: "name")
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let childAdded = try child.object(with: added.objectID)
        try childAdded.setValue("Renamed", forKey: "name")
        let saved = try #require(try child.fetch(stands).first { try name($0) != "New" && name($0) != "Renamed" })
        try saved.setValue("Also changed", forKey: "name")

        parent.reset()
        #expect {
            try child.save()
        } throws: { error in
            guard case ManagedObjectContextError.objectsGoneFromParent(let ids) = error else { return false }
            return ids == [added.objectID] && (error as? any LocalizedError)?.errorDescription?.contains(added.objectID.description) == true
        }
        // Nothing reached the parent, not even the change of the object it still has; the child
        // keeps its changes.
        #expect(!parent.hasChanges)
        #expect(child.hasChanges && childAdded.isUpdated)
        #expect(try name(childAdded) == "Renamed")
    }

    @Test func relatingToAnObjectTheParentRolledBackThrows() throws {
        let parent = ManagedObjectContext(coordinator: try stockedCoordinator())
        let stand = try parent.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue("Pop-up", forKey: "name")
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let childStand = try child.object(with: stand.objectID)
        let crate = try child.insertNewObject(forEntityNamed: "Crate")
        try crate.setValue(childStand, forKey: "stand")
        parent.rollback()
        #expect(throws: ManagedObjectContextError.objectsGoneFromParent([stand.objectID])) { try child.save() }
        #expect(!parent.hasChanges)
        #expect(parent.insertedObjects.isEmpty)
    }

    @Test func aChildSaveAfterAResetThatKeptItsObjectsStillWorks() throws {
        let parent = ManagedObjectContext(coordinator: try stockedCoordinator())
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let saved = try #require(try child.fetch(stands).first)
        try saved.setValue("Changed", forKey: "name")
        let added = try child.insertNewObject(forEntityNamed: "Stand")
        try added.setValue("Child's", forKey: "name")
        parent.reset()   // the parent had nothing of its own: the child's objects are saved ones or new
        try child.save()
        #expect(Set(try parent.fetch(stands).compactMap { try name($0) }).isSuperset(of: ["Changed", "Child's"]))
    }
}
