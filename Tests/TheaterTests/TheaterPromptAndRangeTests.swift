// Issue 11: what a person meets at the prompt. Arrow keys (terminal escape codes) are refused
// with a message saying the prompt has no line editing; ratings and minutes outside their range
// are refused naming the value and the range; counts read as English ("1 of 1 movie matches").

import Testing
@testable import Theater

@Suite("Theater: prompt, ranges and plurals")
struct TheaterPromptAndRangeTests {
    /// A session with three movies and one undone step, so both stacks hold something.
    private func makeSession() throws -> TheaterSession { try makeThreeMovieSession() }

    /// An empty session with one theater to add movies to.
    private func makeEmptyTheater() throws -> TheaterSession {
        let session = try TheaterSession()
        _ = session.execute(setUpOdeon)
        return session
    }

    /// Runs `line` and checks that it printed one error line and changed nothing.
    private func expectRefused(_ line: String, _ session: TheaterSession,
                               sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let listing = session.listing.text
        let history = session.execute("history")
        let counts = (session.history.undoCount, session.history.redoCount)
        let output = session.execute(line)
        #expect(output.hasPrefix("error: "), "output: \(output)", sourceLocation: sourceLocation)
        #expect(!output.contains("\n"), sourceLocation: sourceLocation)
        #expect(session.listing.text == listing, sourceLocation: sourceLocation)
        #expect(session.execute("history") == history, sourceLocation: sourceLocation)
        #expect(session.history.undoCount == counts.0 && session.history.redoCount == counts.1,
                sourceLocation: sourceLocation)
        return output
    }

    // MARK: Escape codes

    @Test(arguments: [
        ("\u{1B}[A", ["up arrow"]),
        ("list\u{1B}[D\u{1B}[D", ["left arrow"]),
        ("remove 1\u{1B}[C", ["right arrow"]),
        ("\u{1B}OB", ["down arrow"]),
        ("add Heat\u{1B}[3~ 1995 8.3 170", ["Delete"]),
        ("\u{1B}[H\u{1B}[F", ["Home", "End"]),
        ("\u{1B}[5~\u{1B}[6~", ["Page Up", "Page Down"]),
        ("undo\u{1B}", ["Esc"]),
        ("\u{1B}[15~", ["ESC[15~"]),
    ])
    func escapeCodesAreRefusedAndNamed(line: String, keys: [String]) throws {
        let session = try makeSession()
        let output = expectRefused(line, session)
        #expect(output.contains("(\(keys.joined(separator: ", ")))"), "output: \(output)")
        #expect(output.contains("this prompt has no line editing"))
        #expect(!output.contains("\u{1B}"), "the message must not echo the codes to the terminal")
        #expect(session.listing.movies.count == 3)
    }

    @Test func linesWithoutEscapeCodesAreNotTouched() throws {
        #expect(TheaterCommand.escapeKeys(in: "add '[A' 1999 8 100") == nil)
        #expect(try TheaterCommand.parse("add '[A' 1999 8 100")
                    == .add(title: "[A", year: 1999, rating: 8, minutes: 100, theater: nil))
    }

    @Test func helpSaysThePromptHasNoLineEditing() throws {
        let help = try TheaterSession().execute("help")
        #expect(help.contains("no line editing"))
        #expect(help.contains("ratings: numbers from 0 to 10; minutes: whole numbers from 1 to 100000"))
    }

    // MARK: Ranges

    @Test(arguments: [
        ("add Heat 1995 8.3 -170", "MINUTES is out of range: '-170' (whole numbers from 1 to 100000)"),
        ("add Heat 1995 8.3 0", "MINUTES is out of range: '0' (whole numbers from 1 to 100000)"),
        ("add Heat 1995 8.3 100001", "MINUTES is out of range: '100001' (whole numbers from 1 to 100000)"),
        ("add Heat 1995 8.3 99999999999999999999",
         "MINUTES is out of range: '99999999999999999999' (whole numbers from 1 to 100000)"),
        ("add Heat 1995 -8.3 170", "RATING is out of range: '-8.3' (numbers from 0 to 10)"),
        ("add Heat 1995 10.5 170", "RATING is out of range: '10.5' (numbers from 0 to 10)"),
        ("add Heat 1995 1e999 170", "RATING is out of range: '1e999' (numbers from 0 to 10)"),
        ("set 1 minutes -5", "cannot set minutes to '-5': out of range; minutes takes a whole number from 1 to 100000"),
        ("set 1 minutes 0", "cannot set minutes to '0': out of range; minutes takes a whole number from 1 to 100000"),
        ("set 1 rating -1", "cannot set rating to '-1': out of range; rating takes a number from 0 to 10"),
        ("set 1 rating -0.5", "cannot set rating to '-0.5': out of range; rating takes a number from 0 to 10"),
        ("set 1 rating 11", "cannot set rating to '11': out of range; rating takes a number from 0 to 10"),
    ])
    func outOfRangeRatingsAndMinutesAreRefused(line: String, message: String) throws {
        let session = try makeSession()
        let output = expectRefused(line, session)
        #expect(output == "error: " + message)
        #expect(session.listing.movies.map(\.minutes) == [117, 136, 109])
        #expect(session.listing.movies.map(\.rating) == [8.5, 8.7, 8.2])
    }

    @Test func theEndsOfTheRangesAreAccepted() throws {
        let session = try makeEmptyTheater()
        #expect(session.execute("add Short 2000 0 1").hasPrefix("+ \(odeon)\n+  1"))
        #expect(session.execute("add Long 2000 10 100000").hasPrefix("+  1"))   // Long sorts before Short
        #expect(session.execute("set 2 rating 10").hasPrefix("~  2"))
        #expect(session.execute("set 2 minutes 100000").hasPrefix("~  2"))
        #expect(session.listing.movies.map(\.rating) == [10, 10])
        #expect(session.listing.movies.map(\.minutes) == [100_000, 100_000])
    }

    @Test func statsOfTheLargestYearDoNotTrap() throws {
        let session = try makeEmptyTheater()
        _ = session.execute("add Far 2000 5 90")
        #expect(session.execute("set 1 year 9223372036854775807").hasPrefix("~  1"))
        #expect(session.execute("stats").contains("latest year:    9223372036854775807"))
    }

    // MARK: Plurals

    @Test(arguments: [
        (["add Heat 1995 8.3 170"], "year > 1990", "1 of 1 movie matches year > 1990"),
        (["add Heat 1995 8.3 170"], "year > 2000", "0 of 1 movie match year > 2000"),
        (["add Heat 1995 8.3 170", "add Alien 1979 8.5 117"], "year > 1990", "1 of 2 movies matches year > 1990"),
        (["add Heat 1995 8.3 170", "add Alien 1979 8.5 117"], "year > 1900", "2 of 2 movies match year > 1900"),
        ([], "year > 1900", "0 of 0 movies match year > 1900"),
    ])
    func findCountsReadAsEnglish(adds: [String], predicate: String, summary: String) throws {
        let session = try makeEmptyTheater()
        for line in adds { _ = session.execute(line) }
        let output = session.execute("find " + predicate)
        #expect(output.split(separator: "\n").last.map(String.init) == summary)
    }
}
