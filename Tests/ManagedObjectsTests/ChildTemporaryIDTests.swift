import Foundation
import Testing
@testable import ManagedObjects

/// One object per row in a child: objects a child knows from its parent chain by temporary IDs
/// (a parent's unsaved insert it fetched, a sibling's insert it merged) take their permanent
/// IDs when the chain saves them, never a second object (trial12 N12).
@Suite struct ChildTemporaryIDTests {
    let stands = EntityFetchRequest(entityName: "Stand")

    func name(_ object: ManagedObject?) throws -> String? { try object?.value(forKey: "name") as? String }

    @discardableResult
    func insertStand(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let stand = try context.insertNewObject(forEntityNamed: "Stand")
        try stand.setValue(name, forKey: "name")
        return stand
    }

    @Test func aChildThatFetchedItsParentsInsertKeepsOneObjectWhenTheParentSaves() throws {
        let parent = ManagedObjectContext(coordinator: try stockedCoordinator())
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        try insertStand("New", in: parent)
        let seen = try #require(try child.fetch(stands).first { try name($0) == "New" })
        #expect(seen.objectID.isTemporaryID)
        let before = child.registeredObjects.count
        try parent.save()
        let again = try #require(try child.fetch(stands).first { try name($0) == "New" })
        #expect(again === seen)
        #expect(!seen.objectID.isTemporaryID)
        #expect(child.registeredObjects.count == before)
        try seen.setValue("Renamed", forKey: "name")
        try child.save()
        try parent.save()
        let stored = ManagedObjectContext(coordinator: try #require(parent.coordinator))
        #expect(try stored.fetch(stands).compactMap { try name($0) }.sorted() == ["Corner", "Renamed"])
    }

    @Test func aMergingChildSeesASiblingsInsertOnceThroughTheParentsSave() throws {
        let root = ManagedObjectContext(coordinator: try stockedCoordinator())
        let view = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        view.automaticallyMergesChangesFromParent = true
        let writer = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        var inserted: [ManagedObject] = []
        let token = view.onObjectsDidChange { changes in inserted += changes.inserted }
        defer { token.cancel() }
        let stand = try insertStand("New", in: writer)
        try writer.save()
        let merged = try #require(view.registeredObject(for: stand.objectID))
        #expect(inserted.map(ObjectIdentifier.init) == [ObjectIdentifier(merged)], "reported as inserted")
        #expect(try name(merged) == "New")
        try root.save()
        #expect(!merged.objectID.isTemporaryID)
        #expect(view.registeredObject(for: merged.objectID) === merged)
        #expect(inserted.count == 1, "the parent's save inserts nothing more")
        #expect(try view.object(with: stand.objectID) === merged, "the sibling's temporary ID names the same object")
        #expect(try view.fetch(stands).filter { try name($0) == "New" }.map(ObjectIdentifier.init) == [ObjectIdentifier(merged)])
        // The sibling's later change (still under its temporary ID) reaches the merged object.
        try stand.setValue("Newer", forKey: "name")
        try writer.save()
        #expect(try name(merged) == "Newer")
    }

    @Test func aMergingGrandchildReKeysWhenItFetchesAfterTheRootSaves() throws {
        let root = ManagedObjectContext(coordinator: try stockedCoordinator())
        let middle = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let view = ManagedObjectContext(concurrencyType: .confinement, parent: middle)
        view.automaticallyMergesChangesFromParent = true
        let writer = ManagedObjectContext(concurrencyType: .confinement, parent: middle)
        let stand = try insertStand("New", in: writer)
        try writer.save()
        let merged = try #require(view.registeredObject(for: stand.objectID))
        try middle.save()
        try root.save()
        let fetched = try view.fetch(stands)
        #expect(fetched.count == 2)
        #expect(fetched.contains { $0 === merged })
        #expect(!merged.objectID.isTemporaryID)
        #expect(view.registeredObjects.filter { $0.entity.name == "Stand" }.count == 2)
    }

    /// Before the child merges the parent's save (a queue context merges later, on its own
    /// queue), the permanent ID already names the object it knows by the temporary ID.
    @Test func aPermanentIDUsedBeforeTheParentsSaveIsMergedNamesTheKnownObject() throws {
        let root = ManagedObjectContext(coordinator: try stockedCoordinator())
        let view = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let writer = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = writer.onDidSave { result, _ in saves.append(result) }
        defer { token.cancel() }
        try insertStand("New", in: writer)
        try writer.save()
        view.mergeChanges(from: try #require(saves.last))
        let merged = try #require(view.registeredObjects.first { try name($0) == "New" })
        #expect(merged.objectID.isTemporaryID)
        try root.save()   // the view does not merge it
        let permanent = try #require(root.registeredObjects.first { try name($0) == "New" }).objectID
        #expect(!permanent.isTemporaryID)
        #expect(try view.object(with: permanent) === merged)
        #expect(merged.objectID == permanent)
        #expect(try view.existingObject(with: permanent) === merged)
        // Nothing new since: a permanent ID the view does not know makes a fault at once.
        let corner = try #require(try root.fetch(stands).first { try name($0) == "Corner" })
        #expect(try name(try view.object(with: corner.objectID)) == "Corner")
        #expect(view.registeredObjects.filter { $0.entity.name == "Stand" }.count == 2)
    }

    @Test func aSiblingsObtainedPermanentIDIsMergedOnce() throws {
        let root = ManagedObjectContext(coordinator: try stockedCoordinator())
        let view = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        view.automaticallyMergesChangesFromParent = true
        let writer = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let stand = try insertStand("New", in: writer)
        try writer.obtainPermanentIDs(for: [stand])
        try writer.save()
        let merged = try #require(view.registeredObject(for: stand.objectID))
        #expect(try name(merged) == "New")
        let count = view.registeredObjects.count
        try root.save()
        #expect(view.registeredObjects.count == count)
        #expect(view.registeredObject(for: stand.objectID) === merged)
    }
}
