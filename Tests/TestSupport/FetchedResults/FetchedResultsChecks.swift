// Targeted checks of the fetched results controller: each callback case of Apple's rules.
import Foundation
import ManagedObjects
import Predicates
import Testing

/// The targeted checks (see ``FetchedResultsScenario``).
package enum FetchedResultsChecks {
    typealias H = FetchedResultsHelpers

    /// The issue's walk-through: theaters as sections, movies as rows; rows added and deleted,
    /// a rename that moves, one that does not, a movie moved to another theater, a theater
    /// deleted so its section disappears; exact delegate calls and a simulated table.
    static func workedExample(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("Odeon", city: "London")
        let rex = try stack.theater("Rex", city: "Paris")
        let alien = try stack.movie("Alien", theater: odeon)
        let brazil = try stack.movie("Brazil", theater: odeon)
        try stack.movie("Casablanca", theater: rex)
        let heat = try stack.movie("Heat", theater: rex)
        try stack.context.save()
        let controller = try FetchedResultsController(fetchRequest: H.moviesByTheater(), context: stack.context,
                                                      sectionNameKeyPath: "theater.name")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == ["Odeon: Alien, Brazil", "Rex: Casablanca, Heat"])
        var table = TableSimulator(try #require(controller.sections))

        func step(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
            recorder.clear()
            try body()
            stack.context.processPendingChanges()
            #expect(recorder.lines == expected, sourceLocation: sourceLocation)
            for batch in recorder.batches { try table.apply(batch) }
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
        }

        let amelie = try stack.movie("Amelie", theater: odeon)
        try step(["will", "insert ->[0, 1] Amelie", "insert ->[1, 2] Up", "did"]) {
            try stack.movie("Up", theater: rex)
        }
        try step(["will", "delete [0, 2] Brazil", "did"]) { stack.context.delete(brazil) }
        try step(["will", "move [0, 0]->[0, 1] Zulu", "did"]) { try alien.setValue("Zulu", forKey: "title") }
        try step(["will", "update [0, 0]->[0, 0] Amy", "did"]) { try amelie.setValue("Amy", forKey: "title") }
        try step(["will", "move [1, 1]->[0, 1] Heat", "did"]) { try heat.setValue(odeon, forKey: "theater") }
        #expect(H.outline(controller) == ["Odeon: Amy, Heat, Zulu", "Rex: Casablanca, Up"])
        try step(["will", "section delete 1 Rex", "delete [1, 0] Casablanca", "delete [1, 1] Up", "did"]) {
            stack.context.delete(rex)
        }
        #expect(H.outline(controller) == ["Odeon: Amy, Heat, Zulu"])
        // A save after the changes were processed reports nothing more.
        recorder.clear()
        try stack.context.save()
        #expect(recorder.lines.isEmpty)
    }

    /// Sections, their names, counts, objects and index titles; index paths both ways.
    static func sectionsAndTitles(_ stack: FetchedResultsStack) throws {
        let odeon = try stack.theater("odeon", city: "London")
        let rex = try stack.theater("Rex", city: "Paris")
        let roxy = try stack.theater("Roxy", city: "Paris")
        try stack.movie("Alien", theater: odeon)
        try stack.movie("Brazil", theater: rex)
        try stack.movie("Cars", theater: rex)
        try stack.movie("Dune", theater: roxy)
        try stack.context.save()
        let controller = try FetchedResultsController(fetchRequest: H.moviesByTheater(), context: stack.context,
                                                      sectionNameKeyPath: "theater.name")
        #expect(controller.sections == nil)
        #expect(controller.fetchedObjects == nil)
        try controller.performFetch()
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["Rex", "Roxy", "odeon"])
        #expect(sections.map(\.numberOfObjects) == [2, 1, 1])
        // The default title: the capitalised first letter.
        #expect(sections.map(\.indexTitle) == ["R", "R", "O"])
        #expect(controller.sectionIndexTitles == ["R", "O"])
        #expect(try controller.section(forSectionIndexTitle: "O", at: 1) == 2)
        #expect(try controller.section(forSectionIndexTitle: "R", at: 0) == 0)
        #expect(controller.sectionIndexTitle(forSectionName: "") == nil)
        let cars = try controller.object(at: FetchedResultsIndexPath(row: 1, section: 0))
        #expect(try cars.value(forKey: "title") as? String == "Cars")
        #expect(controller.indexPath(forObject: cars) == FetchedResultsIndexPath(row: 1, section: 0))
        #expect(controller.indexPath(forObject: rex) == nil)
        // A delegate decides the titles.
        let recorder = FetchedResultsRecorder()
        recorder.titles = ["Roxy": "X"]
        controller.delegate = recorder
        #expect(controller.sectionIndexTitles == ["R", "X", "O"])
        #expect(try controller.section(forSectionIndexTitle: "X", at: 1) == 1)
        // No section key path: one section named "", also when empty.
        let plain = try FetchedResultsController(fetchRequest: EntityFetchRequest(
            entityName: "Movie", predicate: KeyValuePredicate(format: "title == 'none'"),
            sortDescriptors: [KeyValueSortDescriptor(key: "title")]), context: stack.context)
        try plain.performFetch()
        #expect(plain.sections?.map(\.name) == [""])
        #expect(plain.sections?.first?.numberOfObjects == 0)
        #expect(plain.fetchedObjects?.isEmpty == true)
    }

    /// A sort key change moves the object; when its place does not change, it is an update.
    static func sortKeyChange(_ stack: FetchedResultsStack) throws {
        var movies: [ManagedObject] = []
        for (index, title) in ["A", "B", "C", "D"].enumerated() { movies.append(try stack.movie(title, rank: index * 10)) }
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [KeyValueSortDescriptor(key: "rank")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        func step(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
            recorder.clear()
            try body()
            stack.context.processPendingChanges()
            #expect(recorder.lines == expected, sourceLocation: sourceLocation)
            for batch in recorder.batches { try table.apply(batch) }
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
        }
        try step(["will", "move [0, 0]->[0, 3] A", "did"]) { try movies[0].setValue(Int64(99), forKey: "rank") }
        try step(["will", "update [0, 1]->[0, 1] C", "did"]) { try movies[2].setValue(Int64(21), forKey: "rank") }
        // Two objects swapping places: one stays (update), the other moves across it.
        try step(["will", "move [0, 1]->[0, 0] C", "update [0, 0]->[0, 1] B", "did"]) {
            try movies[1].setValue(Int64(25), forKey: "rank")
            try movies[2].setValue(Int64(5), forKey: "rank")
        }
        // A change to a key the order does not use: an update in place.
        try step(["will", "update [0, 2]->[0, 2] D", "did"]) { try movies[3].setValue("drama2", forKey: "genre") }
        // Changes in the same batch as a delete before the object.
        try step(["will", "delete [0, 0] C", "update [0, 3]->[0, 2] A", "did"]) {
            stack.context.delete(movies[2])
            try movies[0].setValue(Int64(98), forKey: "rank")
        }
    }

    /// A section key change moves the object between sections, creating and removing sections.
    static func sectionKeyChange(_ stack: FetchedResultsStack) throws {
        let a = try stack.movie("A", genre: "comedy")
        let b = try stack.movie("B", genre: "drama")
        try stack.movie("C", genre: "drama")
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", sortDescriptors: [
            KeyValueSortDescriptor(key: "genre"), KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context, sectionNameKeyPath: "genre")
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        func step(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
            recorder.clear()
            try body()
            stack.context.processPendingChanges()
            #expect(recorder.lines == expected, sourceLocation: sourceLocation)
            for batch in recorder.batches { try table.apply(batch) }
            try H.expectCurrent(controller, table: table, sourceLocation: sourceLocation)
        }
        // A leaves its one-row section for drama: the section goes.
        try step(["will", "section delete 0 comedy", "move [0, 0]->[0, 0] A", "did"]) { try a.setValue("drama", forKey: "genre") }
        #expect(controller.sections?.map(\.name) == ["drama"])
        // B opens a new section after drama.
        try step(["will", "section insert 1 western", "move [0, 1]->[1, 0] B", "did"]) { try b.setValue("western", forKey: "genre") }
        // A opens a section before drama while B's section goes: both in one batch.
        try step(["will", "section delete 1 western", "section insert 0 action", "move [0, 0]->[0, 0] A",
                  "move [1, 0]->[1, 0] B", "did"]) {
            try a.setValue("action", forKey: "genre")
            try b.setValue("drama", forKey: "genre")
        }
        #expect(H.outline(controller) == ["action: A", "drama: B, C"])
    }

    /// Starting or stopping to match the predicate is an insert or a delete.
    static func predicateChange(_ stack: FetchedResultsStack) throws {
        let a = try stack.movie("A", rating: 5)
        let b = try stack.movie("B", rating: 1)
        try stack.context.save()
        let request = EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "rating >= 3"),
                                         sortDescriptors: [KeyValueSortDescriptor(key: "title")])
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.context)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(H.outline(controller) == [": A"])
        try b.setValue(Int64(4), forKey: "rating")
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "insert ->[0, 1] B", "did"])
        recorder.clear()
        try a.setValue(Int64(0), forKey: "rating")
        stack.context.processPendingChanges()
        #expect(recorder.lines == ["will", "delete [0, 0] A", "did"])
        recorder.clear()
        // A new object that does not match, and a change of one that stays out: nothing.
        try stack.movie("C", rating: 0)
        try a.setValue("A2", forKey: "title")
        stack.context.processPendingChanges()
        #expect(recorder.lines.isEmpty)
        try H.expectCurrent(controller)
    }
}
