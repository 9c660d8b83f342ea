// A merge reports every object of the other save's inserted set, also one this context had
// registered since (fetched, or faulted in through a relationship), so that a fetched results
// controller shows each row once (trial14 F9).
import Foundation
import ManagedObjects
import Testing
import TestSupport

@MainActor @Suite struct MergeRegisteredInsertTests {
    /// A controller over the movies by title, counting its batches.
    final class Watched {
        let controller: FetchedResultsController
        var batches = 0
        init(_ context: ManagedObjectContext) throws {
            controller = try FetchedResultsController(
                fetchRequest: EntityFetchRequest(entityName: "Movie", sortDescriptors: [.init(key: "title")]), context: context)
            controller.didChangeContent = { [unowned self] _ in self.batches += 1 }
            try controller.performFetch()
        }
        var titles: [String] { (controller.fetchedObjects ?? []).map { (try? $0.value(forKey: "title")) as? String ?? "?" } }
    }

    /// A did-save notification of `context` with the IDs of a save (what the context posts).
    static func didSave(_ result: ManagedObjectContext.SaveResult, of context: ManagedObjectContext) -> Notification {
        Notification(name: ManagedObjectContext.didSaveNotification, object: context, userInfo: [
            ManagedObjectContext.ChangeKey.insertedObjectIDs.rawValue: result.insertedObjectIDs,
            ManagedObjectContext.ChangeKey.updatedObjectIDs.rawValue: result.updatedObjectIDs,
            ManagedObjectContext.ChangeKey.deletedObjectIDs.rawValue: result.deletedObjectIDs,
        ])
    }

    /// Another context of the stack that inserted a movie and saved, and its save.
    static func movieSavedElsewhere(_ title: String, _ stack: FetchedResultsStack)
        throws -> (ManagedObjectContext, ManagedObjectContext.SaveResult) {
        let other = stack.newContext()
        var results: [ManagedObjectContext.SaveResult] = []
        let token = other.onDidSave { result, _ in results.append(result) }
        defer { token.cancel() }
        try stack.movie(title, in: other)
        try other.save()
        return (other, try #require(results.last))
    }

    @Test func aMergeAfterAFetchOfTheInsertedObjectReportsItAndTheControllerShowsIt() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = stack.context
        let watched = try Watched(view)
        let (other, saved) = try Self.movieSavedElsewhere("C", stack)
        // Any fetch of the entity between the save and its merge registers the new movie.
        let fetched = try view.fetch(EntityFetchRequest(entityName: "Movie"))
        #expect(fetched.count == 1)
        var events: [ManagedObjectContext.Changes] = []
        let token = view.onObjectsDidChange { events.append($0) }
        defer { token.cancel() }
        view.mergeChanges(fromContextDidSave: Self.didSave(saved, of: other))
        #expect(events.last?.inserted == Set(fetched))
        #expect(watched.titles == ["C"])
        #expect(watched.batches == 1)
    }

    @Test func mergesInSaveOrderShowEveryMovieOfASharedTheater() throws {
        // Merging A's save refreshes the theater, whose movies (read from the newer row) fault
        // B in before B's save is merged.
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = stack.context
        let rex = try stack.theater("Rex", city: "Oslo")
        try view.save()
        _ = try rex.value(forKey: "movies")
        let watched = try Watched(view)
        var results: [ManagedObjectContext.SaveResult] = []
        for title in ["A", "B"] {
            let writer = stack.newContext()
            let token = writer.onDidSave { result, _ in results.append(result) }
            try stack.movie(title, theater: try writer.existingObject(with: rex.objectID), in: writer)
            try writer.save()
            token.cancel()
        }
        for result in results { view.mergeChanges(from: result) }
        #expect(watched.titles == ["A", "B"])
        #expect(try view.fetch(EntityFetchRequest(entityName: "Movie")).count == 2)
        #expect((try rex.value(forKey: "movies") as? Set<ManagedObject>)?.count == 2)
    }

