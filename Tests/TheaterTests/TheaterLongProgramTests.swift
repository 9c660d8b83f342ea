// A long program: each command redraws only the rows the fetched results controller reports.

import Foundation
import Testing
@testable import Theater

@Suite("Theater: long programs")
struct TheaterLongProgramTests {
    private static let count = 300

    private func longSession() throws -> TheaterSession {
        let session = try TheaterSession()
        _ = session.execute(setUpOdeon)
        for index in 0..<Self.count {
            // Zero-padded titles: title order is insertion order.
            let title = "Movie " + String(repeating: "0", count: 3 - String(index).count) + String(index)
            _ = session.execute("add \"\(title)\" \(1950 + index % 70) 7.5 \(90 + index % 60)")
        }
        return session
    }

    @Test func eachCommandRendersOnlyItsRows() throws {
        let session = try longSession()
        // One render per add: no add redrew the rows already shown.
        #expect(session.listing.renderCount == Self.count)
        #expect(session.history.undoCount == Self.count + 1)
        let added = session.execute(#"add "Zulu" 2024 8.0 100"#)
        #expect(added == "+ \(Self.count + 1)  Zulu                        2024     8.0   100 min")
        #expect(session.listing.renderCount == Self.count + 1)
        _ = session.execute("set 200 year 1999")
        #expect(session.listing.renderCount == Self.count + 2)
        #expect(session.execute("remove 10") == "- 10  Movie 009")
        #expect(session.listing.renderCount == Self.count + 2)   // the rows below only moved up
        _ = session.execute("theater add Rex Paris")
        #expect(session.execute("move 1 Rex").hasSuffix("+ \(Self.count)  Movie 000                   1950     7.5    90 min"))
        #expect(session.listing.renderCount == Self.count + 3)   // the moved row only
        for _ in 0..<5 { _ = session.execute("undo") }
        #expect(session.listing.movies.count == Self.count)
        #expect(session.listing.movies[199].year == Int64(1950 + 199 % 70))
        #expect(session.listing.rowCount == Self.count)
        #expect(try session.theaters().map(\.name) == ["Odeon"])
    }
}
