// A view context (a child that merges its parent's changes) under a root context, and a sibling
// child that inserts, updates and saves into the shared parent (trial12 N12).
import Foundation
import ManagedObjects
import Predicates
import Testing

extension FetchedResultsChecks {
    /// The view's controller shows a sibling's insert when the view merges it, under the
    /// temporary ID the parent holds it by; when the parent saves, the same object takes its
    /// permanent ID (one object per row: never a second one, never listed twice); the
    /// sibling's later update reaches it, and the view's own edit of it reaches the row.
    static func siblingInsertIntoAViewContext(_ stack: FetchedResultsStack) throws {
        let root = stack.context
        try stack.movie("A", rank: 1)
        try root.save()
        let view = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        view.automaticallyMergesChangesFromParent = true
        let writer = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let movies = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: movies, context: view)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        func check(_ expected: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws {
            if let expected { #expect(recorder.lines == expected, sourceLocation: sourceLocation) }
            for batch in recorder.batches { try table.apply(batch) }
            recorder.clear()
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
            // One object per row: a theater and the movies.
            let rows = try view.count(for: movies) + (try view.count(for: EntityFetchRequest(entityName: "Theater")))
            #expect(view.registeredObjects.count <= rows, "\(view.registeredObjects.count) objects for \(rows) rows",
                    sourceLocation: sourceLocation)
            #expect(Set(view.registeredObjects.map(\.objectID)).count == view.registeredObjects.count, sourceLocation: sourceLocation)
        }

        let odeon = try stack.theater("Odeon", city: "London", in: writer)
        let b = try stack.movie("B", rank: 2, theater: odeon, in: writer)
        try writer.save()
        // The merge ends with processPendingChanges: the controller has the insert at once.
        try check(["will", "insert ->[0, 1] B", "did"])
        let merged = try #require(controller.fetchedObjects?.last)
        #expect(merged.objectID == b.objectID && merged.objectID.isTemporaryID)
        #expect(merged.managedObjectContext === view)

        // The parent saves: the merged object takes the permanent ID, nothing is inserted again.
        try root.save()
        #expect(!merged.objectID.isTemporaryID)
        #expect(merged.objectID == root.registeredObjects.first { (try? $0.value(forKey: "title")) as? String == "B" }?.objectID)
        try check([])
        #expect(try view.existingObject(with: merged.objectID) === merged)
        // The sibling still knows the movie by its temporary ID: it names the same object here.
        #expect(b.objectID.isTemporaryID)
        #expect(try view.object(with: b.objectID) === merged)
        #expect(view.registeredObjects.count == 3)

        // The sibling updates the movie and both save: the view's one object shows it, once.
        try b.setValue("C", forKey: "title")
        try writer.save()
        try root.save()
        try check(nil)
        #expect(H.outline(controller) == [": A, C"])
        #expect(try view.fetch(movies).count == 2)

        // An edit through the merged object reaches the row.
        try merged.setValue(Int64(9), forKey: "rank")
        try view.save()
        try root.save()
        try check(nil)
        let fresh = stack.newContext()
        let stored = try fresh.fetch(movies)
        #expect(stored.map { (try? $0.value(forKey: "title")) as? String } == ["A", "C"])
        #expect(try stored.last?.value(forKey: "rank") as? Int64 == 9)
        #expect(view.registeredObjects.count == 3)
    }
}
