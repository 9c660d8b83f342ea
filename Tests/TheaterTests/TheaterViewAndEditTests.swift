// The listing redraws only what changed; set converts values by the property's type; history
// and help.

import Testing
@testable import Theater

@Suite("Theater: listing and editing")
struct TheaterViewAndEditTests {
    private func makeSession(steps: Int = 5) throws -> TheaterSession {
        let session = try TheaterSession()
        for step in scriptedSteps.prefix(steps) { _ = session.execute(step.command) }
        return session
    }

    @Test func listingRedrawsOnlyChangedRows() throws {
        let session = try makeSession()
        #expect(session.listing.renderCount == 5)
        _ = session.execute("set 2 year 1986")
        #expect(session.listing.renderCount == 6)
        _ = session.execute("remove 1")
        #expect(session.listing.renderCount == 6)   // the rows below only moved up
        _ = session.execute("list")
        _ = session.execute("find year > 0")
        _ = session.execute("stats")
        #expect(session.listing.renderCount == 6)   // reading never renders
        // Alien 1986, The Thing 1982, Inception 2010, Blade Runner 1982 -> Inception first:
        // positions 1, 2 and 3 get another movie; Blade Runner stays at 4 and is not redrawn.
        let output = session.execute("sort year desc")
        #expect(output == ["~  1 " + inception, "~  2 " + alien86, "~  3 " + thing].joined(separator: "\n"))
        #expect(session.listing.renderCount == 9)
        _ = session.execute("undo")
        #expect(session.listing.renderCount == 12)
    }

    @Test func changesMadeOutsideCommandsAreRedrawnAndRecordedToo() throws {
        let session = try makeSession(steps: 2)
        let alienMovie = try #require(session.theater.movies.last)
        #expect(session.recorder.recordedKeys(of: alienMovie) == Set(Movie.attributeKeys))
        alienMovie.minutes = 137
        #expect(session.listing.takeRedraws() == ["~  2  Alien                       1979     8.5   137 min"])
        #expect(session.history.isEventGroupOpen)   // the recorder registered the inverse
        try session.history.undo()
        #expect(alienMovie.minutes == 117)
    }

    @Test(arguments: [
        ("set 1 year 2001", "year", "2001"),
        ("set 1 rating 9", "rating", "9.0"),
        ("set 1 rating 7.25", "rating", "7.25"),
        ("set 1 minutes 140", "minutes", "140"),
        (#"set 1 title "The Matrix Reloaded""#, "title", "The Matrix Reloaded"),
        ("set 1 title 2046", "title", "2046"),
    ])
    func setConvertsByThePropertysType(line: String, key: String, expected: String) throws {
        let session = try makeSession(steps: 1)
        let output = session.execute(line)
        #expect(output.hasPrefix("~  1 "), "output: \(output)")
        let movie = try #require(session.theater.movies.first)
        let value = try movie.value(forKey: key)
        #expect(value.map { "\($0)" } == expected)
        #expect(session.history.undoActionName == "Set \(key) of \"The Matrix\"")
        _ = session.execute("undo")
        #expect(session.listing.text == listingText([matrix]))
    }

    @Test func historyListsUndoAndRedoStepsByName() throws {
        let session = try makeSession(steps: 3)
        _ = session.execute("undo")
        #expect(session.execute("history") == """
            undo (next first):
              Add "Alien"
              Add "The Matrix"
            redo (next first):
              Add "The Thing"
            """)
        #expect(session.history.undoActionName == #"Add "Alien""#)
        #expect(session.history.redoActionName == #"Add "The Thing""#)
        _ = session.execute("set 1 year 2000")
        #expect(session.execute("history").hasSuffix("redo (next first):\n  (none)"))
        #expect(try TheaterSession().execute("history") == "undo (next first):\n  (none)\nredo (next first):\n  (none)")
    }

    @Test func helpListsEveryCommandAndStatsHandleAnEmptyTheater() throws {
        let session = try TheaterSession()
        let help = session.execute("help")
        for entry in TheaterCommand.usage { #expect(help.contains(entry.usage)) }
        #expect(session.execute("stats") == "movies:         0")
        #expect(session.execute("find year > 2000") == "0 of 0 movies match year > 2000")
        #expect(session.execute("") == "")
        #expect(session.execute("quit") == "bye" && session.isFinished)
    }
}
