// The changing commands. Each checks its input first, then changes typed properties of the
// managed objects inside one named undo step; the context registers the undo actions and the
// fetched results controller tells the listing what to redraw.

import Foundation
import ManagedObjects
import Predicates
import UndoManagement

extension TheaterSession {
    /// Runs a parsed command.
    func run(_ command: TheaterCommand) throws -> String {
        switch command {
        case let .add(title, year, rating, minutes, theaterName):
            let theater = try theaterForAdding(theaterName)
            return try change(named: "Add \"\(title)\"") {
                let movie = try context.insertNewObject(Movie.self)
                movie.title = title
                movie.year = Int64(year)
                movie.rating = rating
                movie.minutes = Int64(minutes)
                movie.theater = theater
            }
        case let .addTheater(name, city):
            return try addTheater(name, city: city)
        case let .removeTheater(name):
            let theater = try self.theater(named: name)
            let count = theater.movies.count
            let output = try change(named: "Remove Theater \"\(name)\"") { context.delete(theater) }
            if currentTheaterName == name { currentTheaterName = nil }
            let summary = "removed theater \(name) with \(count) movie\(count == 1 ? "" : "s")"
            return output.isEmpty ? summary : summary + "\n" + output
        case let .use(name):
            let theater = try self.theater(named: name)
            currentTheaterName = theater.name
            return "adding to \(theater.label)"
        case let .set(index, key, text):
            return try set(key, to: text, ofMovieAt: index)
        case let .remove(index):
            let movie = try movie(at: index)
            return try change(named: "Remove \"\(movie.title)\"") { context.delete(movie) }
        case let .move(index, theaterName):
            let movie = try movie(at: index)
            let theater = try self.theater(named: theaterName)
            guard movie.theater !== theater else { return "\"\(movie.title)\" is already at \(theater.name)" }
            return try change(named: "Move \"\(movie.title)\" to \(theater.name)") { movie.theater = theater }
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
        case .save:
            return try save()
        case .rollback:
            return try rollback()
        case .history:
            return historyText
        case .help:
            return Self.helpText
        case .quit:
            return quit()
        }
    }

    // MARK: Changes

