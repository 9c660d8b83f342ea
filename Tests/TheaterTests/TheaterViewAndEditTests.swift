// The listing redraws only what the controller reports; set reads values by the property's
// type; sort reorders within each theater; history and help.

import Testing
@testable import Theater

@Suite("Theater: listing and editing")
struct TheaterViewAndEditTests {
    private func makeSession(steps: Int = 5) throws -> TheaterSession {
        let session = try TheaterSession()
        _ = session.execute(setUpOdeon)
        for step in scriptedSteps.prefix(steps) { _ = session.execute(step.command) }
        return session
    }

    @Test func listingRedrawsOnlyChangedRows() throws {
        let session = try makeSession()   // Alien, Blade Runner, Inception, The Matrix, The Thing
        #expect(session.listing.renderCount == 5)
        _ = session.execute("set 1 year 1986")
        #expect(session.listing.renderCount == 6)
        _ = session.execute("remove 2")
        #expect(session.listing.renderCount == 6)   // the rows below only moved up
        _ = session.execute("list")
        _ = session.execute("find year > 0")
        _ = session.execute("stats")
        #expect(session.listing.renderCount == 6)   // reading never renders
        // A title that sorts elsewhere: a move, and only that row is drawn.
        #expect(session.execute("set 1 title Zardoz")
                == "-  1  Alien\n+  4  Zardoz                      1986     8.5   117 min")
        #expect(session.listing.renderCount == 7)
        _ = session.execute("undo")
        #expect(session.listing.renderCount == 8)
        #expect(session.listing.movies.first?.title == "Alien")
    }

    @Test func sortOrdersTheMoviesWithinEachTheater() throws {
        let session = try makeSession()
        _ = session.execute("theater add Rex Paris")
        _ = session.execute("move 4 Rex")   // The Matrix
        let output = session.execute("sort year desc")
        #expect(output == "movies sorted by year desc in each theater\n" + listingText([
            (odeon, [inception, bladeRunner, thing, alien]), (rex, [matrix]),   // equal years: by title
        ]))
        #expect(session.sortKeys == [.init(key: "year", ascending: false)])
        // Later changes are placed in the new order: Alien to 1990 moves above The Thing.
        #expect(session.execute("set 4 year 1990") == "-  4  Alien\n+  2  Alien                       1990     8.5   117 min")
        #expect(!session.execute("history").contains("Sort"))   // a view setting, not undoable
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
        let movie = try #require(session.listing.movies.first)
        let value = try movie.value(forKey: key)
        #expect(value.map { "\($0)" } == expected)
        #expect(session.history.undoActionName == "Set \(key) of \"The Matrix\"")
        _ = session.execute("undo")
        #expect(session.listing.text == listingText([(odeon, [matrix])]))
    }

    @Test func historyListsUndoAndRedoStepsByName() throws {
        let session = try makeSession(steps: 3)
        _ = session.execute("undo")
        #expect(session.execute("history") == """
            undo (next first):
              Add "Alien"
              Add "The Matrix"
              Add Theater "Odeon"
            redo (next first):
              Add "The Thing"
            """)
        #expect(session.history.undoActionName == #"Add "Alien""#)
        #expect(session.history.redoActionName == #"Add "The Thing""#)
        _ = session.execute("set 1 year 2000")
        #expect(session.execute("history").hasSuffix("redo (next first):\n  (none)"))
        #expect(try TheaterSession().execute("history") == "undo (next first):\n  (none)\nredo (next first):\n  (none)")
    }

    @Test func theatersCascadeAndAddGoesToTheCurrentTheater() throws {
        let session = try makeSession(steps: 2)   // Odeon: Alien, The Matrix
        #expect(session.execute("theater add Rex Paris") == "added theater Rex (Paris); 'add' adds to it")
        #expect(session.execute("add Heat 1995 8.3 170") == "+ \(rex)\n+  3  Heat                        1995     8.3   170 min")
        #expect(session.execute("use Odeon") == "adding to Odeon (London)")
        #expect(session.execute("add Up 2009 8.3 96").hasPrefix("+  3  Up"))
        // Deleting a theater deletes its movies (the model's cascade rule): one undo step.
        let output = session.execute("theater remove Odeon")
        #expect(output == "removed theater Odeon with 3 movies\n- \(odeon)\n-  1  Alien\n-  2  The Matrix\n-  3  Up")
        #expect(session.listing.movies.map(\.title) == ["Heat"])
        #expect(session.execute("add Brazil 1985 7.9 132") == "+  1  Brazil                      1985     7.9   132 min")
        _ = session.execute("undo")
        #expect(session.execute("undo").hasPrefix(#"undid Remove Theater "Odeon""#))
        #expect(session.listing.movies.map(\.title) == ["Alien", "The Matrix", "Up", "Heat"])
    }

    @Test func helpListsEveryCommandAndStatsHandleAnEmptyStore() throws {
        let session = try TheaterSession()
        let help = session.execute("help")
        for entry in TheaterCommand.usage { #expect(help.contains(entry.usage)) }
        #expect(session.execute("stats") == "movies:         0")
        #expect(session.execute("find year > 2000") == "0 of 0 movies match year > 2000")
        #expect(session.execute("") == "")
        #expect(session.execute("quit") == "bye" && session.isFinished)
    }
}
