// pg_fanout_latency: a save in process A until process B's context has merged it, through the
// PostgreSQL store's fan-out (NOTIFY in the save's transaction → B's listening connection → B's
// coordinator's remote-change notification → history fetched after B's last token → merged into
// B's context). Median and 99th percentile in milliseconds, with 1 and with 8 listening
// processes. Latencies are not ns/op beside a baseline, so these lines have their own form:
//
//     pg_fanout_latency_1   median  1.23 ms  p99  3.45 ms  (200 saves × 1 listener; …)
//
// Needs a server: OBJECTGRAPH_POSTGRES_URL (`Scripts/with-postgres.sh swift run -c release
// benchmarks --filter pg_fanout`); without it the line says "skipped". The listening processes
// are this executable again, started with `--pg-fanout-listener URL SCHEMA`.

import Foundation
import ObjectGraph
import Synchronization

enum PostgreSQLFanOutBenchmark {
    static let name = "pg_fanout_latency"
    static let listenerFlag = "--pg-fanout-listener"

    /// Whether `--filter` selects the workload.
    static func isSelected(by filter: String?) -> Bool {
        filter.map { name.contains($0) || "\(name)_1".contains($0) || "\(name)_8".contains($0) } ?? true
    }

    /// The `--list` line.
    static let listing = "\(name)_1, \(name)_8  (median and p99 ms from a save in one process until another's context merged it; needs OBJECTGRAPH_POSTGRES_URL)"

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Item", properties: [.attribute("serial", .integer64)])])
    }

    // MARK: - The listening process

    /// When started as a listener (`--pg-fanout-listener URL SCHEMA`), follows the store's
    /// remote changes, prints `merged <key>` for each inserted object once its context merged
    /// it, and exits when standard input closes. Otherwise returns.
    static func runListenerIfAsked() {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, arguments[1] == listenerFlag else { return }
        do {
            let coordinator = PersistentStoreCoordinator(model: try model())
            try coordinator.addStore(PostgreSQLPersistentStore(url: arguments[2], schema: arguments[3], tracksPersistentHistory: true,
                                                               postsRemoteChangeNotifications: true))
            let follower = Follower(context: ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator),
                                    token: try coordinator.currentPersistentHistoryToken())
            let observation = coordinator.onRemoteChange { _ in follower.catchUp() }
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            while readLine() != nil {}
            observation.cancel()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("benchmarks listener: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Merges the history after its last token into its context, on the context's queue.
    final class Follower: Sendable {
        // @unchecked Sendable: the context is used only inside its own perform blocks.
        private struct Box: @unchecked Sendable { let context: ManagedObjectContext }
        private let box: Box
        private let token: Mutex<PersistentHistoryToken?>

        init(context: ManagedObjectContext, token: PersistentHistoryToken?) {
            box = Box(context: context)
            self.token = Mutex(token)
        }

        func catchUp() {
            box.context.perform { [self] context in
                let last = token.withLock { $0 }
                guard let transactions = try? context.execute(.fetchHistory(after: last)).transactions,
                      !transactions.isEmpty else { return }
                context.mergeChanges(fromHistory: transactions)
                token.withLock { $0 = transactions.last?.token ?? last }
                var lines = ""
                for change in transactions.flatMap(\.changes) where change.changeType == .insert {
                    if case .integer(let key) = change.changedObjectID.referenceObject { lines += "merged \(key)\n" }
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        }
    }

    // MARK: - The saving process

    /// Runs the workload with 1 and with 8 listeners and prints a line for each.
    static func run(quick: Bool) {
        guard let url = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty else {
            print("\(name)  skipped (set OBJECTGRAPH_POSTGRES_URL, or run under Scripts/with-postgres.sh)")
            return
        }
        for listeners in [1, 8] {
            do {
                let saves = quick ? 20 : (listeners == 1 ? 200 : 100)
                print(try measure(url: url, listeners: listeners, saves: saves))
            } catch {
                print("\(name)_\(listeners)  failed: \(error)")
            }
        }
    }

    /// One line: `saves` saves, each timed until every listener merged it.
    static func measure(url: String, listeners: Int, saves: Int) throws -> String {
        let schema = "bench_fanout_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let coordinator = PersistentStoreCoordinator(model: try model())
        let store = PostgreSQLPersistentStore(url: url, schema: schema, tracksPersistentHistory: true, postsRemoteChangeNotifications: true)
        try coordinator.addStore(store)
        defer { try? store.destroy() }
        let children = try (0..<listeners).map { _ in try Listener(url: url, schema: schema) }
        defer { for child in children { child.finish() } }
        for child in children { try child.waitForLine("ready") }
        let context = ManagedObjectContext(coordinator: coordinator)
        var samples: [Double] = []
        for serial in 0..<(saves + 5) {
            let item = try context.insertNewObject(forEntityNamed: "Item")
            try item.setValue(Int64(serial), forKey: "serial")
            let start = ContinuousClock.now
            try context.save()
            guard case .integer(let key) = item.objectID.referenceObject else { continue }
            for child in children {
                let arrival = try child.waitForMerge(of: key)
                // The first five are warm-up (connections, caches, first statements).
                if serial >= 5 { samples.append(milliseconds(arrival - start)) }
            }
            context.reset()
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, Int((Double(samples.count) * 0.99).rounded(.up)) - 1)]
        let label = "\(name)_\(listeners)"
        return label.padding(toLength: 24, withPad: " ", startingAt: 0)
            + "  median " + format(median) + " ms  p99 " + format(p99) + " ms"
            + "  (\(saves) saves × \(listeners) listening process\(listeners == 1 ? "" : "es"), \(samples.count) samples; save in A until B's context merged it)"
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) * 1e-15
    }

    static func format(_ value: Double) -> String { String(format: "%6.2f", value) }

    /// A listening process and the times its lines arrived.
    final class Listener: Sendable {
        private let process: Process
        private let input: Pipe
        private let arrivals = Mutex<(lines: [String], merged: [Int64: ContinuousClock.Instant])>(([], [:]))
        private let arrived = DispatchSemaphore(value: 0)

        init(url: String, schema: String) throws {
            process = Process()
            process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [listenerFlag, url, schema]
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
                    let now = ContinuousClock.now
                    for byte in chunk {
                        guard byte == UInt8(ascii: "\n") else { buffer.append(byte); continue }
                        let line = String(decoding: buffer, as: UTF8.self)
                        buffer.removeAll()
                        arrivals.withLock { state in
                            if line.hasPrefix("merged "), let key = Int64(line.dropFirst(7)) { state.merged[key] = now } else { state.lines.append(line) }
                        }
                        arrived.signal()
                    }
                }
                arrived.signal()
            }
        }

        struct Timeout: Error, CustomStringConvertible { var description: String }

        func waitForLine(_ line: String) throws {
            while !arrivals.withLock({ $0.lines.contains(line) }) {
                guard arrived.wait(timeout: .now() + 30) == .success, process.isRunning else {
                    throw Timeout(description: "a listening process did not print '\(line)'")
                }
            }
        }

        func waitForMerge(of key: Int64) throws -> ContinuousClock.Instant {
            while true {
                if let instant = arrivals.withLock({ $0.merged[key] }) { return instant }
                guard arrived.wait(timeout: .now() + 30) == .success else {
                    throw Timeout(description: "a listening process did not merge object \(key) within 30 s")
                }
            }
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
