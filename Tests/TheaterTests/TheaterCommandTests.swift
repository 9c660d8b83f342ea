// Reading command lines: quoting, arguments, errors that name the problem.

import Foundation
import Testing
@testable import Theater

@Suite("Theater commands")
struct TheaterCommandTests {
    @Test(arguments: [
        (#"add "The Matrix" 1999 8.7 136"#, TheaterCommand.add(title: "The Matrix", year: 1999, rating: 8.7, minutes: 136)),
        ("add Heat 1995 8.3 170 'Rex Cinema'", .add(title: "Heat", year: 1995, rating: 8.3, minutes: 170, theater: "Rex Cinema")),
        ("theater add Odeon 'New York'", .addTheater(name: "Odeon", city: "New York")),
        ("THEATER remove Odeon", .removeTheater(name: "Odeon")),
        ("use Rex", .use(theater: "Rex")),
        ("save", .save), ("rollback", .rollback),
        ("add 'The Thing' 1982 8.2 109", .add(title: "The Thing", year: 1982, rating: 8.2, minutes: 109)),
        ("ADD Alien 1979 8 117", .add(title: "Alien", year: 1979, rating: 8, minutes: 117)),
        (#"set 2 title "Alien 2""#, .set(index: 2, key: "title", value: "Alien 2")),
        ("remove 3", .remove(index: 3)),
        ("move 1 Rex", .move(index: 1, theater: "Rex")),
        ("find title BEGINSWITH[c] 'the'  ", .find(predicate: "title BEGINSWITH[c] 'the'")),
        ("sort year desc title", .sort(keys: [.init(key: "year", ascending: false), .init(key: "title")])),
        ("  list ", .list), ("stats", .stats), ("undo", .undo), ("redo", .redo),
        ("history", .history), ("help", .help), ("quit", .quit),
    ])
    func parsesCommands(line: String, expected: TheaterCommand) throws {
        #expect(try TheaterCommand.parse(line) == expected)
    }

    @Test func blankLinesAndCommentsAreNoCommand() throws {
        #expect(try TheaterCommand.parse("") == nil)
        #expect(try TheaterCommand.parse("   ") == nil)
        #expect(try TheaterCommand.parse("# a comment") == nil)
    }

    @Test(arguments: [
        ("play 1", TheaterError.unknownCommand("play")),
        ("add Alien 1979 8.5", .wrongArguments(command: "add", usage: "add TITLE YEAR RATING MINUTES [THEATER]")),
        ("add Alien 1979 8.5 117 Odeon extra", .wrongArguments(command: "add", usage: "add TITLE YEAR RATING MINUTES [THEATER]")),
        ("theater add Odeon", .wrongArguments(command: "theater", usage: "theater add NAME CITY | theater remove NAME")),
        ("theater", .wrongArguments(command: "theater", usage: "theater add NAME CITY | theater remove NAME")),
        ("use", .wrongArguments(command: "use", usage: "use THEATER")),
        ("move 1 Rex now", .wrongArguments(command: "move", usage: "move INDEX THEATER")),
        ("move x Rex", .notANumber(argument: "INDEX", text: "x")),
        ("add Alien nineteen 8.5 117", .notANumber(argument: "YEAR", text: "nineteen")),
        ("add Alien 1979 nan 117", .notANumber(argument: "RATING", text: "nan")),
        (#"add "Alien 1979 8.5 117"#, .unterminatedQuote(#""Alien 1979 8.5 117"#)),
        ("remove x", .notANumber(argument: "INDEX", text: "x")),
        ("remove 9223372036854775808", .outOfRange(argument: "INDEX", text: "9223372036854775808",
                                                  allowed: TheaterError.wholeNumbers)),
        ("add Alien +1e500 8.5 117", .notANumber(argument: "YEAR", text: "+1e500")),
        ("add Alien 1979 -1e500 117", .outOfRange(argument: "RATING", text: "-1e500",
                                                 allowed: TheaterError.ratingAllowed)),
        ("move 1", .wrongArguments(command: "move", usage: "move INDEX THEATER")),
        ("sort", .wrongArguments(command: "sort", usage: "sort KEY [desc] ...")),
        ("sort desc year", .wrongArguments(command: "sort", usage: "sort KEY [desc] ...")),
        ("find", .wrongArguments(command: "find", usage: "find PREDICATE")),
        ("list all", .wrongArguments(command: "list", usage: "list")),
    ])
    func badLinesNameTheProblem(line: String, expected: TheaterError) {
        #expect(throws: expected) { try TheaterCommand.parse(line) }
    }

    @Test func errorDescriptionsNameTheOffendingInput() {
        #expect(TheaterError.unknownCommand("play").description.contains("'play'"))
        #expect(TheaterError.noMovie(index: 7, count: 5).description == "no movie at index 7 (choose 1 to 5)")
        #expect(TheaterError.noMovie(index: 1, count: 0).description.contains("there are no movies"))
        #expect(TheaterError.noTheater("Rex", known: ["Odeon"]).description == "no theater named 'Rex' (theaters: Odeon)")
        #expect(TheaterError.unknownKey("colour").description.contains("'colour'"))
    }
}

@Suite("Theater error descriptions")
struct TheaterLocalizedErrorTests {
    @Test(arguments: [
        ("play 1", "'play'"),
        ("add Alien nineteen 8.5 117", "'nineteen'"),
        ("move 1", "'move'"),
    ])
    func localizedDescriptionNamesTheOffendingInput(line: String, culprit: String) throws {
        let error = try #require(throws: TheaterError.self) { try TheaterCommand.parse(line) }
        let message = (error as any Error).localizedDescription
        #expect(message == error.description)
        #expect(message.contains(culprit))
    }
}
