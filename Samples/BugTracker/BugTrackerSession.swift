// A bug-tracker session: a context on a bug file, driven one command line at a time.
import Foundation
import Synchronization
import ObjectGraph

/// One bug tracker: a context with an undo history on a ``BugFileStore``, driven by command
/// lines (``execute(_:)``) that return what to print. See ``helpText`` for the commands.
///
/// ```swift
/// let session = try BugTrackerSession(file: URL(fileURLWithPath: "bugs.txt"))
/// print(session.execute("add Crash when saving"))
/// print(session.execute("save"))
/// ```
public final class BugTrackerSession {
    /// Bugs per page of `list`.
    public static let pageSize = 10

    /// The commands, for `help`.
    public static let helpText = """
        list [PAGE]      show a page of bugs (\(pageSize) a page); only the bugs shown are read
        add TEXT         report a bug
        refresh          take other trackers' saved changes, and receive new bug reports
        fix N            mark the bug at position N (as listed) fixed
        delete N         delete the bug at position N
        find PREDICATE   show the bugs matching a predicate, e.g. find title CONTAINS[c] "crash"
        undo, redo       step back or forward through your unsaved and saved edits
        save             write your changes to the file
        trace on|off     show what the store is asked (also: bug-tracker --trace)
        help, quit
        """

    /// The store.
    public let store: BugFileStore
    let context: ManagedObjectContext
    let history = UndoHistory()
    /// The store's trace lines since the last command.
    private let traceLines = TraceLog()
    /// Whether trace lines are shown.
    public var isTracing: Bool
    /// Whether `quit` ended the session.
    public private(set) var isFinished = false
    /// Whether `quit` already warned about unsaved changes.
    private var warnedAboutChanges = false
    /// Makes the titles of bugs that `refresh` receives.
    var reports: BugReportGenerator

    /// Opens a bug file (creating it when missing).
    ///
    /// - Parameters:
    ///   - file: The bug file.
    ///   - tracing: Whether to show what the store is asked.
    ///   - seed: Seeds the reports `refresh` receives (fixed in tests).
    /// - Throws: ``BugTrackerError`` when the file is damaged or cannot be read.
    public init(file: URL, tracing: Bool = false, seed: UInt64 = UInt64.random(in: 0 ... .max)) throws {
        let log = traceLines
        store = BugFileStore(url: file) { line in log.append(line) }
        let coordinator = PersistentStoreCoordinator(model: try BugTrackerModel.make())
        try coordinator.addStore(store)
        context = ManagedObjectContext(coordinator: coordinator)
        context.undoManager = history
        isTracing = tracing
        reports = BugReportGenerator(seed: seed)
        _ = traceLines.take()
    }

    /// Runs one command line.
    ///
    /// - Parameter line: A command and its argument.
    /// - Returns: What to print (trace lines first when tracing); errors are reported in it.
    public func execute(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "" }
        let (command, argument) = Self.split(trimmed)
        var output: String
        do {
            output = try run(command, argument)
        } catch {
            output = "error: \(error.localizedDescription)"
        }
        if command != "quit" { warnedAboutChanges = false }
        context.processPendingChanges()
        let trace = traceLines.take()
        guard isTracing && !trace.isEmpty else { return output }
        return (trace + [output]).joined(separator: "\n")
    }

    /// Runs a script of commands, echoing each after a `> ` prompt.
    ///
    /// - Parameter script: Command lines.
    /// - Returns: The echoed commands and their output.
    public func transcript(of script: String) -> String {
        var parts: [String] = []
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) where !isFinished {
            let text = String(line)
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            parts.append("> " + text)
            let output = execute(text)
            if !output.isEmpty { parts.append(output) }
        }
        return parts.joined(separator: "\n")
    }

    private static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line.lowercased(), "") }
        return (line[..<space].lowercased(), line[line.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    private func run(_ command: String, _ argument: String) throws -> String {
        switch command {
        case "list": return try list(page: argument)
        case "add": return try add(argument)
        case "refresh": return try refresh()
        case "fix": return try fix(argument)
        case "delete": return try delete(argument)
        case "find": return try find(argument)
        case "undo": return try undo()
        case "redo": return try redo()
        case "save": return save()
        case "trace": return try trace(argument)
        case "help": return Self.helpText
        case "quit", "exit": return quit()
        default: return "unknown command '\(command)'; type 'help' for the commands"
        }
    }

    private func trace(_ argument: String) throws -> String {
        switch argument.lowercased() {
        case "on": isTracing = true; return "tracing on"
        case "off": isTracing = false; return "tracing off"
        default: return "usage: trace on|off"
        }
    }

    private func quit() -> String {
        context.processPendingChanges()
        if context.hasChanges && !warnedAboutChanges {
            warnedAboutChanges = true
            return "you have unsaved changes: 'save' them, or 'quit' again to drop them"
        }
        isFinished = true
        return "bye"
    }
}

/// The store's trace lines, collected from any thread.
private final class TraceLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// The lines so far, emptying the log.
    func take() -> [String] { lines.withLock { lines in defer { lines.removeAll() }; return lines } }
}

/// Titles for the bug reports `refresh` receives, from a seeded generator.
struct BugReportGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    private static let subjects = ["Crash", "Freeze", "Typo", "Slow start", "Wrong total", "Lost window"]
    private static let places = ["when saving", "in the help text", "after undo", "on a full disk", "at midnight", "in the bug list"]

    /// A number in `range` (xorshift64*).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let value = state &* 2685821657736338717
        return range.lowerBound + Int(value % UInt64(range.count))
    }

    mutating func title() -> String {
        "\(Self.subjects[next(in: 0...Self.subjects.count - 1)]) \(Self.places[next(in: 0...Self.places.count - 1)])"
    }
}
