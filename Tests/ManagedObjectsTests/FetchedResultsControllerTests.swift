// The fetched results controller on the in-memory store (the cases live in TestSupport and run
// on SQLite too), plus what does not depend on the store: main-actor use, async snapshots, and
// the table simulator's own checks.
import Foundation
import ManagedObjects
import Testing
import TestSupport

@Suite struct FetchedResultsControllerTests {
    @Test(arguments: FetchedResultsScenario.allCases)
    func behaviourOnTheInMemoryStore(_ scenario: FetchedResultsScenario) throws {
        try scenario.run { InMemoryStore() }
    }

    @Test @MainActor func mainActorViewUsesTheDelegateAndTheHooks() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = try MoviesListView(context: stack.context)
        try stack.movie("A", rank: 1)
        stack.context.processPendingChanges()
        #expect(view.rows == ["A"])
        #expect(view.reloads == 1)
        #expect(view.hookCalls == 1)
    }

    @Test func asyncSequenceOfSnapshots() async throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        try stack.movie("A", rank: 1)
        try stack.context.save()
        let controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [.init(key: "rank")]), context: stack.context)
        try controller.performFetch()
        let stream = controller.snapshots()
        let b = try stack.movie("B", rank: 0)
        stack.context.processPendingChanges()
        var iterator = stream.makeAsyncIterator()
        // bufferingNewest(1): the newest snapshot waits for the consumer.
        let latest = try #require(await iterator.next())
        #expect(latest.itemIdentifiers.first == b.objectID)
        #expect(latest.numberOfItems == 2)
    }

    @Test func tableSimulatorRejectsAWrongBatch() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let a = try stack.movie("A")
        let b = try stack.movie("B")
        let table = TableSimulator(names: [""], objects: [[a, b]])
        var difference = FetchedResultsDifference()
        difference.objectChanges = [FetchedResultsChange(kind: .delete, object: a, indexPath: FetchedResultsIndexPath(row: 1, section: 0), newIndexPath: nil)]
        var copy = table
        #expect(throws: TableSimulator.Inconsistency.self) { try copy.apply(difference) }
        difference.objectChanges = [FetchedResultsChange(kind: .insert, object: a, indexPath: nil, newIndexPath: FetchedResultsIndexPath(row: 5, section: 0))]
        copy = table
        #expect(throws: TableSimulator.Inconsistency.self) { try copy.apply(difference) }
        difference.objectChanges = [FetchedResultsChange(kind: .move, object: b, indexPath: FetchedResultsIndexPath(row: 1, section: 0), newIndexPath: FetchedResultsIndexPath(row: 0, section: 0))]
        copy = table
        try copy.apply(difference)
        #expect(copy == TableSimulator(names: [""], objects: [[b, a]]))
    }
}

/// A main-actor view: an isolated conformance to the delegate, and a hook closure.
@MainActor final class MoviesListView {
    let controller: FetchedResultsController
    var rows: [String] = []
    var reloads = 0
    var hookCalls = 0

    init(context: ManagedObjectContext) throws {
        controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [.init(key: "rank")]), context: context)
        controller.delegate = self
        controller.didChangeContent = { [weak self] _ in self?.hookCalls += 1 }
        try controller.performFetch()
    }

    func reload() {
        reloads += 1
        rows = (controller.fetchedObjects ?? []).map { ((try? $0.value(forKey: "title")) as? String) ?? "?" }
    }
}

extension MoviesListView: @MainActor FetchedResultsControllerDelegate {
    func controllerDidChangeContent(_ controller: FetchedResultsController) { reload() }
}
