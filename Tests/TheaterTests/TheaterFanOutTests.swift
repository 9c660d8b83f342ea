// Two theaters on one PostgreSQL database: a movie added in one appears in the other's listing
// on its next command, through the store's fan-out (not a re-fetch of everything).

import Foundation
import Synchronization
import Testing
@testable import Theater

/// A `theater` process driven line by line through pipes, its output collected as it comes.
final class InteractiveTheater: Sendable {
    private let process: Process
    private let input: Pipe
    private let text = Mutex("")

    init(_ arguments: [String], in directory: URL) throws {
        let program = try #require(TheaterProcessTests.executable(), "theater is not built")
        process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }

    /// Everything printed so far.
    var output: String { text.withLock { $0 } }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Sends `quit` and waits for the end; returns the exit status.
    @discardableResult
    func quit() -> Int32 {
        send("quit")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("Theater: fan-out on PostgreSQL", .serialized)
struct TheaterFanOutTests {
    @Test func anotherSessionsSaveIsMergedOnTheNextCommand() throws {
        try TheaterDatabase.run { database in
            let first = try TheaterSession(store: .postgreSQL(database.url))
            let second = try TheaterSession(store: .postgreSQL(database.url))
            _ = first.execute(setUpOdeon)
            _ = first.execute("add Alien 1979 8.5 117")
            #expect(first.execute("save").hasSuffix(": 2 inserted"))
            // The announcement arrives on the second store's listening connection.
            let deadline = Date().addingTimeInterval(10)
            while second.fanOutWatch?.isPending.load(ordering: .acquiring) != true && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(second.execute("stats").hasPrefix("""
                another process saved: 2 inserted
                + \(odeon)
                +  1 \(alien)
                movies:         1
                """))
            #expect(second.listing.text == listingText([(odeon, [alien])]))
            // Its own save is not reported back to it.
            _ = second.execute("set 1 rating 9")
            #expect(second.execute("save").hasPrefix("saved to"))
            Thread.sleep(forTimeInterval: 0.2)
            #expect(!second.execute("stats").contains("another process saved"))
            #expect(first.execute("stats").hasPrefix("another process saved: 1 updated"))
        }
    }

    @Test func aMovieAddedInOneProcessAppearsInTheOthersListing() throws {
        try TheaterDatabase.run { database in
            let directory = try TheaterStoreTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let watcher = try InteractiveTheater(["--store", database.url], in: directory)
            watcher.send("list")
            let deadline = Date().addingTimeInterval(20)
            while !watcher.output.contains("(no movies)") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(watcher.output.contains("(no movies)"), "\(watcher.output)")

            let (status, output, errors) = try TheaterProcessTests.run(["--store", database.url], input: """
                \(setUpOdeon)
                add "The Matrix" 1999 8.7 136
                save
                quit
                """, in: directory)
            #expect(status == 0 && errors.isEmpty, "\(errors)")
            #expect(output.contains(": 2 inserted"), "\(output)")

            // The watcher's next command shows the new movie, merged from the history.
            while !watcher.output.contains("another process saved") && Date() < deadline {
                watcher.send("stats")
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(watcher.quit() == 0)
            #expect(watcher.output.contains("""
                another process saved: 2 inserted
                + \(odeon)
                +  1 \(matrix)
                """), "\(watcher.output)")
        }
    }
}
