import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash safety and two writers, with `sqlite-store-crash-helper` (Tests/SQLiteStoreTests/
/// CrashHelper) as the child process.
@Suite(.serialized) struct ReliabilityTests {
    /// The helper's model (kept in step with CrashHelper/main.swift).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [.attribute("serial", .integer64), .attribute("writer", .string),
                                                          .attribute("payload", .string)]),
            EntityDescription(name: "Tally", properties: [.attribute("count", .integer64)]),
        ])
    }

    /// The debug helper beside the test bundle (`swift test` builds it: a dependency).
    static func helper() -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("sqlite-store-crash-helper") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A new store with a Tally at 0.
    static func makeStore(_ url: URL) throws {
        let coordinator = PersistentStoreCoordinator(model: try model())
        try coordinator.addStore(SQLitePersistentStore(url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityNamed: "Tally").setValue(Int64(0), forKey: "count")
        try context.save()
    }

    /// `PRAGMA integrity_check`, the Entry serials, the Tally's count, and whether the key
    /// counter covers every key.
    static func inspect(_ url: URL) throws -> (integrity: String, serials: [Int64], tally: Int64?, countersCover: Bool) {
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        let integrity = try connection.rows("PRAGMA integrity_check").map { row -> String in
            if case .text(let text) = row.first { return text }
            return "?"
        }.joined(separator: "; ")
        let serials = try connection.rows("SELECT ZSERIAL FROM ZENTRY ORDER BY ZSERIAL").compactMap { $0[0].integerValue }
        let tally = try connection.scalar("SELECT ZCOUNT FROM ZTALLY")?.integerValue
        let covers = try connection.scalar("""
            SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Entry') >= (SELECT IFNULL(MAX(Z_PK), 0) FROM ZENTRY)
               AND (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tally') >= (SELECT IFNULL(MAX(Z_PK), 0) FROM ZTALLY)
            """)?.integerValue == 1
        return (integrity, serials, tally, covers)
    }

    @Test func aProcessKilledWhileSavingLeavesExactlyTheCompletedSaves() throws {
        let helper = try #require(Self.helper(), "sqlite-store-crash-helper is not built")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Crash.sqlite")
        try Self.makeStore(url)
        var generator = StoreFuzzTests.SeededGenerator(state: 2026)
        var reported: Int64 = 0
        for round in 0..<100 {
            let process = Process()
            process.executableURL = helper
            process.arguments = ["save-loop", url.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Odd rounds: a kill 20–90 ms after the start, which may fall while it opens the
            // store. Even rounds: once its first save is reported (however long opening takes
            // on a loaded machine), a kill at a random moment of the save loop.
            var text = ""
            if round.isMultiple(of: 2) {
                text = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                usleep(UInt32.random(in: 0...40_000, using: &generator))
            } else {
                usleep(UInt32.random(in: 20_000...90_000, using: &generator))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // Only whole lines: a save is complete once its number is printed.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let last = lines.last.flatMap({ Int64($0) }) { reported = last }

            let state = try Self.inspect(url)
            #expect(state.integrity == "ok", "round \(round)")
            let count = Int64(state.serials.count)
            // The save in flight may have committed before the kill, not printed yet.
            #expect(count == reported || count == reported + 1, "round \(round): \(count) rows, \(reported) reported")
            #expect(state.serials == Array(1...max(count, 1)).prefix(Int(count)).map { $0 }, "round \(round)")
            #expect(state.tally == count, "round \(round)")
            #expect(state.countersCover, "round \(round)")
            reported = count
            // The store opens through the stack as well.
            let coordinator = PersistentStoreCoordinator(model: try Self.model())
            try coordinator.addStore(SQLitePersistentStore(url: url))
        }
        #expect(reported > 0, "the helper saved something")
    }

    @Test func twoProcessesWritingOneStoreLoseNoWrite() throws {
        let helper = try #require(Self.helper(), "sqlite-store-crash-helper is not built")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        try Self.makeStore(url)
        let saves = 40
        let processes = try ["a", "b"].map { writer -> (Process, Pipe) in
            let process = Process()
            process.executableURL = helper
            process.arguments = ["increment", url.path, writer, String(saves)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var conflicts = 0
        for (process, output) in processes {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            conflicts += Int(text.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0)
        }
        let state = try Self.inspect(url)
        #expect(state.integrity == "ok")
        // Every save of each writer read the other's last save (or was refused as a conflict
        // and retried after a reset): no increment is lost.
        #expect(state.tally == Int64(2 * saves), "conflicts reported and retried: \(conflicts)")
        #expect(state.serials.count == 2 * saves)
        let writers = try SQLiteConnection(path: url.path, mode: .readOnly).rows("SELECT ZWRITER, COUNT(*) FROM ZENTRY GROUP BY ZWRITER")
        #expect(writers.count == 2 && writers.allSatisfy { $0[1].integerValue == Int64(saves) })
    }

    @Test func conflictingSavesOfTwoCoordinatorsAreReportedAndSeenAfterARefresh() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Two.sqlite")
        try Self.makeStore(url)
        func open() throws -> ManagedObjectContext {
            let coordinator = PersistentStoreCoordinator(model: try Self.model())
            try coordinator.addStore(SQLitePersistentStore(url: url))
            let context = ManagedObjectContext(coordinator: coordinator)
            // Another coordinator writes the rows: faults and refreshes read the store, not the
            // coordinator's cached rows (Apple: a staleness interval of 0).
            context.stalenessInterval = 0
            return context
        }
        let (first, second) = (try open(), try open())
        let a = try #require(try first.fetch(EntityFetchRequest(entityName: "Tally")).first)
        let b = try #require(try second.fetch(EntityFetchRequest(entityName: "Tally")).first)
        try a.setValue(Int64(1), forKey: "count")
        try first.save()
        try b.setValue(Int64(5), forKey: "count")
        #expect(throws: ManagedObjectMergeError.self) { try second.save() }
        second.refresh(b, mergeChanges: false)
        #expect(b.stored("count") as? Int64 == 1)
        try b.setValue(Int64(2), forKey: "count")
        try second.save()
        first.refresh(a, mergeChanges: false)
        #expect(a.stored("count") as? Int64 == 2)
    }
}
