// The editor: takes one command line, changes the managed objects in its context, and returns
// the text to print. Undo comes from the context's undo manager; the listing is a fetched
// results controller's delegate.

import Foundation
import KeyValueCoding
import ManagedObjects
import PostgreSQLStore
import SQLiteStore
import UndoManagement

/// Where a session keeps its objects.
public enum TheaterStoreLocation: Equatable, Sendable {
    /// An SQLite store file (created when missing).
    case file(URL)
    /// An in-memory store: nothing outlives the session.
    case inMemory
    /// A PostgreSQL database, by its libpq connection URL (`postgres://user@host/database`):
    /// every session on the same database sees the others' saves (Docs/PostgreSQLStore.md,
    /// "Fan-out").
    case postgreSQL(String)

    /// The store as messages name it: the file's path as given, `memory`, or the connection
    /// URL without its password.
    public var displayName: String {
        switch self {
        case .file(let url): return url.relativePath
        case .inMemory: return "memory"
        case .postgreSQL(let url): return Self.withoutPassword(url)
        }
    }

    /// A connection URL with its password (in the user part or a `password=` query item) left
    /// out.
    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(a PostgreSQL URL)" }
        components.password = nil
        components.queryItems = components.queryItems?.filter { $0.name.lowercased() != "password" }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        return components.string ?? "(a PostgreSQL URL)"
    }
}

/// A session of the theater editor: a container with the sample's model and one store, a
/// context with its undo manager, and the listing a fetched results controller keeps current.
///
/// ```swift
/// let session = try TheaterSession(store: .inMemory)
/// print(session.execute("theater add Odeon London"))
/// print(session.execute(#"add "The Matrix" 1999 8.7 136"#))
/// // + [Odeon (London)]
/// // +  1  The Matrix                  1999     8.7   136 min
/// print(session.execute("undo"))
/// // undid Add "The Matrix"
/// // - [Odeon (London)]
/// // -  1  The Matrix
/// ```
///
/// Every command that changes objects is one user event: it changes typed properties of the
/// managed objects, names the undo group the context registered (`setActionName`), and ends the
/// event (`processPendingChanges`), so it is one named step for `undo`, `redo` and `history`,
/// before and after saves. The fetched results controller reports the rows and sections that
/// changed, and the command prints only those. Before each command, the session checks whether
/// another process saved into the same store file and merges those changes (the listing prints
/// them too). A command that fails changes nothing, leaves the undo history as it was, and
/// returns a line starting with `error:`.
///
/// Not thread-safe: a session, like its context, belongs to the thread that made it.
public final class TheaterSession {
    /// The container: the model, the coordinator and the store.
    public let container: PersistentContainer
    /// The context's undo manager: one named group per changing command.
    public let history: UndoHistory
    /// The context where every command works: a confinement context on the container's
    /// coordinator (the container's `viewContext` belongs to the main queue).
    public let context: ManagedObjectContext
    /// The printed listing (the view layer), the fetched results controller's delegate.
    public let listing: TheaterListing
    /// Where the objects are kept.
    public let location: TheaterStoreLocation
    /// Whether `quit` (and the end of input) saves unsaved changes instead of warning.
    public let autosave: Bool
    /// Whether `quit` ended the session.
    public internal(set) var isFinished = false
    /// The order of movies within a theater (`sort` changes it): by title.
    public internal(set) var sortKeys: [TheaterCommand.SortKey] = []

    /// The theater `add` adds to when none is named.
    var currentTheaterName: String?
    /// Names of the undo steps, oldest first (the undo manager only tells the newest).
    var undoNames: [String] = []
    /// Names of the redo steps, oldest first.
    var redoNames: [String] = []
    /// Whether the previous command was a `quit` refused because of unsaved changes.
    var quitWasWarned = false
    /// What this session last knew of the store file, to notice other processes' saves.
    var storeWatch: StoreWatch?
    /// On PostgreSQL: the other processes' saves the fan-out announced (TheaterSession+FanOut).
    var fanOutWatch: FanOutWatch?

