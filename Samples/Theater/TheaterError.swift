// What a bad command line is told: each case names the offending word, index, key or position.

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
        case .noMovie(let index, let count):
            let range = count == 0 ? "the theater is empty" : "choose 1 to \(count)"
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
        }
    }
}