    @Test func anInsertedObjectAlreadyInTheResultsIsNotShownTwice() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = stack.context
        let (_, saved) = try Self.movieSavedElsewhere("C", stack)
        // The controller fetched after the save: it holds C already.
        let watched = try Watched(view)
        #expect(watched.titles == ["C"])
        view.mergeChanges(from: saved)
        #expect(watched.titles == ["C"])
        // Merged twice (a did-save heard twice): still once.
        view.mergeChanges(from: saved)
        #expect(watched.titles == ["C"])
    }

    @Test func anObjectThisContextDeletedIsNotReportedAsInserted() throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = stack.context
        let (_, saved) = try Self.movieSavedElsewhere("C", stack)
        let watched = try Watched(view)
        let movie = try #require(watched.controller.fetchedObjects?.first)
        view.delete(movie)
        view.processPendingChanges()
        #expect(watched.titles.isEmpty)
        var events: [ManagedObjectContext.Changes] = []
        let changes = view.onObjectsDidChange { events.append($0) }
        defer { changes.cancel() }
        view.mergeChanges(from: saved)
        #expect(events.allSatisfy { !$0.inserted.contains(movie) })
        #expect(watched.titles.isEmpty)
        #expect(movie.isDeleted)
    }

    /// Waits (at most about five seconds: a hang guard, not a timing) until `done` holds.
    private func waitUntil(_ done: () -> Bool) async throws {
        for _ in 0..<500 where !done() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func anAutomaticMergeAfterAMainActorFetchShowsTheMovie() async throws {
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: stack.coordinator)
        view.automaticallyMergesChangesFromParent = true
        let watched = try Watched(view)
        let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: stack.coordinator)
        try background.performAndWait {
            try stack.movie("C", in: background)
            try background.save()
        }
        // The merge is queued on the main queue; the main actor fetches before it runs.
        #expect(try view.fetch(EntityFetchRequest(entityName: "Movie")).count == 1)
        #expect(watched.titles.isEmpty)
        try await waitUntil { watched.batches > 0 }
        #expect(watched.titles == ["C"])
    }

    @Test func aTaskGroupImportUnderOneTheaterShowsEveryMovie() async throws {
        // The docs' task-group import (trial14's `stress`): four private-queue contexts insert
        // movies of one shared theater and save in batches; the merges run later on the main
        // queue, after merges that refreshed the theater's movies faulted later ones in.
        let stack = try FetchedResultsStack { InMemoryStore() }
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: stack.coordinator)
        view.automaticallyMergesChangesFromParent = true
        let rex = try stack.theater("Rex", city: "Oslo", in: view)
        try view.save()
        _ = try rex.value(forKey: "movies")
        let watched = try Watched(view)
        let theaterID = rex.objectID
        let coordinator = stack.coordinator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                    try await context.perform { context in
                        // The theater's movies change in every context: each save merges them.
                        context.mergePolicy = .mergeByPropertyObjectTrump
                        let theater = try context.existingObject(with: theaterID)
                        for batch in 0..<5 {
                            for index in 0..<10 {
                                let movie = try context.insertNewObject(forEntityNamed: "Movie")
                                try movie.setValue("M\(worker)-\(batch)-\(index)", forKey: "title")
                                try movie.setValue(theater, forKey: "theater")
                            }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await waitUntil { watched.titles.count == 200 }
        #expect(watched.titles.count == 200)
        #expect(Set(watched.titles).count == 200)
        #expect(try view.fetch(EntityFetchRequest(entityName: "Movie")).count == 200)
    }

    @Test func aHistoryMergeAfterAFetchShowsTheMovie() throws {
        let store = HistoryRecordingStore()
        let stack = try FetchedResultsStack { store }
        let view = stack.context
        let watched = try Watched(view)
        let token = try stack.coordinator.currentPersistentHistoryToken()
        let other = stack.newContext()
        try stack.movie("C", in: other)
        try other.save()
        #expect(try view.fetch(EntityFetchRequest(entityName: "Movie")).count == 1)
        let transactions = try view.execute(.fetchHistory(after: token)).transactions
        view.mergeChanges(fromHistory: transactions)
        #expect(watched.titles == ["C"])
    }
}
