// The fruit stand: takes one command line, changes the managed objects in the context, and
// returns the text to print. Undo comes from the context's undo manager; no command writes undo
// code.

import Foundation
import ManagedObjects
import SQLiteStore
import UndoManagement

/// Where a session keeps its objects.
public enum FruitStandStoreLocation: Equatable, Sendable {
    /// An SQLite store file (created when missing).
    case file(URL)
    /// An in-memory store: nothing outlives the session.
    case inMemory

    /// The store as messages name it: the file's path as given, or `memory`.
    public var displayName: String {
        switch self {
        case .file(let url): return url.relativePath
        case .inMemory: return "memory"
        }
    }
}

/// A session of the fruit stand: a container with the sample's model and one store, its view
/// context, and the context's undo manager.
///
/// ```swift
/// let session = try FruitStandSession(store: .inMemory)
/// print(session.execute("stand add Corner"))   // added stand Corner
/// print(session.execute("undo"))               // undid Add Stand Corner
/// ```
///
/// Every command that changes objects is one user event: it changes typed properties of the
/// managed objects, names the undo group the context's changes registered (`setActionName`), and
/// ends the event (`processPendingChanges`), so it is one named step for `undo`, `redo` and
/// `history`, before and after saves. A command that fails changes nothing, leaves the undo
/// history as it was, and returns a line starting with `error:`.
///
/// Not thread-safe: a session, like its context, belongs to the thread that made it.
public final class FruitStandSession {
    /// The container: the model, the coordinator and the store.
    public let container: PersistentContainer
    /// The context's undo manager: one named group per changing command.
    public let history: UndoHistory
    /// Where the objects are kept.
    public let location: FruitStandStoreLocation
    /// Whether `quit` (and the end of input) saves unsaved changes instead of warning.
    public let autosave: Bool
    /// Whether `quit` ended the session.
    public internal(set) var isFinished = false
    /// The order of fruit in `list` and `find` (`sort` changes it): radius, smallest first.
    public internal(set) var sortKeys = [FruitStandCommand.SortKey(key: "radius")]

    /// Names of the undo steps, oldest first (the undo manager only tells the newest).
    var undoNames: [String] = []
    /// Names of the redo steps, oldest first.
    var redoNames: [String] = []
    /// Whether the previous command was a `quit` refused because of unsaved changes.
    var quitWasWarned = false

    /// The context where every command works: a confinement context on the container's
    /// coordinator (a command-line session runs on one thread at a time and needs no queue;
    /// the container's `viewContext` belongs to the main queue).
    public let context: ManagedObjectContext

    /// Opens (or creates) the store and makes the context with its undo manager.
    ///
    /// - Parameters:
    ///   - store: The SQLite file, or memory.
    ///   - autosave: Whether quitting saves instead of warning about unsaved changes.
    /// - Throws: ``FruitStandError/unreadableStore(path:reason:)`` when the file is not a
    ///   fruit-stand store (another kind of file, a store of another model, a folder): the file
    ///   is left as it was; ``FruitStandError/unreadableModel(_:)`` when the data model does not
    ///   load.
    public init(store: FruitStandStoreLocation, autosave: Bool = false) throws(FruitStandError) {
        let model = try FruitStandDataModel.load()
        container = PersistentContainer(name: "FruitStand", model: model)
        switch store {
        case .file(let url):
            container.storeDescriptions = [.sqlite(at: url)]
        case .inMemory:
            container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
        }
        do {
            try container.loadPersistentStores()
        } catch let error as SQLiteStoreError {
            // The error names the absolute path; the message names the path as given.
            let prefix = "SQLite store \(error.path): "
            let text = error.description
            throw .unreadableStore(path: store.displayName,
                                   reason: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
        } catch {
            throw .unreadableStore(path: store.displayName, reason: "\(error)")
        }
        history = UndoHistory()
        location = store
        self.autosave = autosave
        context = ManagedObjectContext(coordinator: container.coordinator)
        context.undoManager = history
    }

    /// Runs one command line and returns what to print (no trailing newline; empty for a blank
    /// line or a comment).
    ///
    /// - Parameter line: The command line, e.g. `fruit add apple 2.4 Corner/1`.
    /// - Returns: The output, or a line `error: ...` naming the problem.
    public func execute(_ line: String) -> String {
        do {
            guard let command = try FruitStandCommand.parse(line) else { return "" }
            if command != .quit { quitWasWarned = false }
            return try run(command)
        } catch let error as FruitStandError {
            return "error: \(error)"
        } catch {
            return "error: \(error)"
        }
    }

    /// Runs every line of `script`, echoing each command after `> ` before its output, then
    /// ends the input as ``finishInput()`` does. Stops after `quit`. Blank lines and comments
    /// (`# ...`) are skipped.
    ///
    /// - Parameter script: Command lines separated by newlines.
    /// - Returns: The transcript.
    public func transcript(of script: String) -> String {
        var output: [String] = []
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }   // comments are for readers
            output.append("> " + trimmed)
            let result = execute(trimmed)
            if !result.isEmpty { output.append(result) }
            if isFinished { break }
        }
        let ending = finishInput()
        if !ending.isEmpty { output.append(ending) }
        return output.joined(separator: "\n")
    }

    /// Ends a session whose input ran out before `quit`: saves with ``autosave``, otherwise
    /// warns that the unsaved changes are dropped.
    ///
    /// - Returns: What to print; empty when the session had quit or nothing was unsaved.
    public func finishInput() -> String {
        guard !isFinished else { return "" }
        isFinished = true
        guard context.hasChanges else { return "" }
        if autosave {
            do { return try save() } catch { return "error: \(error)" }
        }
        return "warning: the input ended with \(unsavedSummary); they were not saved "
            + "(use 'save', or --autosave)"
    }

    /// The help text.
    public static var helpText: String {
        let width = FruitStandCommand.usage.map(\.usage.count).max() ?? 0
        let lines = FruitStandCommand.usage.map { entry in
            "  " + entry.usage + String(repeating: " ", count: width - entry.usage.count + 2) + entry.summary
        }
        let notes = [
            "crates are named STAND/NUMBER as 'list' shows them; radii are positive numbers",
            "find and sort take keys of fruit: radius, crate.number, crate.stand.name "
                + "(find: any predicate, e.g. radius BETWEEN {2, 3})",
        ]
        return (["commands (quote names with spaces):"] + lines + notes).joined(separator: "\n")
    }
}
