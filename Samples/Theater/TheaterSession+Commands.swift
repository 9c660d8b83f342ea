// The commands of the editor. Changing commands only change the model, inside one named undo
// group; the undo recorder and the listing observe the changes.

import Foundation
import KeyValueCoding
import Predicates
import UndoManagement

extension TheaterSession {
    /// Runs a parsed command.
    func run(_ command: TheaterCommand) throws -> String {
        switch command {
        case let .add(title, year, rating, minutes):
            let movie = Movie(title: title, year: year, rating: rating, minutes: minutes)
            // The model's indexed accessor: the same insertion notification as the proxy's,
            // without rewriting the whole array (so `add` costs the same at any length).
            return try change(named: "Add \"\(title)\"") { theater.appendMovie(movie) }
        case let .set(index, key, text):
            return try set(key, to: text, ofMovieAt: index)
        case let .remove(index):
            let movie = try movie(at: index)
            return try change(named: "Remove \"\(movie.title)\"") {
                try program().remove(at: IndexSet(integer: index - 1))
            }
        case let .move(from, to):
            let movie = try movie(at: from)
            _ = try self.movie(at: to)
            guard from != to else { return "\"\(movie.title)\" is already at \(to)" }
            // A removal then an insertion, as the proxy's `move(from:to:)` sends them, without
            // its extra reads of the whole array.
            return try change(named: "Move \"\(movie.title)\"") {
                let program = try program()
                try program.remove(at: IndexSet(integer: from - 1))
                try program.insert([movie], at: IndexSet(integer: to - 1))
            }
        case .list:
            return listing.text
        case let .find(format):
            return try find(format)
        case let .sort(keys):
            return try sort(by: keys)
        case .stats:
            return try statistics()
        case .undo:
            return try undo()
        case .redo:
            return try redo()
        case .history:
            return historyText
        case .help:
            return Self.helpText
        case .quit:
            isFinished = true
            return "bye"
        }
    }

    // MARK: Changing commands

    /// Runs `body` as one undo step named `name` and returns the rows the listing redrew.
    ///
    /// One command is one event: the recorder's registrations open the history's event group,
    /// and the command closes it when it is done. `body` makes one key-value coding change, which
    /// checks its input before it stores anything: when it throws, nothing was changed or
    /// registered, and the undo history is as it was.
    private func change(named name: String, _ body: () throws -> Void) throws -> String {
        _ = listing.takeRedraws()
        let stepsBefore = history.undoCount
        let groupWasOpen = history.isEventGroupOpen
        do {
            try body()
        } catch {
            assert(history.isEventGroupOpen == groupWasOpen, "a failed command registered an undo action")
            throw error
        }
        // Only a change that registered something opened the event group: name that step, not
        // the previous one.
        if history.isEventGroupOpen {
            history.setActionName(name)
            try history.closeEventGroup()
        }
        if history.undoCount > stepsBefore {
            undoNames.append(name)
            redoNames = []
        }
        return listing.takeRedraws().joined(separator: "\n")
    }

    /// `set INDEX KEY VALUE`: any key, through key-value coding. For a numeric key the text
    /// is read as a number, which key-value coding bridges to the property's type.
    private func set(_ key: String, to text: String, ofMovieAt index: Int) throws -> String {
        let movie = try movie(at: index)
        let value = try Self.value(of: text, forKey: key, of: movie)
        let title = movie.title
        do {
            return try change(named: "Set \(key) of \"\(title)\"") { try movie.setValue(value, forKey: key) }
        } catch let error as KeyValueCodingError {
            throw TheaterError.badValue(key: key, text: text, reason: "\(error)")
        }
    }

    /// The value to store for `text`: a number for a numeric key, the text otherwise. A rating
    /// outside ``Movie/ratingRange`` or minutes outside ``Movie/minutesRange`` are refused,
    /// naming the value and the range.
    static func value(of text: String, forKey key: String, of movie: Movie) throws(TheaterError) -> Any {
        let rangeError: TheaterError? = switch key {
        case "rating":
            .badValue(key: key, text: text, reason: "out of range; rating takes a "
                        + TheaterError.ratingAllowed.replacingOccurrences(of: "numbers", with: "number"))
        case "minutes":
            .badValue(key: key, text: text, reason: "out of range; minutes takes a "
                        + TheaterError.minutesAllowed.replacingOccurrences(of: "numbers", with: "number"))
        default:
            nil
        }
        let value: Any
        do {
            value = try convertedValue(of: text, forKey: key, of: movie)
        } catch {
            // A number too large for the property's type is out of this key's range too.
            if case let .badValue(_, _, reason) = error, reason.hasPrefix("out of range"), let rangeError {
                throw rangeError
            }
            throw error
        }
        switch key {
        case "rating":
            let rating = KeyValueNumber(value)?.doubleValue ?? .nan
            if !Movie.ratingRange.contains(rating), let rangeError { throw rangeError }
        case "minutes":
            let minutes = value as? Int ?? 0
            if !Movie.minutesRange.contains(minutes), let rangeError { throw rangeError }
        default:
            break
        }
        return value
    }

