// A long program: each command touches only the rows and records it changes, and `add` goes
// through the model's indexed accessor with the same notification as the array proxy.

import Foundation
import KeyValueObserving
import Synchronization
import Testing
@testable import Theater

@Suite("Theater: long programs")
struct TheaterLongProgramTests {
    private static let count = 400

    private func longSession() throws -> TheaterSession {
        let session = try TheaterSession()
        for index in 0..<Self.count {
            _ = session.execute("add \"Movie \(index)\" \(1950 + index % 70) 7.5 \(90 + index % 60)")
        }
        return session
    }

    @Test func eachCommandRendersOnlyItsRows() throws {
        let session = try longSession()
        // One render per add: no add redrew the rows already shown.
        #expect(session.listing.renderCount == Self.count)
        #expect(session.history.undoCount == Self.count)
        #expect(session.recorder.recordedObjectCount == Self.count + 1)   // the movies and the theater
        let added = session.execute(#"add "Last" 2024 8.0 100"#)
        #expect(added == "+ \(Self.count + 1)  Last                        2024     8.0   100 min")
        #expect(session.listing.renderCount == Self.count + 1)
        _ = session.execute("set 200 year 1999")
        #expect(session.listing.renderCount == Self.count + 2)
        _ = session.execute("remove 10")
        _ = session.execute("move 1 300")
        #expect(session.listing.renderCount == Self.count + 3)   // the moved row only
        for _ in 0..<4 { _ = session.execute("undo") }
        #expect(session.theater.movies.count == Self.count)
        #expect(session.theater.movies[199].year == 1950 + 199 % 70)
        #expect(session.theater.movies.map(\.title) == (0..<Self.count).map { "Movie \($0)" })
        #expect(session.listing.rows.count == Self.count)
    }

    @Test func appendMovieSendsOneInsertionAtTheEnd() throws {
        let theater = HomeTheater()
        let first = Movie(title: "A", year: 1, rating: 1, minutes: 1)
        theater.appendMovie(first)
        let changes = Mutex<[KeyValueChange]>([])
        let observation = try theater.observe("movies", options: [.old, .new]) { _, change in
            changes.withLock { $0.append(change) }
        }
        let second = Movie(title: "B", year: 2, rating: 2, minutes: 2)
        theater.appendMovie(second)
        observation.invalidate()
        let seen = changes.withLock { $0 }
        #expect(seen.count == 1)
        let change = try #require(seen.first)
        #expect(change.kind == .insertion)
        #expect(change.indexes == IndexSet(integer: 1))
        let inserted = try #require(change.newValue as? [Any])
        #expect(inserted.count == 1 && inserted.first as? Movie === second)
        #expect(theater.movies.count == 2 && theater.movies[0] === first && theater.movies[1] === second)
    }
}
