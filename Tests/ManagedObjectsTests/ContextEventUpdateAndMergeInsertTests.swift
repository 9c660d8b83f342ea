// Two context rules a fetched results controller relies on: a change to an object inserted in an
// earlier event is an update of this event, and a merge reports the other context's inserts.
import Foundation
import ManagedObjects
import Testing
import TestSupport

@Suite struct ContextEventUpdateAndMergeInsertTests {
    @Test func aChangeToAnObjectInsertedInAnEarlierEventIsAnUpdateOfThisEvent() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let context = stack.context
        var events: [ManagedObjectContext.Changes] = []
        let token = context.onObjectsDidChange { events.append($0) }
        defer { token.cancel() }
        let movie = try stack.movie("A")
        try movie.setValue("B", forKey: "title")
        context.processPendingChanges()
        // Inserted and changed in one event: an insert only.
        #expect(events.last?.inserted == [movie])
        #expect(events.last?.updated.isEmpty == true)
        try movie.setValue("C", forKey: "title")
        context.processPendingChanges()
        #expect(events.last?.updated == [movie])
        #expect(events.last?.inserted.isEmpty == true)
        // Still an inserted object of the context until the save.
        #expect(movie.isInserted && context.insertedObjects == [movie] && context.updatedObjects.isEmpty)
    }

    @Test func aMergeReportsTheOtherContextsInsertsAsRegisteredFaults() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let other = stack.newContext()
        var saves: [ManagedObjectContext.SaveResult] = []
        let saveToken = other.onDidSave { result, _ in saves.append(result) }
        defer { saveToken.cancel() }
        let movie = try stack.movie("A", in: other)
        try other.save()
        var events: [ManagedObjectContext.Changes] = []
        let token = stack.context.onObjectsDidChange { events.append($0) }
        defer { token.cancel() }
        stack.context.mergeChanges(from: try #require(saves.last))
        let merged = try #require(events.last?.inserted.first)
        #expect(events.last?.inserted.count == 1)
        #expect(merged.objectID == movie.objectID)
        #expect(merged.managedObjectContext === stack.context)
        #expect(try merged.value(forKey: "title") as? String == "A")
        #expect(!merged.isInserted)
    }
}