    /// Opens (or creates) the store, makes the context with its undo manager, and fetches the
    /// listing.
    ///
    /// - Parameters:
    ///   - store: The SQLite file, or memory (the default).
    ///   - autosave: Whether quitting saves instead of warning about unsaved changes.
    /// - Throws: ``TheaterError/unreadableStore(path:reason:)`` when the file is not a theater
    ///   store (another kind of file, a store of another model, a folder): the file is left as
    ///   it was; ``TheaterError/unreadableModel(_:)`` when the data model does not load.
    public init(store: TheaterStoreLocation = .inMemory, autosave: Bool = false) throws(TheaterError) {
        let model = try TheaterDataModel.load()
        container = PersistentContainer(name: "Theater", model: model)
        switch store {
        case .file(let url):
            container.storeDescriptions = [.sqlite(at: url)]
        case .inMemory:
            container.storeDescriptions = [StoreDescription(type: InMemoryStore.type)]
        case .postgreSQL(let text):
            guard let url = URL(string: text) else {
                throw .unreadableStore(path: store.displayName, reason: "it is not a connection URL")
            }
            container.storeDescriptions = [Self.postgreSQLDescription(at: url)]
        }
        do {
            try container.loadPersistentStores()
        } catch let error as SQLiteStoreError {
            // The error names the absolute path; the message names the path as given.
            let prefix = "SQLite store \(error.path): "
            let text = error.description
            throw .unreadableStore(path: store.displayName,
                                   reason: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
        } catch let error as PostgreSQLStoreError {
            // libpq's messages span lines (a hint on the second): one line here.
            let words = error.description.split(whereSeparator: \.isWhitespace)
            throw .unreadableStore(path: store.displayName, reason: words.joined(separator: " "))
        } catch {
            throw .unreadableStore(path: store.displayName, reason: "\(error)")
        }
        history = UndoHistory()
        location = store
        self.autosave = autosave
        context = ManagedObjectContext(coordinator: container.coordinator)
        context.undoManager = history
        do {
            listing = try TheaterListing(context: context, sortKeys: [])
        } catch {
            throw .unreadableStore(path: store.displayName, reason: "\(error)")
        }
        if case .file(let url) = store { storeWatch = StoreWatch(url: url, session: self) }
        if case .postgreSQL = store { fanOutWatch = FanOutWatch(session: self) }
    }

    /// Runs one command line and returns what to print (no trailing newline; empty for a blank
    /// line or a comment).
    ///
    /// First merges what other processes saved into the store since the last command (their
    /// redrawn rows come first, after a line `another process saved: ...`).
    ///
    /// - Parameter line: The command line, e.g. `set 2 year 1986`.
    /// - Returns: The output, or a line `error: ...` naming the problem.
    public func execute(_ line: String) -> String {
        let merged = mergeChangesOfOtherProcesses()
        let output: String
        do {
            if let command = try TheaterCommand.parse(line) {
                if command != .quit { quitWasWarned = false }
                output = try run(command)
            } else {
                output = ""
            }
        } catch let error as TheaterError {
            output = "error: \(error)"
        } catch {
            output = "error: \(error)"
        }
        return [merged, output].filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Runs every line of `script`, echoing each command after `> ` before its output, then
    /// ends the input as ``finishInput()`` does. Stops after `quit`.
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
        context.processPendingChanges()
        guard context.hasChanges else { return "" }
        if autosave {
            do { return try save() } catch { return "error: \(error)" }
        }
        return "warning: the input ended with \(unsavedSummary); they were not saved "
            + "(use 'save', or --autosave)"
    }

    /// The help text.
    public static var helpText: String {
        let width = TheaterCommand.usage.map(\.usage.count).max() ?? 0
        let lines = TheaterCommand.usage.map { entry in
            "  " + entry.usage + String(repeating: " ", count: width - entry.usage.count + 2) + entry.summary
        }
        let notes = [
            "ratings: \(TheaterError.ratingAllowed); minutes: \(TheaterError.minutesAllowed)",
            "find takes any predicate on movies: title, year, rating, minutes, theater.name, theater.city",
            "the prompt has no line editing or history: correct with Backspace (arrow keys are refused)",
        ]
        return (["commands (indexes start at 1 as 'list' numbers them; quote names with spaces):"] + lines + notes)
            .joined(separator: "\n")
    }
}
