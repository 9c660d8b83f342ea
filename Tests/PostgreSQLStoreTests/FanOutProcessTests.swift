import Foundation
import ManagedObjects
import Synchronization
import Testing
@testable import PostgreSQLStore

/// A child process (`pg-fanout-helper`) whose standard output lines are collected as they come.
final class ChildProcess: Sendable {
    private let process: Process
    private let input: Pipe
    private let lines = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    /// The debug helper beside the test bundle (`swift test` builds it: a dependency).
    static func helper() -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("pg-fanout-helper") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts the helper with `arguments`.
    init(_ arguments: [String]) throws {
        let helper = try #require(Self.helper(), "pg-fanout-helper is not built")
        process = Process()
        process.executableURL = helper
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer: [UInt8] = []
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                for byte in chunk {
                    if byte == UInt8(ascii: "\n") {
                        let line = String(decoding: buffer, as: UTF8.self)
                        lines.withLock { $0.append(line) }
                        buffer.removeAll()
                    } else {
                        buffer.append(byte)
                    }
                }
            }
            done.signal()
        }
    }

    /// The lines printed so far.
    var output: [String] { lines.withLock { $0 } }

    /// Closes the child's standard input and waits for it to end; returns its exit status.
    @discardableResult
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        _ = done.wait(timeout: .now() + 10)
        return process.terminationStatus
    }
}

/// Fan-out between processes: a child process saves, the parent's fetched results controller
/// shows the insert; the parent saves, the child's controller shows it.
@Suite(.serialized) struct FanOutProcessTests {
    @Test func anInsertInAnotherProcessReachesThisProcesssFetchedResultsController() throws {
        try TestDatabase.run { database in
            let parent = try FanOutPeer(database)
            let child = try ChildProcess(["save", database.url, database.schema, "Alien", "Brazil"])
            #expect(child.finish() == 0)
            #expect(child.output == ["saved Alien", "saved Brazil"])
            #expect(eventually { parent.shownTitles == ["Alien", "Brazil"] }, "\(parent.shownTitles)")
            #expect(parent.recorder.inserted.sorted() == ["Alien", "Brazil"])
            let transactions = try parent.context.performAndWait { try parent.context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions }
            #expect(transactions.map(\.author) == ["helper", "helper"])
            #expect(transactions.allSatisfy { $0.processIdentifier == "pg-fanout-helper" })
        }
    }

    @Test func anInsertInThisProcessReachesAnotherProcesssFetchedResultsController() throws {
        try TestDatabase.run { database in
            let parent = try FanOutPeer(database)
            let child = try ChildProcess(["watch", database.url, database.schema])
            defer { child.finish() }
            #expect(eventually { child.output == ["ready"] })
            try parent.save(["Casablanca"])
            #expect(eventually { child.output == ["ready", "shown Casablanca"] }, "\(child.output)")
        }
    }
}
