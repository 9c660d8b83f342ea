// A scripted session: five movies added, edited, removed, moved, found, sorted, counted; then
// everything undone step by step back to an empty theater and redone, checking the listing after
// every step.

import Testing
@testable import Theater

/// The rows of the listing, as printed by `list`.
let matrix = " The Matrix                  1999     8.7   136 min"
let alien = " Alien                       1979     8.5   117 min"
let alien86 = " Alien                       1986     8.5   117 min"
let thing = " The Thing                   1982     8.2   109 min"
let thing84 = " The Thing                   1982     8.4   109 min"
let inception = " Inception                   2010     8.8   148 min"
let bladeRunner = " Blade Runner                1982     8.1   117 min"

/// The listing text for `rows` (without their numbers).
func listingText(_ rows: [String]) -> String {
    guard !rows.isEmpty else { return "(no movies)" }
    let header = " #  title                       year  rating  minutes"
    return ([header] + rows.enumerated().map { " \($0.offset + 1) \($0.element)" }).joined(separator: "\n")
}

/// The script: each changing command, the undo action name, what it prints, and the listing after.
let scriptedSteps: [(command: String, name: String, output: String, rows: [String])] = [
    (#"add "The Matrix" 1999 8.7 136"#, #"Add "The Matrix""#, "+  1 " + matrix, [matrix]),
    ("add Alien 1979 8.5 117", #"Add "Alien""#, "+  2 " + alien, [matrix, alien]),
    ("add 'The Thing' 1982 8.2 109", #"Add "The Thing""#, "+  3 " + thing, [matrix, alien, thing]),
    ("add Inception 2010 8.8 148", #"Add "Inception""#, "+  4 " + inception,
     [matrix, alien, thing, inception]),
    (#"add "Blade Runner" 1982 8.1 117"#, #"Add "Blade Runner""#, "+  5 " + bladeRunner,
     [matrix, alien, thing, inception, bladeRunner]),
    ("set 2 year 1986", #"Set year of "Alien""#, "~  2 " + alien86,
     [matrix, alien86, thing, inception, bladeRunner]),
    ("set 3 rating 8.4", #"Set rating of "The Thing""#, "~  3 " + thing84,
     [matrix, alien86, thing84, inception, bladeRunner]),
    ("remove 4", #"Remove "Inception""#, "-  4  Inception", [matrix, alien86, thing84, bladeRunner]),
    ("move 1 3", #"Move "The Matrix""#, "-  1  The Matrix\n+  3 " + matrix,
     [alien86, thing84, matrix, bladeRunner]),
    ("sort year desc", "Sort by year desc", ["~  1 " + matrix, "~  2 " + alien86, "~  3 " + thing84].joined(separator: "\n"),
     [matrix, alien86, thing84, bladeRunner]),
]

@Suite("Theater: scripted session")
struct TheaterScriptedSessionTests {
    @Test func fullSessionUndoesToEmptyAndRedoesEverything() throws {
        let session = try TheaterSession()
        #expect(session.execute("list") == "(no movies)")

        // Forward: every changing command prints the rows it redrew and is one named undo step.
        for (number, step) in scriptedSteps.enumerated() {
            #expect(session.execute(step.command) == step.output, "output of \(step.command)")
            #expect(session.execute("list") == listingText(step.rows), "listing after \(step.command)")
            #expect(session.history.undoCount == number + 1)
            #expect(session.history.undoActionName == step.name)
            try expectListingMatchesModel(session)
        }

        // Reading commands in between change nothing.
        let found = session.execute("find year < 1990 AND title CONTAINS[c] 'e'")
        #expect(found == [
            " #  title                       year  rating  minutes",
            " 2 " + alien86, " 3 " + thing84, " 4 " + bladeRunner,
            #"3 of 4 movies match year < 1990 AND title CONTAINS[c] "e""#,
        ].joined(separator: "\n"))
        #expect(session.execute("stats") == """
            movies:         4
            average rating: 8.43
            latest year:    1999
            total minutes:  479 (7 h 59 min)
            """)
        #expect(session.history.undoCount == scriptedSteps.count && !session.history.canRedo)

        // Back, step by step, to an empty theater.
        for index in stride(from: scriptedSteps.count - 1, through: 0, by: -1) {
            let output = session.execute("undo")
            #expect(output.hasPrefix("undid " + scriptedSteps[index].name))
            let rows = index == 0 ? [] : scriptedSteps[index - 1].rows
            #expect(session.execute("list") == listingText(rows), "after undoing \(scriptedSteps[index].command)")
            try expectListingMatchesModel(session)
        }
        #expect(session.theater.movies.isEmpty && !session.history.canUndo)
        #expect(session.execute("undo") == "nothing to undo")

        // And forward again: redo restores every state exactly.
        for step in scriptedSteps {
            #expect(session.execute("redo").hasPrefix("redid " + step.name))
            #expect(session.execute("list") == listingText(step.rows), "after redoing \(step.command)")
            try expectListingMatchesModel(session)
        }
        #expect(session.execute("redo") == "nothing to redo")
        #expect(session.history.undoCount == scriptedSteps.count)
    }

    @Test func undoAndRedoPrintOnlyTheRedrawnRows() throws {
        let session = try TheaterSession()
        for step in scriptedSteps.prefix(9) { _ = session.execute(step.command) }
        #expect(session.execute("undo") == #"undid Move "The Matrix""# + "\n-  3  The Matrix\n+  1 " + matrix)
        #expect(session.execute("undo") == #"undid Remove "Inception""# + "\n+  4 " + inception)
        #expect(session.execute("redo") == #"redid Remove "Inception""# + "\n-  4  Inception")
    }

    @Test func redoKeepsTheSameMovieObjects() throws {
        let session = try TheaterSession()
        for step in scriptedSteps { _ = session.execute(step.command) }
        let movies = session.theater.movies
        while session.history.canUndo { _ = session.execute("undo") }
        while session.history.canRedo { _ = session.execute("redo") }
        #expect(session.theater.movies.count == movies.count)
        for (restored, original) in zip(session.theater.movies, movies) { #expect(restored === original) }
    }

    @Test func transcriptEchoesCommandsAndStopsAtQuit() throws {
        let session = try TheaterSession()
        let transcript = session.transcript(of: """
            add Alien 1979 8.5 117

            # a comment
            quit
            add Heat 1995 8.3 170
            """)
        #expect(transcript == "> add Alien 1979 8.5 117\n+  1 " + alien + "\n> # a comment\n> quit\nbye")
        #expect(session.isFinished && session.theater.movies.count == 1)
    }

    /// The incrementally updated listing equals one rendered afresh from the model.
    private func expectListingMatchesModel(_ session: TheaterSession) throws {
        let fresh = try TheaterListing(theater: session.theater)
        #expect(session.listing.text == fresh.text)
    }
}
