// Checks of the fetched results controller when following a batch of changes fails.
import Foundation
import ManagedObjects
import Predicates
import Testing

extension FetchedResultsChecks {
    /// `genre == 'drama' OR title MATCHES genre`: a movie whose genre is not a valid pattern
    /// (and not `drama`) makes evaluating the predicate throw.
    static let throwsForBadGenre = "genre == 'drama' OR title MATCHES genre"

    /// `ANY theater.movies.title != 'zzz'` over a movie with no theater reads no elements (not
    /// an error): inserting one leaves the others where they are, and it does not match.
    static func qualifierThroughNilToOne(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let rex = try stack.theater("Rex", city: "Paris")
        try stack.movie("A", theater: odeon)
        try stack.movie("B", theater: odeon)
        try stack.movie("C", theater: rex)
        try stack.context.save()
        let controller = try FetchedResultsController(
            fetchRequest: H.moviesByTheater(predicate: try KeyValuePredicate(format: "ANY theater.movies.title != 'zzz'")),
            context: stack.context, sectionNameKeyPath: "theater.name")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == ["Odeon: A, B", "Rex: C"])
        try stack.movie("Homeless")
        stack.context.processPendingChanges()
        #expect(recorder.lines.isEmpty)
        #expect(H.outline(controller) == ["Odeon: A, B", "Rex: C"])
        #expect(controller.lastChangeTrackingError == nil)
        try stack.context.save()
        #expect(H.outline(controller) == ["Odeon: A, B", "Rex: C"])
        try H.expectCurrent(controller)
    }

    /// A request that fetches again on each batch (sorted through a relationship) whose fetch
    /// throws: the results stay, less the objects deleted in the batch; the error goes to the
    /// delegate, the handler and `lastChangeTrackingError`; a later batch that fetches again
    /// catches up; `performFetch()` clears the error.
    static func refetchErrorKeepsResults(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let rex = try stack.theater("Rex", city: "Paris")
        try stack.movie("A", theater: odeon)
        let b = try stack.movie("B", theater: odeon)
        try stack.movie("C", theater: rex)
        try stack.context.save()
        let controller = try FetchedResultsController(
            fetchRequest: H.moviesByTheater(predicate: try KeyValuePredicate(format: throwsForBadGenre)),
            context: stack.context, sectionNameKeyPath: "theater.name")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        var handled: [String] = []
        controller.didFailToTrackChanges = { handled.append("\($0)") }
        try controller.performFetch()
        #expect(H.outline(controller) == ["Odeon: A, B", "Rex: C"])
        // The new movie makes the fetch throw: nothing is dropped, the error is reported.
        let bad = try stack.movie("X", genre: "(", theater: rex)
        stack.context.processPendingChanges()
        #expect(H.outline(controller) == ["Odeon: A, B", "Rex: C"])
        #expect(recorder.lines.count == 1 && recorder.lines.first?.hasPrefix("error ") == true, "\(recorder.lines)")
        #expect(handled.count == 1)
        #expect(controller.lastChangeTrackingError is PredicateEvaluationError)
        // A failing batch still loses its deleted objects.
        recorder.clear()
        stack.context.delete(b)
        stack.context.processPendingChanges()
        #expect(H.outline(controller) == ["Odeon: A", "Rex: C"])
        #expect(recorder.lines.first == "will" && recorder.lines.contains("delete [0, 1] B"), "\(recorder.lines)")
        #expect(recorder.lines.last?.hasPrefix("error ") == true, "\(recorder.lines)")
        // Mended: the next batch fetches again and catches up; the error stays until a fetch.
        recorder.clear()
        try bad.setValue("drama", forKey: "genre")
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "insert ->[1, 1] X", "did"])
        #expect(H.outline(controller) == ["Odeon: A", "Rex: C, X"])
        #expect(controller.lastChangeTrackingError != nil)
        try controller.performFetch()
        #expect(controller.lastChangeTrackingError == nil)
        try H.expectCurrent(controller)
    }

    /// A request updated in place (keys of the fetched entity only) whose predicate throws for
    /// a changed object: the object keeps its membership, the others move as usual, and the
    /// error is reported after the batch's changes.
    static func evaluationErrorKeepsMembership(_ stack: FetchedResultsStack) throws {
        let a = try stack.movie("A")
        try stack.movie("B")
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: throwsForBadGenre),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == [": A, B"])
        // A member that now throws stays (an update); a new one that throws stays out.
        try a.setValue("(", forKey: "genre")
        try stack.movie("X", genre: "(")
        try stack.movie("C")
        stack.context.processPendingChanges()
        #expect(H.outline(controller) == [": A, B, C"])
        #expect(recorder.lines.first == "will" && recorder.lines.contains("insert ->[0, 2] C"), "\(recorder.lines)")
        #expect(!recorder.lines.contains { $0.hasSuffix(" X") }, "\(recorder.lines)")
        #expect(recorder.lines.last?.hasPrefix("error ") == true, "\(recorder.lines)")
        #expect(recorder.lines.filter { $0.hasPrefix("error ") }.count == 1, "one error per batch: \(recorder.lines)")
        #expect(controller.lastChangeTrackingError is PredicateEvaluationError)
    }
}
