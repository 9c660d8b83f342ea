// A scripted session: a theater, five movies added, edited, removed, moved to a second theater,
// found, counted; then everything undone step by step back to an empty store and redone,
// checking the listing after every step. The rows are placed by the fetched results
// controller: theaters (sections) by name, movies by title within a theater.

import Testing
@testable import Theater

/// The rows of the listing, as printed by `list` (without their numbers).
let matrix = " The Matrix                  1999     8.7   136 min"
let alien = " Alien                       1979     8.5   117 min"
let alien86 = " Alien                       1986     8.5   117 min"
let thing = " The Thing                   1982     8.2   109 min"
let thing84 = " The Thing                   1982     8.4   109 min"
let inception = " Inception                   2010     8.8   148 min"
let bladeRunner = " Blade Runner                1982     8.1   117 min"

/// The section headers.
let odeon = "[Odeon (London)]"
let rex = "[Rex (Paris)]"

/// The listing text for `sections` (each a header and its rows, numbered through the listing).
func listingText(_ sections: [(String, [String])]) -> String {
    let rows = sections.flatMap(\.1)
    guard !rows.isEmpty else { return "(no movies)" }
    var lines = [" #  title                       year  rating  minutes"]
    var number = 0
    for (header, rows) in sections where !rows.isEmpty {
        lines.append(header)
        for row in rows {
            number += 1
            lines.append((number < 10 ? " " : "") + "\(number) " + row)
        }
    }
    return lines.joined(separator: "\n")
}

/// The commands that set up the first theater; `add` adds to it.
let setUpOdeon = "theater add Odeon London"

