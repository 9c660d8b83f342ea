// The editor: takes one command line, changes the theater through key-value coding, and
// returns the text to print. Undo comes from the undo recorder; no command writes undo code.

import Foundation
import KeyValueCoding
import KeyValueObserving
import Predicates
import UndoManagement

/// A session of the home-theater editor: a theater, its listing, an undo history and the
/// undo recorder that fills it.
///
/// ```swift
/// let session = try TheaterSession()
/// print(session.execute(#"add "The Matrix" 1999 8.7 136"#))
/// // + 1  The Matrix                  1999     8.7   136 min
/// print(session.execute("undo"))
/// // undid Add "The Matrix"
/// // - 1  The Matrix
/// ```
///
/// Every command that changes the theater is one undo group named after it. The commands only
/// change the model (through key-value coding and the `movies` array proxy); the
/// ``recorder`` observes the theater and every movie on its program and registers the inverses,
/// and the ``listing`` observes the same objects and redraws the rows that changed. A command
/// that fails changes nothing, leaves the undo history as it was, and returns a line starting
/// with `error:`.
///
/// Not thread-safe: use a session from one thread.
public final class TheaterSession {
    /// The model.
    public let theater = HomeTheater()
    /// The undo history; one group per changing command.
    public let history = UndoHistory(notificationCenter: nil)
    /// Records the inverses of every change of the theater and its movies.
    public let recorder: UndoRecorder
    /// The printed listing (the view layer).
    public let listing: TheaterListing
    /// Whether `quit` was given.
    public internal(set) var isFinished = false

    /// Names of the undo steps, oldest first (the history only tells the newest).
    var undoNames: [String] = []
    /// Names of the redo steps, oldest first.
    var redoNames: [String] = []
    /// Starts recording each movie that joins the program.
    private var programObservation: KeyValueObservation?

    /// Creates a session with an empty theater.
    ///
    /// - Throws: `KeyValueObservingError` only if the model lacks an observed key (a programming
    ///   error in the sample).
    public init() throws {
        recorder = UndoRecorder(history: history)
        listing = try TheaterListing(theater: theater)
        try recorder.record(theater, keys: ["movies"])
        // Every movie put on the program (added, or put back by undo/redo) is recorded too;
        // recording a movie twice does nothing.
        // The movies are read at the change's indexes, not taken from the change record: a
        // record's new value is copied out of the whole array, once per observer asking for it.
        let session = Confined(self)
        programObservation = try theater.observe("movies", options: []) { theater, change in
            guard change.kind != .removal, let indexes = change.indexes else { return }
            let program = theater.movies
            for index in indexes where index < program.count {
                try? session.object.recorder.record(program[index], keys: Movie.attributeKeys)
            }
        }
    }

    /// Runs one command line and returns what to print (no trailing newline; empty for a blank
    /// line).
    ///
    /// - Parameter line: The command line, e.g. `set 2 year 1986`.
    /// - Returns: The output: redrawn rows, results, or a line `error: ...` naming the problem.
    public func execute(_ line: String) -> String {
        do {
            guard let command = try TheaterCommand.parse(line) else { return "" }
            return try run(command)
        } catch let error as TheaterError {
            return "error: \(error)"
        } catch {
            return "error: \(error)"
        }
    }

    /// Runs every line of `script`, echoing each command after `> ` before its output.
    ///
    /// Stops after `quit`.
    ///
    /// - Parameter script: Command lines separated by newlines.
    /// - Returns: The transcript.
    public func transcript(of script: String) -> String {
        var output: [String] = []
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            output.append("> " + trimmed)
            let result = execute(trimmed)
            if !result.isEmpty { output.append(result) }
            if isFinished { break }
        }
        return output.joined(separator: "\n")
    }

    /// The help text.
    public static var helpText: String {
        let width = TheaterCommand.usage.map(\.usage.count).max() ?? 0
        let lines = TheaterCommand.usage.map { entry in
            "  " + entry.usage + String(repeating: " ", count: width - entry.usage.count + 2) + entry.summary
        }
        let notes = [
            "ratings: \(TheaterError.ratingAllowed); minutes: \(TheaterError.minutesAllowed)",
            "the prompt has no line editing or history: correct with Backspace (arrow keys are refused)",
        ]
        return (["commands (indexes start at 1; quote titles with spaces):"] + lines + notes)
            .joined(separator: "\n")
    }
}
