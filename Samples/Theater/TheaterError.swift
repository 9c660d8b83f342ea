// What a bad command line is told: each case names the offending word, index, key or position.

import Foundation

/// A command the session could not carry out. Nothing was changed, and the undo history is as
/// it was.
public enum TheaterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first word is not a command.
    case unknownCommand(String)
    /// The command got the wrong number of arguments; `usage` shows the right form.
    case wrongArguments(command: String, usage: String)
    /// A quoted title or value has no closing quote.
    case unterminatedQuote(String)
    /// An argument that must be a number is not one.
    case notANumber(argument: String, text: String)
    /// An argument is a number, but too large (or too small) for its type; `allowed` says which
    /// numbers are (``wholeNumbers`` or ``finiteNumbers``).
    case outOfRange(argument: String, text: String, allowed: String)
    /// An index names no movie (indexes start at 1).
    case noMovie(index: Int, count: Int)
    /// Movies have no such key.
    case unknownKey(String)
    /// The value cannot be stored into the key (wrong type, out of range, read-only).
    case badValue(key: String, text: String, reason: String)
    /// The predicate of `find` could not be read.
    case badPredicate(String)
    /// The predicate of `find` was read but could not be evaluated on the movies.
    case predicateFailed(String)
    /// The sort keys could not be used.
    case badSort(String)
    /// The line holds terminal escape codes (arrow, Home or function keys): the prompt has no
    /// line editing, so the line is ignored. `keys` names the keys, as far as they are known.
    case escapeCodes(keys: [String])
    /// `add` with no theater to add to.
    case noTheaters
    /// A theater name that names no theater.
    case noTheater(String, known: [String])
    /// `theater add` with a name already taken.
    case duplicateTheater(String)
    /// An empty theater name or city.
    case badTheaterName(String)
    /// The store refused the save (nothing was written; the changes are kept).
    case saveFailed(String)
    /// The store file could not be opened (not a theater store, unreadable, another model).
    case unreadableStore(path: String, reason: String)
    /// The sample's data model did not load.
    case unreadableModel(String)
    /// A bad command-line option of the program.
    case badOption(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word):
            return "unknown command '\(word)' (type 'help' for the list)"
        case .wrongArguments(let command, let usage):
            return "wrong arguments for '\(command)'; usage: \(usage)"
        case .unterminatedQuote(let text):
            return "missing closing quote in \(text)"
        case .notANumber(let argument, let text):
            return "\(argument) must be a number, not '\(text)'"
        case .outOfRange(let argument, let text, let allowed):
            return "\(argument) is out of range: '\(text)' (\(allowed))"
        case .noMovie(let index, let count):
            let range = count == 0 ? "there are no movies" : "choose 1 to \(count)"
            return "no movie at index \(index) (\(range))"
        case .unknownKey(let key):
            return "movies have no key '\(key)' (keys: \(Movie.attributeKeys.joined(separator: ", ")))"
        case .badValue(let key, let text, let reason):
            return "cannot set \(key) to '\(text)': \(reason)"
        case .badPredicate(let message):
            return "bad predicate: \(message)"
        case .predicateFailed(let message):
            return "cannot evaluate the predicate: \(message)"
        case .badSort(let message):
            return "cannot sort: \(message)"
        case .escapeCodes(let keys):
            return "ignored a line with terminal escape codes (\(keys.joined(separator: ", "))): "
                + "this prompt has no line editing or history; retype the command "
                + "(Backspace works, the arrow keys do not)"
        case .noTheaters:
            return "there are no theaters; add one first with 'theater add NAME CITY'"
        case .noTheater(let name, let known):
            let list = known.isEmpty ? "there are no theaters" : "theaters: " + known.joined(separator: ", ")
            return "no theater named '\(name)' (\(list))"
        case .duplicateTheater(let name):
            return "there is already a theater named '\(name)'"
        case .badTheaterName(let text):
            return "a theater's name and city must not be empty, not '\(text)'"
        case .saveFailed(let message):
            return "save failed, nothing written (the changes are kept): \(message)"
        case .unreadableStore(let path, let reason):
            return "cannot open the store \(path): \(reason)"
        case .unreadableModel(let reason):
            return "cannot load the theater data model: \(reason)"
        case .badOption(let message):
            return message
        }
    }

    /// The numbers an integer argument or key takes.
    public static let wholeNumbers = "whole numbers from \(Int.min) to \(Int.max)"

    /// The numbers a floating-point argument or key takes.
    public static let finiteNumbers = "finite numbers from \(-Double.greatestFiniteMagnitude) "
        + "to \(Double.greatestFiniteMagnitude)"

    /// The minutes a movie takes, as an allowed range (``Movie/minutesRange``).
    public static let minutesAllowed =
        "whole numbers from \(Movie.minutesRange.lowerBound) to \(Movie.minutesRange.upperBound)"

    /// The ratings a movie takes, as an allowed range (``Movie/ratingRange``).
    public static let ratingAllowed =
        "numbers from \(Int(Movie.ratingRange.lowerBound)) to \(Int(Movie.ratingRange.upperBound))"

    /// Whether `text` is written as a whole number (`-12`, `+7`), whatever its size.
    static func isWholeNumberLiteral(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `text` is a number whose value overflows `Double` (`1e400`, not `inf`).
    static func overflowsDouble(_ text: String) -> Bool {
        guard let value = Double(text), value.isInfinite else { return false }
        return text.contains { $0.isASCII && $0.isNumber }
    }
}

extension TheaterError: LocalizedError {
    /// The same text as ``description`` (its one source), so that `localizedDescription` names
    /// the offending word, index or key too.
    public var errorDescription: String? { description }
}