    /// `text` as a number for a numeric key (bridged by key-value coding), the text otherwise.
    private static func convertedValue(of text: String, forKey key: String,
                                       of movie: Movie) throws(TheaterError) -> Any {
        let current: Any?
        do {
            current = try movie.value(forKey: key)
        } catch {
            throw .unknownKey(key)
        }
        guard let current, let number = KeyValueNumber(current) else { return text }
        switch number {
        case .integer, .unsigned:
            // Key-value coding would truncate 1999.5 to 1999 (as NSNumber's intValue does):
            // an integer key takes only whole numbers.
            if let integer = Int(text) { return integer }
            if TheaterError.isWholeNumberLiteral(text) {
                let range = TheaterError.wholeNumbers.dropFirst("whole numbers ".count)
                throw .badValue(key: key, text: text,
                                reason: "out of range; \(key) takes a whole number \(range)")
            }
            throw .badValue(key: key, text: text, reason: "\(key) takes a whole number")
        case .floating, .decimal, .boolean:
            if let integer = Int(text) { return integer }   // bridged to the property's type
            if let double = Double(text), double.isFinite { return double }
            if TheaterError.overflowsDouble(text) {
                let range = TheaterError.finiteNumbers.dropFirst("finite numbers ".count)
                throw .badValue(key: key, text: text,
                                reason: "out of range; \(key) takes a finite number \(range)")
            }
            throw .badValue(key: key, text: text, reason: "\(key) takes a number")
        }
    }

    /// `sort KEY [desc] ...`: reorders the program (an undoable change). Only the positions
    /// whose movie changes are replaced, so only those rows are redrawn.
    private func sort(by keys: [TheaterCommand.SortKey]) throws -> String {
        for key in keys {
            do { _ = try Self.probe.value(forKey: key.key) } catch { throw TheaterError.unknownKey(key.key) }
        }
        let descriptors = keys.map { KeyValueSortDescriptor(key: $0.key, ascending: $0.ascending) }
        let movies = theater.movies
        let sorted: [Movie]
        do {
            sorted = try movies.sorted(using: descriptors)
        } catch {
            throw TheaterError.badSort("\(error)")
        }
        let moved = movies.indices.filter { movies[$0] !== sorted[$0] }
        guard !moved.isEmpty else { return "already in that order" }
        let name = "Sort by " + keys.map { $0.key + ($0.ascending ? "" : " desc") }.joined(separator: ", ")
        return try change(named: name) {
            try program().replace(at: IndexSet(moved), with: moved.map { sorted[$0] })
        }
    }

    // MARK: Undo and redo

    private func undo() throws -> String {
        guard history.canUndo else { return "nothing to undo" }
        _ = listing.takeRedraws()
        try history.undo()
        let name = undoNames.popLast() ?? history.redoActionName
        redoNames.append(name)
        return (["undid \(name)"] + listing.takeRedraws()).joined(separator: "\n")
    }

    private func redo() throws -> String {
        guard history.canRedo else { return "nothing to redo" }
        _ = listing.takeRedraws()
        try history.redo()
        let name = redoNames.popLast() ?? history.undoActionName
        undoNames.append(name)
        return (["redid \(name)"] + listing.takeRedraws()).joined(separator: "\n")
    }

    /// The undo and redo steps by name, the next one to run first.
    var historyText: String {
        func lines(_ names: [String]) -> [String] {
            names.isEmpty ? ["  (none)"] : names.reversed().map { "  " + $0 }
        }
        return (["undo (next first):"] + lines(undoNames) + ["redo (next first):"] + lines(redoNames))
            .joined(separator: "\n")
    }

    // MARK: Helpers

    /// The `movies` array proxy: its edits send the to-many notifications.
    func program() throws -> KeyValueMutableArray {
        try theater.mutableArrayValue(forKey: "movies")
    }

    /// The movie at a 1-based index.
    func movie(at index: Int) throws(TheaterError) -> Movie {
        let movies = theater.movies
        guard (1...max(movies.count, 1)).contains(index), index <= movies.count else {
            throw .noMovie(index: index, count: movies.count)
        }
        return movies[index - 1]
    }

    /// A movie to check keys and predicates against, so that they are checked on an empty
    /// program too.
    static var probe: Movie { Movie(title: "", year: 0, rating: 0, minutes: 0) }
}
