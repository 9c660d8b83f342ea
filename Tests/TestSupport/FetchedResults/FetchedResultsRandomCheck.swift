// The property check: random batches of changes, each applied to a simulated table and as a
// snapshot, must give exactly a fresh fetch's sections.
import Foundation
import ManagedObjects
import Predicates
import Testing

/// A seeded random walk over a controller's context: inserts, deletes, sort-key, section-key and
/// predicate-key changes (and, through relationships, theater renames and moves), a few per
/// batch, ended by `processPendingChanges()` or a save. After each batch the delegate's changes
/// applied to a simulated table, the last snapshot, and the controller's own sections must all
/// equal a fresh fetch.
struct FetchedResultsRandomCheck {
    enum Mode {
        /// Sections by `genre`, ordered by genre, rank (descending), serial; predicate `rating >= 2`.
        case genre
        /// Sections by `theater.city`, ordered by city, theater name, rank, serial; predicate
        /// `rating >= 2`.
        case theater
    }

    let stack: FetchedResultsStack
    let mode: Mode
    let steps: Int
    var random: SeededGenerator

    init(_ stack: FetchedResultsStack, mode: Mode, steps: Int, seed: UInt64) {
        self.stack = stack
        self.mode = mode
        self.steps = steps
        self.random = SeededGenerator(seed: seed)
    }

    private static let genres = ["action", "comedy", "drama", "noir", "western"]
    private static let cities = ["Berlin", "London", "Paris", "Rome"]
    private static let names = ["Astoria", "Gaumont", "Odeon", "Plaza", "Rex", "Roxy"]

    mutating func run() throws {
        let context = stack.context
        var theaters: [ManagedObject] = []
        for name in Self.names.prefix(4) {
            theaters.append(try stack.theater(name, city: Self.cities.randomElement(using: &random)!))
        }
        var movies: [ManagedObject] = []
        for index in 0..<40 { movies.append(try insertMovie(index, theaters: theaters)) }
        try context.save()
        let controller = try FetchedResultsController(fetchRequest: request(), context: context, sectionNameKeyPath: sectionKeyPath)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        var lastSnapshot: FetchedResultsSnapshot?
        controller.didChangeSnapshot = { lastSnapshot = $0 }
        try controller.performFetch()
        var table = TableSimulator(try #require(controller.sections))
        var kinds: [String: Int] = [:]
        defer {
            // Every kind of change came up (the walk is long enough to mean something).
            for kind in ["insert", "delete", "move", "update", "section insert", "section delete"] {
                #expect(kinds[kind, default: 0] > 0, "no \(kind) in \(steps) steps")
            }
        }
        for step in 0..<steps {
            recorder.clear()
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                try change(&movies, theaters: theaters, index: step)
            }
            if step % 9 == 8 { try context.save() } else { context.processPendingChanges() }
            for batch in recorder.batches {
                for change in batch.objectChanges { kinds["\(change.kind)", default: 0] += 1 }
                for change in batch.sectionChanges { kinds["section \(change.kind)", default: 0] += 1 }
                do { try table.apply(batch) } catch {
                    Issue.record("step \(step): \(error); lines \(recorder.lines)")
                    return
                }
            }
            try FetchedResultsHelpers.expectCurrent(controller, table: table)
            if let lastSnapshot {
                let fresh = try #require(controller.snapshot)
                #expect(lastSnapshot.sections == fresh.sections, "step \(step): the last snapshot is not the results")
            }
            if table != TableSimulator(try #require(controller.sections)) {
                Issue.record("step \(step): lines \(recorder.lines)")
                return
            }
        }
    }

    private var sectionKeyPath: String { mode == .genre ? "genre" : "theater.city" }

    private func request() throws -> EntityFetchRequest {
        // Rank descending in the genre walk: both directions are exercised.
        let keys = mode == .genre ? ["genre", "-rank", "serial"] : ["theater.city", "theater.name", "rank", "serial"]
        return EntityFetchRequest(entityName: "Movie", predicate: try KeyValuePredicate(format: "rating >= 2"),
                                  sortDescriptors: keys.map { key in
                                      key.hasPrefix("-") ? KeyValueSortDescriptor(key: String(key.dropFirst()), ascending: false)
                                          : KeyValueSortDescriptor(key: key)
                                  })
    }

    private mutating func insertMovie(_ index: Int, theaters: [ManagedObject]) throws -> ManagedObject {
        try stack.movie("m\(index)", rank: Int.random(in: 0..<30, using: &random),
                        genre: Self.genres.randomElement(using: &random)!, rating: Int.random(in: 0..<6, using: &random),
                        theater: theaters.randomElement(using: &random)!)
    }

    private mutating func change(_ movies: inout [ManagedObject], theaters: [ManagedObject], index: Int) throws {
        let roll = Int.random(in: 0..<(mode == .genre ? 6 : 9), using: &random)
        guard !movies.isEmpty || roll == 0 else { return }
        let movie = movies.isEmpty ? nil : movies[Int.random(in: 0..<movies.count, using: &random)]
        switch (roll, movie) {
        case (0, _):
            movies.append(try insertMovie(1000 + index, theaters: theaters))
        case (1, let movie?) where movies.count > 15:
            stack.context.delete(movie)
            movies.removeAll { $0 === movie }
        case (2, let movie?), (3, let movie?):
            try movie.setValue(Int64(Int.random(in: 0..<30, using: &random)), forKey: "rank")
        case (4, let movie?):
            try movie.setValue(Self.genres.randomElement(using: &random)!, forKey: "genre")
        case (5, let movie?):
            try movie.setValue(Int64(Int.random(in: 0..<6, using: &random)), forKey: "rating")
        case (6, _):
            try theaters.randomElement(using: &random)!.setValue(Self.cities.randomElement(using: &random)!, forKey: "city")
        case (7, _):
            try theaters.randomElement(using: &random)!.setValue(Self.names.randomElement(using: &random)!, forKey: "name")
        case (8, let movie?):
            try movie.setValue(theaters.randomElement(using: &random)!, forKey: "theater")
        default:
            break
        }
    }
}

/// SplitMix64: a small seeded generator, the same sequence on every platform.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
