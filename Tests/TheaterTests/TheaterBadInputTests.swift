// Bad input prints a message naming the problem and changes nothing, not even the undo history.

import Testing
@testable import Theater

/// A session with the theater Odeon, three movies (Alien, The Matrix, The Thing by title) and
/// one undone step (Inception), so both stacks hold something.
func makeThreeMovieSession() throws -> TheaterSession {
    let session = try TheaterSession()
    _ = session.execute(setUpOdeon)
    for step in scriptedSteps.prefix(4) { _ = session.execute(step.command) }
    _ = session.execute("undo")
    return session
}

@Suite("Theater: bad input")
struct TheaterBadInputTests {
    @Test(arguments: [
        ("bogus 1 2", "unknown command 'bogus'"),
        ("remove 9", "no movie at index 9 (choose 1 to 3)"),
        ("remove 0", "no movie at index 0"),
        ("remove -1", "no movie at index -1"),
        ("move 4 Odeon", "no movie at index 4"),
        ("move 1 Gaumont", "no theater named 'Gaumont' (theaters: Odeon)"),
        ("add Heat 1995 8.3 170 Gaumont", "no theater named 'Gaumont'"),
        ("use Gaumont", "no theater named 'Gaumont'"),
        ("theater remove Gaumont", "no theater named 'Gaumont'"),
        ("theater add Odeon Paris", "there is already a theater named 'Odeon'"),
        ("theater add '' Paris", "a theater's name and city must not be empty"),
        ("theater rename Odeon", "wrong arguments for 'theater'"),
        ("set 7 year 2000", "no movie at index 7"),
        ("set 1 colour red", "movies have no key 'colour'"),
        ("set 1 theater Rex", "movies have no key 'theater'"),
        ("set 1 year 1999.5", "cannot set year to '1999.5': year takes a whole number"),
        ("set 1 year soon", "cannot set year to 'soon'"),
        ("set 1 year 9223372036854775808",
         "cannot set year to '9223372036854775808': out of range; year takes a whole number "
            + "from -9223372036854775808 to 9223372036854775807"),
        ("set 1 minutes -99999999999999999999", "out of range; minutes takes a whole number from 1 to 100000"),
        ("set 1 minutes -5", "cannot set minutes to '-5': out of range; minutes takes a whole number from 1 to 100000"),
        ("set 1 rating 1e400", "cannot set rating to '1e400': out of range; rating takes a number from 0 to 10"),
        ("add Heat 99999999999999999999 8.3 170",
         "YEAR is out of range: '99999999999999999999' (whole numbers from -9223372036854775808 "
            + "to 9223372036854775807)"),
        ("add Heat 1995 8.3 -170", "MINUTES is out of range: '-170' (whole numbers from 1 to 100000)"),
        ("add Heat 1995 1e999 170", "RATING is out of range: '1e999' (numbers from 0 to 10)"),
        ("set 1 rating high", "cannot set rating to 'high': rating takes a number"),
        ("set 1 rating inf", "cannot set rating to 'inf'"),
        ("find year >", "bad predicate: at position"),
        ("find year > 1990 AND", "bad predicate"),
        ("find title BEGINSWITH 'unterminated", "bad predicate"),
        ("find colour == 'red'", "cannot evaluate the predicate:"),
        ("sort colour", "movies have no key 'colour'"),
        ("sort year desc colour", "movies have no key 'colour'"),
        ("add Heat 1995 great 170", "RATING must be a number, not 'great'"),
        (#"add "Heat 1995 8.3 170"#, "missing closing quote"),
        ("add Heat 1995 8.3", "wrong arguments for 'add'; usage: add TITLE YEAR RATING MINUTES [THEATER]"),
        ("undo now", "wrong arguments for 'undo'"),
        ("save now", "wrong arguments for 'save'"),
    ])
    func badInputChangesNothing(line: String, message: String) throws {
        let session = try makeThreeMovieSession()
        let listing = session.listing.text
        let renders = session.listing.renderCount
        let history = session.execute("history")
        let counts = (session.history.undoCount, session.history.redoCount)
        let names = (session.history.undoActionName, session.history.redoActionName)
        let changes = (session.context.insertedObjects.count, session.context.updatedObjects.count)

        let output = session.execute(line)
        #expect(output.hasPrefix("error: "), "output: \(output)")
        #expect(output.contains(message), "output: \(output)")
        #expect(!output.contains("\n"))

        #expect(session.listing.text == listing)
        #expect(session.listing.renderCount == renders)
        #expect(session.execute("history") == history)
        #expect(session.history.undoCount == counts.0 && session.history.redoCount == counts.1)
        #expect(session.history.undoActionName == names.0 && session.history.redoActionName == names.1)
        #expect(session.context.insertedObjects.count == changes.0 && session.context.updatedObjects.count == changes.1)
        #expect(session.listing.movies.map(\.title) == ["Alien", "The Matrix", "The Thing"])
        #expect(session.listing.movies.map(\.year) == [1979, 1999, 1982])
        #expect(try session.theaters().map(\.name) == ["Odeon"])
        // The redo stack survived: redo still brings back Inception.
        #expect(session.execute("redo") == #"redid Add "Inception""# + "\n+  2 " + inception)
    }

    @Test func emptyStoreReportsIndexesKeysAndTheaters() throws {
        let session = try TheaterSession()
        #expect(session.execute("remove 1") == "error: no movie at index 1 (there are no movies)")
        #expect(session.execute("add Heat 1995 8.3 170")
                == "error: there are no theaters; add one first with 'theater add NAME CITY'")
        #expect(session.execute("use Odeon") == "error: no theater named 'Odeon' (there are no theaters)")
        #expect(session.execute("sort colour").hasPrefix("error: movies have no key 'colour'"))
        #expect(session.execute("find colour > 1").hasPrefix("error: cannot evaluate the predicate:"))
        #expect(!session.history.canUndo && !session.context.hasChanges)
    }

    @Test func commandsThatChangeNothingRecordNothing() throws {
        let session = try makeThreeMovieSession()
        let counts = (session.history.undoCount, session.history.redoCount)
        #expect(session.execute("move 2 Odeon") == #""The Matrix" is already at Odeon"#)
        #expect(session.execute("find TRUEPREDICATE").hasSuffix("3 of 3 movies match TRUEPREDICATE"))
        _ = session.execute("stats")
        _ = session.execute("list")
        _ = session.execute("help")
        _ = session.execute("history")
        _ = session.execute("sort year")   // a view setting, not a change
        #expect(session.history.undoCount == counts.0 && session.history.redoCount == counts.1)
        #expect(session.history.redoActionName == #"Add "Inception""#)
    }
}
