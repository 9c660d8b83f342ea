// The built `theater` executable: the README's demo, and a second process saving into the store
// file an in-process session works on.

import Foundation
import Testing
@testable import Theater

@Suite("Theater: processes", .serialized)
struct TheaterProcessTests {
    /// The repository root (this file is Tests/TheaterTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The debug `theater` beside the test bundle (the test target depends on it, so
    /// `swift build --build-tests` and `swift test` build it).
    static func executable() -> URL? {
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("theater") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `theater` in `directory` with `arguments`, feeding `input` on stdin; returns the
    /// exit status, stdout and stderr.
    static func run(_ arguments: [String], input: String = "", in directory: URL) throws -> (Int32, String, String) {
        let program = try #require(executable(), "theater is not built")
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
        return (process.terminationStatus, try String(contentsOf: files[1], encoding: .utf8),
                try String(contentsOf: files[2], encoding: .utf8))
    }

    @Test func aSecondProcessSavingIntoTheStoreIsMergedIntoTheListing() throws {
        let directory = try TheaterStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("theater.sqlite")
        let session = try TheaterSession(store: .file(file))
        _ = session.execute(setUpOdeon)
        _ = session.execute("add Alien 1979 8.5 117")
        _ = session.execute("save")

        // The default store is theater.sqlite in the current directory.
        let (status, output, errors) = try Self.run([], input: """
            add "The Matrix" 1999 8.7 136
            set 1 rating 9
            save
            quit
            """, in: directory)
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        // The theater counts as updated: its to-many `movies` changed.
        #expect(output.contains("saved to theater.sqlite: 1 inserted, 2 updated"), "\(output)")

        // The in-process session merges it before its next command: one row inserted, one updated.
        let alien9 = " Alien                       1979     9.0   117 min"
        #expect(session.execute("stats") == """
            another process saved: 1 inserted, 2 updated
            +  2 \(matrix)
            ~  1 \(alien9)
            movies:         2
            average rating: 8.85
            latest year:    1999
            total minutes:  253 (4 h 13 min)
              Odeon (London): 2 movies, average rating 8.85, 253 min
            """)
        #expect(session.listing.text == listingText([(odeon, [alien9, matrix])]))
        #expect(!session.context.hasChanges)
    }

    @Test func theDemoRunsAsTheReadmeShows() throws {
        let directory = try TheaterStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = Self.root.appendingPathComponent("Samples/Data/theater/demo.txt").path
        let (status, output, errors) = try Self.run(["--store", "demo.sqlite", "--script", demo], in: directory)
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        #expect(output.contains("error: no movie at index 7 (choose 1 to 4)"))
        #expect(output.contains("error: movies have no key 'colour'"))
        #expect(output.hasSuffix("> quit\nbye\n"))
        // Started again on the same file: the same program.
        let (_, again, _) = try Self.run(["--store", "demo.sqlite"], input: "list\n", in: directory)
        let listed = output.components(separatedBy: "> list\n").last?.components(separatedBy: "\n> quit").first
        #expect(again == "> list\n" + (listed ?? "?") + "\n")
    }

    @Test func aFileThatIsNotAStoreEndsTheProgramWithOneLine() throws {
        let directory = try TheaterStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("hello".utf8).write(to: directory.appendingPathComponent("bad.sqlite"))
        let (status, output, errors) = try Self.run(["--store", "bad.sqlite"], input: "list\n", in: directory)
        #expect(status == 1 && output.isEmpty)
        #expect(errors.hasPrefix("theater: cannot open the store bad.sqlite: ") && errors.filter { $0 == "\n" }.count == 1)
    }
}
