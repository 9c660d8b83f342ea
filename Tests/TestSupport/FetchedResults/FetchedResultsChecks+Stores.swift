// Targeted checks of the fetched results controller: merges, the named cache, bad input.
import Foundation
import ManagedObjects
import Predicates
import Testing

extension FetchedResultsChecks {
    /// Another context's saves, merged, are reported: inserts, moves, deletes.
    static func merges(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let a = try stack.movie("A", theater: odeon)
        let b = try stack.movie("B", theater: odeon)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        let other = stack.newContext()
        var saves: [ManagedObjectContext.SaveResult] = []
        let token = other.onDidSave { result, _ in saves.append(result) }
        defer { token.cancel() }
        func merge(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
            recorder.clear()
            try body()
            try other.save()
            stack.context.mergeChanges(from: try #require(saves.last, sourceLocation: sourceLocation))
            #expect(recorder.lines == expected, sourceLocation: sourceLocation)
            for batch in recorder.batches { try table.apply(batch) }
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
        }
        try merge(["will", "insert ->[0, 2] C", "did"]) {
            try stack.movie("C", theater: try other.object(with: odeon.objectID), in: other)
        }
        try merge(["will", "move [0, 0]->[0, 2] Z", "did"]) {
            try other.object(with: a.objectID).setValue("Z", forKey: "title")
        }
        try merge(["will", "delete [0, 0] B", "did"]) { other.delete(try other.object(with: b.objectID)) }
        #expect(H.outline(controller) == [": C, Z"])
    }

    /// A named cache: a second controller with the same name and request takes its sections
    /// from it; another request under the name recomputes; deleting the cache recomputes.
    static func namedCache(_ stack: FetchedResultsStack) throws {
        let name = "movies-\(UUID().uuidString)"
        defer { FetchedResultsController.deleteCache(withName: name) }
        try stack.movie("A", genre: "comedy")
        try stack.movie("B", genre: "drama")
        try stack.movie("C", genre: "drama")
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
            KeyValueSortDescriptor(key: "genre"), KeyValueSortDescriptor(key: "title")])
        func controller(_ request: EntityFetchRequest, in context: ManagedObjectContext) throws -> FetchedResultsController {
            let controller = try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "genre", cacheName: name)
            try controller.performFetch()
            return controller
        }
        let first = try controller(request, in: stack.context)
        #expect(!first.lastFetchUsedCache)
        let second = try controller(request, in: stack.newContext())
        #expect(second.lastFetchUsedCache)
        #expect(H.outline(second) == ["comedy: A", "drama: B, C"])
        #expect(second.sections?.map(\.indexTitle) == ["C", "D"])
        // The first controller keeps the cache current across its context's saves.
        let recorder = FetchedResultsRecorder()
        first.delegate = recorder
        try stack.movie("D", genre: "drama")
        try stack.context.save()
        let third = try controller(request, in: stack.newContext())
        #expect(third.lastFetchUsedCache)
        #expect(H.outline(third) == ["comedy: A", "drama: B, C, D"])
        // Another request under the same name: computed again, and the cache is its now.
        var dramas = request
        dramas.predicate = try KeyValuePredicate(format: "genre == 'drama'")
        let fourth = try controller(dramas, in: stack.newContext())
        #expect(!fourth.lastFetchUsedCache)
        #expect(H.outline(fourth) == ["drama: B, C, D"])
        #expect(try controller(dramas, in: stack.newContext()).lastFetchUsedCache)
        // Unsaved changes in the context: the cache is not used (it would miss them).
        let busy = stack.newContext()
        try stack.movie("E", genre: "drama", in: busy)
        let fifth = try controller(dramas, in: busy)
        #expect(!fifth.lastFetchUsedCache)
        #expect(H.outline(fifth) == ["drama: B, C, D, E"])
        FetchedResultsController.deleteCache(withName: name)
        #expect(try !controller(dramas, in: stack.newContext()).lastFetchUsedCache)
    }

    /// A changed request takes effect at the next fetch.
    static func changedRequest(_ stack: FetchedResultsStack) throws {
        try stack.movie("A", rating: 1)
        try stack.movie("B", rating: 5)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        try controller.performFetch()
        controller.fetchRequest.predicate = try KeyValuePredicate(format: "rating > 2")
        #expect(H.outline(controller) == [": A, B"])
        try controller.performFetch()
        #expect(H.outline(controller) == [": B"])
        controller.fetchRequest.sortDescriptors = []
        #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Movie")) { try controller.performFetch() }
        #expect(H.outline(controller) == [": B"])
    }

    /// A fetch limit: an object that sorts into the window pushes the last one out.
    static func fetchLimit(_ stack: FetchedResultsStack) throws {
        for (rank, title) in ["A", "B", "C"].enumerated() { try stack.movie(title, rank: rank + 1) }
        try stack.context.save()
        var request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        request.fetchLimit = 2
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == [": A, B"])
        var table = TableSimulator(try #require(controller.sections))
        try stack.movie("Z", rank: 0)
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "delete [0, 1] B", "insert ->[0, 0] Z", "did"])
        for batch in recorder.batches { try table.apply(batch) }
        try H.expectCurrent(controller, table: table)
        #expect(H.outline(controller) == [": Z, A"])
    }

    /// Bad input: thrown errors naming the culprit, or `nil`, never a crash.
    static func badInput(_ stack: FetchedResultsStack) throws {
        let context = stack.context
        let byTitle = [KeyValueSortDescriptor(key: "title")]
        #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Movie")) {
            try FetchedResultsController(fetchRequest: EntityFetchRequest(entityName: "Movie"), context: context)
        }
        #expect(throws: FetchedResultsError.unknownEntity("Film")) {
            try FetchedResultsController(fetchRequest: EntityFetchRequest(entityName: "Film", sortDescriptors: byTitle), context: context)
        }
        let movies = EntityFetchRequest(entityName: "Movie", sortDescriptors: byTitle)
        for path in ["nope", "theater.nope", "title.length", "theater..name", ""] {
            do {
                _ = try FetchedResultsController(fetchRequest: movies, context: context, sectionNameKeyPath: path)
                Issue.record("the section key path '\(path)' was accepted")
            } catch let error as FetchedResultsError {
                guard case .invalidSectionKeyPath(let culprit, let entity, _) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(culprit == path && entity == "Movie")
                #expect(error.errorDescription?.contains("'\(path)'") == true)
            }
        }
        let theaters = EntityFetchRequest(entityName: "Theater", sortDescriptors: [KeyValueSortDescriptor(key: "name")])
        #expect(throws: FetchedResultsError.self) {
            try FetchedResultsController(fetchRequest: theaters, context: context, sectionNameKeyPath: "movies.title")
        }
        // A to-many relationship as the last step: a set of objects is no section name.
        for path in ["movies", "theater.movies"] {
            let request = path == "movies" ? theaters : movies
            #expect(throws: FetchedResultsError.invalidSectionKeyPath(
                path, entity: request.entityName, reason: "'movies' of 'Theater' is to-many (a section needs one value)")) {
                try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: path)
            }
        }
        // Sections split by the order: an error at fetch, naming both keys; the results stay unset.
        try stack.movie("A", rank: 1, genre: "drama")
        try stack.movie("B", rank: 2, genre: "comedy")
        try stack.movie("C", rank: 3, genre: "drama")
        try context.save()
        let split = try FetchedResultsController(fetchRequest: movies, context: context, sectionNameKeyPath: "genre")
        #expect(throws: FetchedResultsError.sectionKeyPathDisagreesWithSort(sectionKeyPath: "genre", firstSortKey: "title", section: "drama")) {
            try split.performFetch()
        }
        #expect(split.sections == nil)
        // A first sort key other than the section key path that orders the same way is fine.
        var byGenreRank = movies
        byGenreRank.predicate = try KeyValuePredicate(format: "rank >= 2")
        byGenreRank.sortDescriptors = [KeyValueSortDescriptor(key: "rank")]
        let agreeing = try FetchedResultsController(fetchRequest: byGenreRank, context: context, sectionNameKeyPath: "genre")
        try agreeing.performFetch()
        #expect(H.outline(agreeing) == ["comedy: B", "drama: C"])
        // Positions outside the results.
        for path in [FetchedResultsIndexPath(row: 1, section: 0), FetchedResultsIndexPath(row: 0, section: 2),
                     FetchedResultsIndexPath(row: -1, section: 0), FetchedResultsIndexPath(row: 0, section: -1)] {
            #expect(throws: FetchedResultsError.indexPathOutOfRange(path)) { try agreeing.object(at: path) }
        }
        #expect(throws: FetchedResultsError.unknownSectionIndexTitle("Q")) { try agreeing.section(forSectionIndexTitle: "Q", at: 0) }
        #expect(throws: FetchedResultsError.sectionOutOfRange(5, count: 2)) { try agreeing.section(forSectionIndexTitle: "C", at: 5) }
        let outsider = try #require(try context.fetch(EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "rank == 1"))).first)
        #expect(agreeing.indexPath(forObject: outsider) == nil)
        // Before any fetch.
        let unfetched = try FetchedResultsController(fetchRequest: movies, context: context)
        #expect(throws: FetchedResultsError.self) { try unfetched.object(at: FetchedResultsIndexPath(row: 0, section: 0)) }
        #expect(unfetched.sectionIndexTitles.isEmpty && unfetched.snapshot == nil)
        #expect(FetchedResultsError.sectionKeyPathDisagreesWithSort(sectionKeyPath: "genre", firstSortKey: "title", section: "drama")
            .errorDescription?.contains("'title'") == true)
    }
}
