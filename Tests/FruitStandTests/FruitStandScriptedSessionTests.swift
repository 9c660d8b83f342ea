// The story, run by the built `fruit-stand` executable: one process builds the stand,
// queries, removes and deletes with undo, and saves; a second process opens the same store file
// and lists it. The whole output is compared. Also: a file that is not a store.

import CSQLite
import Foundation
import ManagedObjects
import SQLiteStore
import Testing

@Suite struct FruitStandScriptedSessionTests {
    /// The repository root (this file is Tests/FruitStandTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The debug `fruit-stand` beside the test bundle (the test target depends on it, so
    /// `swift build --build-tests` and `swift test` build it).
    static func executable() -> URL? {
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("fruit-stand") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What one run printed.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `fruit-stand` in `directory` with `arguments`, feeding `input` on stdin.
    static func run(_ arguments: [String], input: String = "", in directory: URL) throws -> Run {
        let program = try #require(executable(), "fruit-stand is not built")
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Files, not pipes: nothing to drain while the program runs.
        let files = ["in", "out", "err"].map { directory.appendingPathComponent("run-\(UUID().uuidString).\($0)") }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        try Data(input.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handles = try [FileHandle(forReadingFrom: files[0]), FileHandle(forWritingTo: files[1]),
                           FileHandle(forWritingTo: files[2])]
        process.standardInput = handles[0]
        process.standardOutput = handles[1]
        process.standardError = handles[2]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        return Run(status: process.terminationStatus,
                   output: try String(contentsOf: files[1], encoding: .utf8),
                   errors: try String(contentsOf: files[2], encoding: .utf8))
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fruit-stand-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The story, as README.md and Docs/Samples.md tell users to run it.
    static let storyFile = root.appendingPathComponent("Samples/Data/fruit-stand/story.txt")

    static let storyTranscript = """
        > stand add Corner
        added stand Corner
        > crate add Corner
        added crate Corner/1
        > crate add Corner
        added crate Corner/2
        > fruit add apple 1.9 Corner/1
        added apple 1.9 to Corner/1
        > fruit add apple 2.4 Corner/1
        added apple 2.4 to Corner/1
        > fruit add orange 2.6 Corner/2
        added orange 2.6 to Corner/2
        > fruit add orange 2.2 Corner/2
        added orange 2.2 to Corner/2
        > list
        Corner: 2 crates, 4 fruit
          Corner/1  apple 1.9  apple 2.4
          Corner/2  orange 2.2  orange 2.6
        > find apple 'radius > 2.1'
        Corner/1  apple 2.4
        1 of 2 apples matches radius > 2.1
        > remove-largest apple
        removed apple 2.4 from Corner/1
        > list
        Corner: 2 crates, 3 fruit
          Corner/1  apple 1.9
          Corner/2  orange 2.2  orange 2.6
        > undo
        undid Remove Largest Apple
        > delete stand Corner
        deleted stand Corner with 2 crates and 4 fruit
        > list
        (no stands; add one with 'stand add NAME')
        > undo
        undid Delete Stand Corner
        > history
        undo (next first):
          Add Orange 2.2 to Corner/2
          Add Orange 2.6 to Corner/2
          Add Apple 2.4 to Corner/1
          Add Apple 1.9 to Corner/1
          Add Crate Corner/2
          Add Crate Corner/1
          Add Stand Corner
        redo (next first):
          Delete Stand Corner
        > save
        saved to story.sqlite: 7 inserted
        > quit
        bye

        """

    @Test("the story in one process, then the saved store listed by a new process")
    func theWholeStoryAcrossTwoProcesses() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.run(["--store", "story.sqlite", "--script", Self.storyFile.path], in: directory)
        #expect(first.status == 0 && first.errors == "")
        #expect(first.output == Self.storyTranscript)

        // A new process: the saved objects, and no undo steps (the history is the process's).
        let second = try Self.run(["--store", "story.sqlite"], input: "# again\nlist\nhistory\nfind orange radius < 2.5\nquit\n",
                                  in: directory)
        #expect(second.status == 0 && second.errors == "")
        #expect(second.output == """
            > list
            Corner: 2 crates, 4 fruit
              Corner/1  apple 1.9  apple 2.4
              Corner/2  orange 2.2  orange 2.6
            > history
            undo (next first):
              (none)
            redo (next first):
              (none)
            > find orange radius < 2.5
            Corner/2  orange 2.2
            1 of 2 oranges matches radius < 2.5
            > quit
            bye

            """)
    }

    @Test("unsaved changes at the end of the input: warned and dropped, or saved with --autosave")
    func theEndOfInputWarnsOrAutosaves() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try Self.run([], input: "save\n", in: directory)
        #expect(made.output == "> save\nno changes to save\n")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("fruit-stand.sqlite").path),
                "the default store is fruit-stand.sqlite in the current directory")
        let dropped = try Self.run(["--store", "s.sqlite"], input: "stand add Corner\n", in: directory)
        #expect(dropped.output == "> stand add Corner\nadded stand Corner\nwarning: the input ended with unsaved "
                + "changes (1 inserted); they were not saved (use 'save', or --autosave)\n")
        let saved = try Self.run(["--store", "s.sqlite", "--autosave"], input: "stand add Market\nquit\n", in: directory)
        #expect(saved.output == "> stand add Market\nadded stand Market\n> quit\nsaved to s.sqlite: 1 inserted\nbye\n")
        let listed = try Self.run(["--store", "s.sqlite"], input: "list", in: directory)
        #expect(listed.output == "> list\nMarket: 0 crates, 0 fruit\n")
    }

    @Test("a file that is not a store: one line on stderr, exit status 1, the file untouched",
          arguments: ["notes.txt", "other.sqlite", "journal.sqlite", "empty.sqlite", "folder"])
    func aFileThatIsNotAStoreIsLeftAlone(name: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        let reason: String
        switch name {
        case "notes.txt":
            try Data("shopping: apples, oranges\n".utf8).write(to: file)
            reason = "not an SQLite database (no SQLite header)"
        case "other.sqlite":
            try Self.makeOtherDatabase(at: file)
            reason = "not a store in Core Data's SQLite layout (it has no Z_PRIMARYKEY table)"
        case "journal.sqlite":
            try Self.makeStoreOfAnotherModel(at: file)
            reason = "the store was written by an incompatible model (entities only in the model: Apple, Crate, Fruit, Orange, Stand; "
        case "empty.sqlite":
            try Data().write(to: file)
            reason = "not an SQLite database (the file is empty)"
        default:
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            reason = "not an SQLite database (it is a directory)"
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let bytes = name == "folder" ? nil : try Data(contentsOf: file)

        let run = try Self.run(["--store", name], input: "stand add Corner\nsave\n", in: directory)
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(run.errors.hasPrefix("fruit-stand: cannot open the store \(name): \(reason)"), "\(run.errors)")
        #expect(run.errors.hasSuffix("\n") && run.errors.filter { $0 == "\n" }.count == 1, "one line")
        if name != "journal.sqlite" { #expect(run.errors == "fruit-stand: cannot open the store \(name): \(reason)\n") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before,
                "no -wal, -shm or other file made")
        if let bytes { #expect(try Data(contentsOf: file) == bytes) }
    }

    @Test("bad options: a usage line on stderr, exit status 2")
    func badOptions() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(["--bogus"], in: directory)
        #expect(run.status == 2 && run.output == "")
        #expect(run.errors == "fruit-stand: unknown argument '--bogus'; usage: fruit-stand [--store PATH | --in-memory] "
                + "[--autosave] [--script FILE]\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no store made")
    }

    /// Makes a store (Core Data's layout) of a journal model, with one entry.
    static func makeStoreOfAnotherModel(at url: URL) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [.attribute("title", .string)]),
        ])
        let container = PersistentContainer(name: "Journal", model: model)
        container.storeDescriptions = [.sqlite(at: url)]
        try container.loadPersistentStores()
        let context = ManagedObjectContext(coordinator: container.coordinator)
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        try entry.setValue("apples", forKey: "title")
        try context.save()
    }

    /// Makes an SQLite database with one table of another program: a real SQLite file that is
    /// not a store.
    static func makeOtherDatabase(at url: URL) throws {
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        try #require(sqlite3_open(url.path, &database) == SQLITE_OK)
        try #require(sqlite3_exec(database, "CREATE TABLE notes(text); INSERT INTO notes VALUES ('apples');",
                                  nil, nil, nil) == SQLITE_OK)
    }
}