    private func addTheater(_ name: String, city: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw TheaterError.badTheaterName(name) }
        guard !city.trimmingCharacters(in: .whitespaces).isEmpty else { throw TheaterError.badTheaterName(city) }
        if try theaters().contains(where: { $0.name == name }) { throw TheaterError.duplicateTheater(name) }
        _ = try change(named: "Add Theater \"\(name)\"") {
            let theater = try context.insertNewObject(MovieTheater.self)
            theater.name = name
            theater.city = city
        }
        currentTheaterName = name
        return "added theater \(name) (\(city)); 'add' adds to it"
    }

    /// The theater `add` adds to: the named one, else the current one, else the only one.
    private func theaterForAdding(_ name: String?) throws -> MovieTheater {
        if let name { return try theater(named: name) }
        let all = try theaters()
        if let current = currentTheaterName, let theater = all.first(where: { $0.name == current }) { return theater }
        guard let first = all.first else { throw TheaterError.noTheaters }
        return first
    }

    /// `set INDEX KEY VALUE`: the typed property of the key, from the text read by its type.
    private func set(_ key: String, to text: String, ofMovieAt index: Int) throws -> String {
        let movie = try movie(at: index)
        let title = movie.title
        let name = "Set \(key) of \"\(title)\""
        switch key {
        case "title":
            return try change(named: name) { movie.title = text }
        case "year":
            let year = try Self.wholeNumber(text, key: key, range: nil)
            return try change(named: name) { movie.year = Int64(year) }
        case "minutes":
            let minutes = try Self.wholeNumber(text, key: key, range: Movie.minutesRange)
            return try change(named: name) { movie.minutes = Int64(minutes) }
        case "rating":
            let rating = try Self.rating(text)
            return try change(named: name) { movie.rating = rating }
        default:
            throw TheaterError.unknownKey(key)
        }
    }

    private static func wholeNumber(_ text: String, key: String, range: ClosedRange<Int>?) throws(TheaterError) -> Int {
        let reason = range.map { "out of range; \(key) takes a whole number from \($0.lowerBound) to \($0.upperBound)" }
            ?? "out of range; \(key) takes a whole number " + TheaterError.wholeNumbers.dropFirst("whole numbers ".count)
        guard let value = Int(text) else {
            if TheaterError.isWholeNumberLiteral(text) { throw .badValue(key: key, text: text, reason: reason) }
            throw .badValue(key: key, text: text, reason: "\(key) takes a whole number")
        }
        if let range, !range.contains(value) { throw .badValue(key: key, text: text, reason: reason) }
        return value
    }

    private static func rating(_ text: String) throws(TheaterError) -> Double {
        let range = "out of range; rating takes a number from 0 to 10"
        guard let value = Double(text), value.isFinite else {
            if TheaterError.overflowsDouble(text) { throw .badValue(key: "rating", text: text, reason: range) }
            throw .badValue(key: "rating", text: text, reason: "rating takes a number")
        }
        guard Movie.ratingRange.contains(value) else { throw .badValue(key: "rating", text: text, reason: range) }
        return value
    }

    /// Runs `body` as one user event named `name` and returns the rows the listing redrew.
    ///
    /// The context registers undo actions for every change `body` makes into the undo
    /// manager's event group; the group is named, then `processPendingChanges()` ends the event
    /// (one step) and posts the change the fetched results controller turns into redraws. Every
    /// body checks its input before its first change, and its only throwing call is the first
    /// insertion: when it throws, nothing was changed.
    func change(named name: String, _ body: () throws -> Void) throws -> String {
        _ = listing.takeRedraws()
        let steps = history.undoCount
        try body()
        if history.groupingLevel > 0 { history.setActionName(name) }
        context.processPendingChanges()
        if history.undoCount > steps {
            undoNames.append(name)
            redoNames.removeAll()
        }
        return listing.takeRedraws().joined(separator: "\n")
    }

    // MARK: Undo, redo, save, rollback, quit

    private func undo() throws -> String {
        guard history.canUndo else { return "nothing to undo" }
        _ = listing.takeRedraws()
        let name = undoNames.last ?? history.undoActionName
        try context.undo()
        context.processPendingChanges()
        redoNames.append(undoNames.popLast() ?? name)
        return (["undid \(name)"] + listing.takeRedraws()).joined(separator: "\n")
    }

    private func redo() throws -> String {
        guard history.canRedo else { return "nothing to redo" }
        _ = listing.takeRedraws()
        let name = redoNames.last ?? history.redoActionName
        try context.redo()
        context.processPendingChanges()
        undoNames.append(redoNames.popLast() ?? name)
        return (["redid \(name)"] + listing.takeRedraws()).joined(separator: "\n")
    }

    /// Saves the context's changes to the store. The undo history stays: undo works across saves.
    func save() throws -> String {
        context.processPendingChanges()
        guard context.hasChanges else { return "no changes to save" }
        let summary = changeSummary
        _ = listing.takeRedraws()
        do {
            try context.save()
        } catch {
            throw TheaterError.saveFailed("\(error)")
        }
        _ = listing.takeRedraws()
        noteOwnSave()
        return "saved to \(location.displayName): \(summary)"
    }

    private func rollback() throws -> String {
        context.processPendingChanges()
        guard context.hasChanges else { return "nothing to roll back" }
        let summary = unsavedSummary
        _ = listing.takeRedraws()
        context.rollback()   // as on Apple platforms, this also empties the undo manager
        undoNames.removeAll()
        redoNames.removeAll()
        // The context posts no objects-did-change for a rollback here (see Docs/Samples.md), so
        // the controller fetches afresh and the whole listing is shown.
        let descriptors = sortKeys.map { KeyValueSortDescriptor(key: $0.key, ascending: $0.ascending) }
        try listing.resort(by: descriptors)
        return "rolled back \(summary); the undo history is cleared\n" + listing.text
    }

    private func quit() -> String {
        context.processPendingChanges()
        if !context.hasChanges || quitWasWarned {
            let dropped = context.hasChanges ? "unsaved changes dropped\n" : ""
            isFinished = true
            return dropped + "bye"
        }
        if autosave {
            do {
                let saved = try save()
                isFinished = true
                return saved + "\nbye"
            } catch {
                return "error: \(error) (not quitting)"
            }
        }
        quitWasWarned = true
        return "warning: there are \(unsavedSummary): 'save' to keep them, "
            + "or 'quit' again to leave without saving"
    }

    /// The undo and redo steps by name, the next one to run first.
    var historyText: String {
        func lines(_ names: [String]) -> [String] {
            names.isEmpty ? ["  (none)"] : names.reversed().map { "  " + $0 }
        }
        return (["undo (next first):"] + lines(undoNames) + ["redo (next first):"] + lines(redoNames))
            .joined(separator: "\n")
    }

    /// What a save would write: `3 inserted, 1 deleted` (objects).
    var changeSummary: String {
        let parts = [(context.insertedObjects.count, "inserted"), (context.updatedObjects.count, "updated"),
                     (context.deletedObjects.count, "deleted")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The unsaved changes in words: `unsaved changes (3 inserted, 1 deleted)`.
    var unsavedSummary: String { "unsaved changes (\(changeSummary))" }
}
