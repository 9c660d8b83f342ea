import Foundation
import Testing
import ManagedObjects
import Synchronization
import TestSupport
@testable import PostgreSQLStore

/// The server stopped in the middle of saves; four processes saving to overlapping objects
/// (`postgresql-store-stress-helper`, Tests/PostgreSQLStoreTests/StressHelper).
@Suite(.serialized) struct ReliabilityTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [.attribute("batch", .integer64)]),
            EntityDescription(name: "Tally", properties: [.attribute("count", .integer64)]),
        ])
    }

    /// The helper's model (kept in step with StressHelper/main.swift).
    static func counterModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Counter", properties: [.attribute("slot", .integer64), .attribute("count", .integer64)]),
        ])
    }

    /// The debug helper beside the test bundle (`swift test` builds it: a dependency).
    static func helper() -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          root.appendingPathComponent(".build/debug")].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("postgresql-store-stress-helper") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What the saving thread saw.
    struct Outcomes {
        var saved: [Int64] = []          // batches whose save returned
        var unknown: [Int64] = []        // batches whose COMMIT outcome is unknown
        var failed: [Int64] = []         // batches refused with a connection error
        var otherErrors: [String] = []   // anything else (the test fails on these)
        var savedAfterRestart = 0
    }

    @Test func theServerStoppedDuringSavesLeavesNoHalfSaveAndTheStoreReconnects() throws {
        let server = try PrivateServer()
        defer { server.remove() }
        final class Shared: Sendable {
            let outcomes = Mutex(Outcomes())
            let restarted = Atomic<Bool>(false)
            let finish = Atomic<Bool>(false)
        }
        let shared = Shared()
        struct NoTally: Error {}
        let entriesPerSave: Int64 = 5
        let url = server.url
        let saver = Thread {
            do {
                let coordinator = PersistentStoreCoordinator(model: try Self.model())
                try coordinator.addStore(PostgreSQLPersistentStore(url: url, options: PostgreSQLStoreOptions(
                    poolSize: 2, connectTimeout: .seconds(2), statementTimeout: .seconds(10))))
                let context = ManagedObjectContext(coordinator: coordinator)
                try context.insertNewObject(forEntityNamed: "Tally").setValue(Int64(0), forKey: "count")
                try context.save()
                var batch: Int64 = 0
                while !shared.finish.load(ordering: .relaxed) {
                    batch += 1
                    do {
                        guard let tally = try context.fetch(EntityFetchRequest(entityName: "Tally")).first else { throw NoTally() }
                        try tally.setValue(((try tally.value(forKey: "count") as? Int64) ?? 0) + 1, forKey: "count")
                        for _ in 0..<entriesPerSave {
                            try context.insertNewObject(forEntityNamed: "Entry").setValue(batch, forKey: "batch")
                        }
                        try context.save()
                        let after = shared.restarted.load(ordering: .relaxed)
                        shared.outcomes.withLock { $0.saved.append(batch); if after { $0.savedAfterRestart += 1 } }
                    } catch let error as PostgreSQLStoreError where error.isConnectionFailure {
                        if case .commitOutcomeUnknown = error.code {
                            shared.outcomes.withLock { $0.unknown.append(batch) }
                        } else {
                            shared.outcomes.withLock { $0.failed.append(batch) }
                        }
                        context.reset()   // start the next save from what the store holds
                        Thread.sleep(forTimeInterval: 0.02)
                    }
                }
            } catch {
                shared.outcomes.withLock { $0.otherErrors.append("\(error)") }
            }
        }
        saver.start()
        func wait(_ condition: (Outcomes) -> Bool) throws {
            let deadline = Date().addingTimeInterval(30)
            while !shared.outcomes.withLock({ condition($0) || !$0.otherErrors.isEmpty }) {
                guard Date() < deadline else { throw PrivateServer.Failure(description: "timed out: \(shared.outcomes.withLock { $0 })") }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        try wait { $0.saved.count >= 20 }
        try server.stop(mode: "immediate")   // mid-save, most likely
        try wait { $0.failed.count + $0.unknown.count >= 3 }
        try server.start()
        shared.restarted.store(true, ordering: .relaxed)
        try wait { $0.savedAfterRestart >= 5 }
        shared.finish.store(true, ordering: .relaxed)
        while !saver.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        let seen = shared.outcomes.withLock { $0 }
        #expect(seen.otherErrors.isEmpty, "\(seen.otherErrors)")
        #expect(!seen.failed.isEmpty, "the client reported the stopped server")
        let check = try PostgreSQLConnection(url: url)
        var applied: [Int64: Int64] = [:]
        for row in try check.execute("SELECT \"ZBATCH\", count(*) FROM \"ZENTRY\" GROUP BY 1").rows {
            applied[try #require(PostgreSQLRows.integer(row[0]))] = PostgreSQLRows.integer(row[1]) ?? -1
        }
        // No save is half applied: each batch has all its entries or none.
        #expect(applied.values.allSatisfy { $0 == entriesPerSave }, "\(applied)")
        // Every save that returned is there; a refused one is not; one whose COMMIT outcome is
        // unknown may be.
        #expect(Set(seen.saved).isSubset(of: applied.keys))
        #expect(Set(applied.keys).isSubset(of: Set(seen.saved).union(seen.unknown)))
        #expect(Set(seen.failed).isDisjoint(with: applied.keys))
        // The tally moved once per applied save, and so did its row version.
        let tally = try check.execute("SELECT \"ZCOUNT\", \"Z_OPT\" FROM \"ZTALLY\"").rows
        #expect(tally == [[String(applied.count), String(applied.count + 1)]])
    }

    @Test func fourProcessesSavingOverlappingCountersLoseNoUpdate() throws {
        let helper = try #require(Self.helper(), "postgresql-store-stress-helper is not built")
        try TestDatabase.run { database in
            let slots = 4
            let saves = 1_000
            do {
                let coordinator = PersistentStoreCoordinator(model: try Self.counterModel())
                try coordinator.addStore(database.store())
                let context = ManagedObjectContext(coordinator: coordinator)
                for slot in 0..<slots {
                    let counter = try context.insertNewObject(forEntityNamed: "Counter")
                    try counter.setValue(Int64(slot), forKey: "slot")
                    try counter.setValue(Int64(0), forKey: "count")
                }
                try context.save()
            }
            let processes = try (0..<4).map { writer -> (Process, Pipe, Pipe) in
                let process = Process()
                process.executableURL = helper
                process.arguments = ["increment", database.url, database.schema, String(writer), String(saves), String(slots)]
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                return (process, output, errors)
            }
            var succeeded = 0
            var conflicts = 0
            for (process, output, errors) in processes {
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(text) \(problems)")
                let words = text.split(whereSeparator: \.isWhitespace)
                guard words.count == 3, words[0] == "done", let done = Int(words[1]), let refused = Int(words[2]) else {
                    Issue.record("unexpected output: \(text) \(problems)")
                    continue
                }
                #expect(done == saves)
                succeeded += done
                conflicts += refused
            }
            let check = try database.connection()
            let rows = try check.execute("SELECT sum(\"ZCOUNT\"), sum(\"Z_OPT\" - 1) FROM \"ZCOUNTER\"").rows
            // The counts add up to the successful saves; every save moved one row version
            // once: no update was lost, and each refused save was reported as a conflict.
            #expect(rows == [[String(succeeded), String(succeeded)]], "conflicts reported: \(conflicts)")
            #expect(succeeded == 4 * saves)
        }
    }
}
