import Foundation
import ManagedObjects
import Testing
import TestSupport

/// A rollback reports what it undid in one objects-did-change, so observers and fetched results
/// controllers follow it.
@Suite struct RollbackNotificationTests {
    @Test func rollbackPostsOneObjectsDidChangeWithWhatItUndid() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let kept = try stack.movie("Kept", rank: 1)
        let changed = try stack.movie("Changed", rank: 2)
        try stack.context.save()
        let added = try stack.movie("Added", rank: 3)
        try changed.setValue("Renamed", forKey: "title")
        stack.context.delete(kept)
        stack.context.processPendingChanges()
        var events: [ManagedObjectContext.Changes] = []
        let observation = stack.context.onObjectsDidChange { events.append($0) }
        stack.context.rollback()
        withExtendedLifetime(observation) {}
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event.deleted == [added])
        #expect(event.invalidated == [added])
        #expect(event.inserted == [kept])
        #expect(event.refreshed == [changed])
        #expect(try changed.value(forKey: "title") as? String == "Changed")
    }

    @Test func rollbackWithNothingToUndoPostsNothing() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        var events = 0
        let observation = stack.context.onObjectsDidChange { _ in events += 1 }
        stack.context.rollback()
        withExtendedLifetime(observation) {}
        #expect(events == 0)
    }

    @Test func aFetchedResultsControllerFollowsARollback() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let a = try stack.movie("A", rank: 1)
        let b = try stack.movie("B", rank: 2)
        try stack.context.save()
        let controller = try FetchedResultsController(
            fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [.init(key: "rank")]), context: stack.context)
        var differences: [FetchedResultsDifference] = []
        controller.didChangeContent = { differences.append($0) }
        try controller.performFetch()
        let c = try stack.movie("C", rank: 0)
        try b.setValue(Int64(-1), forKey: "rank")
        stack.context.delete(a)
        stack.context.processPendingChanges()
        #expect(controller.fetchedObjects == [b, c])
        differences.removeAll()
        stack.context.rollback()
        #expect(controller.fetchedObjects == [a, b])
        #expect(differences.count == 1)
        let kinds = differences.first?.objectChanges.map { "\($0.kind)" }.sorted() ?? []
        #expect(kinds.contains("delete"))
        #expect(kinds.contains("insert"))
    }
}