/// The script after `setUpOdeon`: each changing command, its undo action name, what it prints,
/// and the listing after it.
let scriptedSteps: [(command: String, name: String, output: String, sections: [(String, [String])])] = [
    (#"add "The Matrix" 1999 8.7 136"#, #"Add "The Matrix""#, "+ \(odeon)\n+  1 " + matrix, [(odeon, [matrix])]),
    // Alien sorts before The Matrix: inserted at row 1.
    ("add Alien 1979 8.5 117", #"Add "Alien""#, "+  1 " + alien, [(odeon, [alien, matrix])]),
    ("add 'The Thing' 1982 8.2 109", #"Add "The Thing""#, "+  3 " + thing, [(odeon, [alien, matrix, thing])]),
    ("add Inception 2010 8.8 148", #"Add "Inception""#, "+  2 " + inception,
     [(odeon, [alien, inception, matrix, thing])]),
    (#"add "Blade Runner" 1982 8.1 117"#, #"Add "Blade Runner""#, "+  2 " + bladeRunner,
     [(odeon, [alien, bladeRunner, inception, matrix, thing])]),
    ("set 1 year 1986", #"Set year of "Alien""#, "~  1 " + alien86,
     [(odeon, [alien86, bladeRunner, inception, matrix, thing])]),
    ("set 5 rating 8.4", #"Set rating of "The Thing""#, "~  5 " + thing84,
     [(odeon, [alien86, bladeRunner, inception, matrix, thing84])]),
    ("remove 3", #"Remove "Inception""#, "-  3  Inception", [(odeon, [alien86, bladeRunner, matrix, thing84])]),
    // A theater with no movies is no section yet: nothing to redraw.
    ("theater add Rex Paris", #"Add Theater "Rex""#, "added theater Rex (Paris); 'add' adds to it",
     [(odeon, [alien86, bladeRunner, matrix, thing84])]),
    // The section key changes: a move out of Odeon (numbered before the batch) into the new
    // section Rex (numbered after it).
    ("move 3 Rex", #"Move "The Matrix" to Rex"#, "-  3  The Matrix\n+ \(rex)\n+  4 " + matrix,
     [(odeon, [alien86, bladeRunner, thing84]), (rex, [matrix])]),
]

@Suite("Theater: scripted session")
struct TheaterScriptedSessionTests {
    @Test func fullSessionUndoesToEmptyAndRedoesEverything() throws {
        let session = try TheaterSession()
        #expect(session.execute("list") == "(no movies)")
        #expect(session.execute(setUpOdeon) == "added theater Odeon (London); 'add' adds to it")

        // Forward: every changing command prints the rows it redrew and is one named undo step.
        for (number, step) in scriptedSteps.enumerated() {
            #expect(session.execute(step.command) == step.output, "output of \(step.command)")
            #expect(session.execute("list") == listingText(step.sections), "listing after \(step.command)")
            #expect(session.history.undoCount == number + 2)
            #expect(session.history.undoActionName == step.name)
            try expectListingMatchesModel(session)
        }

        // Reading commands in between change nothing.
        let found = session.execute("find year < 1990 AND title CONTAINS[c] 'e'")
        #expect(found == [
            " #  title                       year  rating  minutes",
            " 1 " + alien86, " 2 " + bladeRunner, " 3 " + thing84,
            #"3 of 4 movies match year < 1990 AND title CONTAINS[c] "e""#,
        ].joined(separator: "\n"))
        #expect(session.execute("find theater.city == 'Paris'").hasSuffix(#"1 of 4 movies matches theater.city == "Paris""#))
        // (8.5 + 8.1 + 8.4 + 8.7) / 4 = 8.425; 117 + 117 + 109 + 136 = 479 minutes.
        #expect(session.execute("stats") == """
            movies:         4
            average rating: 8.43
            latest year:    1999
            total minutes:  479 (7 h 59 min)
              Odeon (London): 3 movies, average rating 8.33, 343 min
              Rex (Paris): 1 movie, average rating 8.70, 136 min
            """)
        #expect(session.history.undoCount == scriptedSteps.count + 1 && !session.history.canRedo)

        // Back, step by step, to an empty store.
        for index in stride(from: scriptedSteps.count - 1, through: 0, by: -1) {
            let output = session.execute("undo")
            #expect(output.hasPrefix("undid " + scriptedSteps[index].name))
            let sections = index == 0 ? [] : scriptedSteps[index - 1].sections
            #expect(session.execute("list") == listingText(sections), "after undoing \(scriptedSteps[index].command)")
            try expectListingMatchesModel(session)
        }
        #expect(session.execute("undo") == #"undid Add Theater "Odeon""#)
        #expect(try session.theaters().isEmpty && !session.history.canUndo)
        #expect(session.execute("undo") == "nothing to undo")

        // And forward again: redo restores every state exactly.
        #expect(session.execute("redo") == #"redid Add Theater "Odeon""#)
        for step in scriptedSteps {
            #expect(session.execute("redo").hasPrefix("redid " + step.name))
            #expect(session.execute("list") == listingText(step.sections), "after redoing \(step.command)")
            try expectListingMatchesModel(session)
        }
        #expect(session.execute("redo") == "nothing to redo")
    }

    @Test func undoAndRedoPrintOnlyTheRedrawnRows() throws {
        let session = try TheaterSession()
        _ = session.execute(setUpOdeon)
        for step in scriptedSteps { _ = session.execute(step.command) }
        // The Matrix goes back to Odeon (row 3 by title); Rex is left empty: its section goes.
        #expect(session.execute("undo") == #"undid Move "The Matrix" to Rex"# + "\n- \(rex)\n-  4  The Matrix\n+  3 " + matrix)
        _ = session.execute("undo")   // the theater Rex
        #expect(session.execute("undo") == #"undid Remove "Inception""# + "\n+  3 " + inception)
        #expect(session.execute("redo") == #"redid Remove "Inception""# + "\n-  3  Inception")
    }

    @Test func redoKeepsTheSameMovieObjects() throws {
        let session = try TheaterSession()
        _ = session.execute(setUpOdeon)
        for step in scriptedSteps { _ = session.execute(step.command) }
        let movies = session.listing.movies
        while session.history.canUndo { _ = session.execute("undo") }
        #expect(session.listing.movies.isEmpty)
        while session.history.canRedo { _ = session.execute("redo") }
        #expect(session.listing.movies.count == movies.count)
        for (restored, original) in zip(session.listing.movies, movies) { #expect(restored === original) }
    }

    @Test func transcriptEchoesCommandsAndStopsAtQuit() throws {
        let session = try TheaterSession()
        let transcript = session.transcript(of: """
            theater add Odeon London
            add Alien 1979 8.5 117

            # a comment
            quit
            quit
            add Heat 1995 8.3 170
            """)
        #expect(transcript == """
            > theater add Odeon London
            added theater Odeon (London); 'add' adds to it
            > add Alien 1979 8.5 117
            + \(odeon)
            +  1 \(alien)
            > # a comment
            > quit
            warning: there are unsaved changes (2 inserted): 'save' to keep them, or 'quit' again to leave without saving
            > quit
            unsaved changes dropped
            bye
            """)
        #expect(session.isFinished && session.listing.movies.count == 1)
    }

    /// The incrementally updated listing equals one fetched afresh from the context.
    private func expectListingMatchesModel(_ session: TheaterSession) throws {
        let fresh = try TheaterListing(context: session.context, sortKeys: [])
        #expect(session.listing.text == fresh.text)
    }
}
