// Targeted checks of the fetched results controller: relationships, delegates, merges, caching.
import Foundation
import ManagedObjects
import Predicates
import Testing

extension FetchedResultsChecks {
    /// Sort by `theater.name`, section by `theater.city`: a theater's rename moves its movies;
    /// a city change moves them to another section.
    static func relationshipKeyPaths(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let rex = try stack.theater("Rex", city: "London")
        let gaumont = try stack.theater("Gaumont", city: "Paris")
        try stack.movie("A", theater: odeon)
        try stack.movie("B", theater: odeon)
        try stack.movie("C", theater: rex)
        try stack.movie("D", theater: rex)
        try stack.movie("E", theater: gaumont)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
            KeyValueSortDescriptor(key: "theater.city"), KeyValueSortDescriptor(key: "theater.name"), KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context, sectionNameKeyPath: "theater.city")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == ["London: A, B, C, D", "Paris: E"])
        var table = TableSimulator(try #require(controller.sections))
        func step(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
            recorder.clear()
            try body()
            stack.context.processPendingChanges()
            #expect(recorder.lines == expected, sourceLocation: sourceLocation)
            for batch in recorder.batches { try table.apply(batch) }
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
        }
        try step(["will", "move [0, 2]->[0, 0] C", "move [0, 3]->[0, 1] D", "did"]) { try rex.setValue("Astoria", forKey: "name") }
        #expect(H.outline(controller) == ["London: C, D, A, B", "Paris: E"])
        try step(["will", "section delete 1 Paris", "section insert 0 Berlin", "move [1, 0]->[0, 0] E", "did"]) {
            try gaumont.setValue("Berlin", forKey: "city")
        }
        // A rename that keeps the order: the movies read a changed value, so they are updated.
        try step(["will", "update [1, 2]->[1, 2] A", "update [1, 3]->[1, 3] B", "did"]) { try odeon.setValue("Plaza", forKey: "name") }
        // A theater without movies, and a value set to what it was: nothing.
        try step([]) { try stack.theater("Empty", city: "Rome") }
        try step([]) { try gaumont.setValue("Gaumont", forKey: "name") }
    }

    /// A predicate through a relationship: a related object's change makes results come and go.
    static func predicateThroughRelationship(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let rex = try stack.theater("Rex", city: "Paris")
        try stack.movie("A", theater: odeon)
        try stack.movie("B", theater: rex)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "theater.city == 'London'"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == [": A"])
        try rex.setValue("London", forKey: "city")
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "insert ->[0, 1] B", "did"])
        recorder.clear()
        try odeon.setValue("Rome", forKey: "city")
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "delete [0, 0] A", "did"])
        try H.expectCurrent(controller)
    }

    /// Deleting the only object of a section removes the section; deleting a non-result: nothing.
    static func deletedLastInSection(_ stack: FetchedResultsStack) throws {
        let a = try stack.movie("A", genre: "action")
        let b = try stack.movie("B", genre: "drama")
        let c = try stack.movie("C", genre: "western")
        let theater = try stack.theater("Odeon", city: "London")
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
            KeyValueSortDescriptor(key: "genre"), KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context, sectionNameKeyPath: "genre")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        stack.context.delete(b)
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "section delete 1 drama", "delete [1, 0] B", "did"])
        for batch in recorder.batches { try table.apply(batch) }
        recorder.clear()
        stack.context.delete(a)
        stack.context.delete(c)
        stack.context.delete(theater)
        try stack.context.save()
        #expect(recorder.lines == ["will", "section delete 0 action", "section delete 1 western",
                                   "delete [0, 0] A", "delete [1, 0] C", "did"])
        for batch in recorder.batches { try table.apply(batch) }
        #expect(table.sections.isEmpty)
        try H.expectCurrent(controller, table: table)
    }

    /// With no delegate the results still follow the context, and nothing is reported.
    static func noDelegate(_ stack: FetchedResultsStack) throws {
        try stack.movie("B", rank: 2)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        try controller.performFetch()
        let a = try stack.movie("A", rank: 1)
        stack.context.processPendingChanges()
        #expect(H.outline(controller) == [": A, B"])
        try a.setValue(Int64(3), forKey: "rank")
        try stack.context.save()
        #expect(H.outline(controller) == [": B, A"])
        try H.expectCurrent(controller)
        // A delegate set later hears the next batch only.
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try stack.movie("C", rank: 0)
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "insert ->[0, 0] C", "did"])
        // A reset forgets every object: the results are fetched again (new objects) and the
        // table follows.
        try stack.context.save()
        var table = TableSimulator(try #require(controller.sections))
        recorder.clear()
        stack.context.reset()
        for batch in recorder.batches { try table.apply(batch) }
        #expect(recorder.lines.filter { $0.hasPrefix("delete") }.count == 3)
        #expect(recorder.lines.filter { $0.hasPrefix("insert") }.count == 3)
        try H.expectCurrent(controller, table: table)
        #expect(H.outline(controller) == [": C, B, A"])
    }

    /// A delegate that receives snapshots gets one per batch (and none of the per-change calls);
    /// a save gives the permanent IDs; an object changed in place is reloaded.
    static func snapshotForm(_ stack: FetchedResultsStack) throws {
        let b = try stack.movie("B", genre: "drama")
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
            KeyValueSortDescriptor(key: "genre"), KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context, sectionNameKeyPath: "genre")
        let recorder = FetchedResultsRecorder()
        recorder.wantsSnapshots = true
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.snapshot?.sectionIdentifiers == ["drama"])
        let a = try stack.movie("A", genre: "comedy")
        stack.context.processPendingChanges()
        #expect(recorder.lines.isEmpty)
        let first = try #require(recorder.snapshots.last)
        #expect(recorder.snapshots.count == 1)
        #expect(first.sectionIdentifiers == ["comedy", "drama"])
        #expect(first.itemIdentifiers == [a.objectID, b.objectID])
        #expect(first.itemIdentifiers.first?.isTemporaryID == true)
        #expect(first.reloadedItemIdentifiers.isEmpty)
        try stack.context.save()
        let saved = try #require(recorder.snapshots.last)
        #expect(recorder.snapshots.count == 2)
        #expect(saved.itemIdentifiers == [a.objectID, b.objectID])
        #expect(saved.itemIdentifiers.allSatisfy { !$0.isTemporaryID })
        try b.setValue(Int64(7), forKey: "rating")
        stack.context.processPendingChanges()
        let reloaded = try #require(recorder.snapshots.last)
        #expect(reloaded.reloadedItemIdentifiers == [b.objectID])
        #expect(reloaded.itemIdentifiers(inSection: "drama") == [b.objectID])
        #expect(reloaded.sectionIdentifier(containingItem: a.objectID) == "comedy")
        #expect(reloaded.numberOfItems == 2 && reloaded.numberOfSections == 2)
        #expect(reloaded == controller.snapshot.map { FetchedResultsSnapshot(sections: $0.sections, reloadedItemIdentifiers: [b.objectID]) })
    }

    /// The closure hooks get the same batches as a delegate; the async sequence the snapshots.
    static func closureHooks(_ stack: FetchedResultsStack) throws {
        try stack.movie("B", rank: 2)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        var differences: [FetchedResultsDifference] = []
        var snapshots: [FetchedResultsSnapshot] = []
        controller.didChangeContent = { differences.append($0) }
        controller.didChangeSnapshot = { snapshots.append($0) }
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        let a = try stack.movie("A", rank: 1)
        stack.context.processPendingChanges()
        #expect(differences.count == 1 && snapshots.count == 1)
        #expect(differences.first?.objectChanges.map(\.kind) == [.insert])
        #expect(differences.first?.objectChanges.first?.object === a)
        for difference in differences { try table.apply(difference) }
        try H.expectCurrent(controller, table: table)
        #expect(snapshots.last?.itemIdentifiers == controller.fetchedObjects?.map(\.objectID))
    }
}
