// Noticing other connections' commits to a store file: a thread that asks SQLite's
// `PRAGMA data_version` at an interval.
import Foundation
import Synchronization

/// A thread watching one store file for commits made through other connections (other
/// coordinators or processes) while a store posts remote changes.
///
/// Every `interval` it asks its own connection for `PRAGMA data_version`, which changes when
/// another connection has committed; only then does it read the newest transaction number
/// (`Z_PRIMARYKEY`'s `TRANSACTION` counter) and report it when it grew. A check reads no
/// rows, so the cost does not grow with the store; a commit is noticed at most `interval`
/// after it happened (plus the time to run the handler).
///
/// - Important: Thread safety: `Sendable`; the connection lives on the watcher's thread only.
final class SQLiteChangeWatcher: Sendable {
    /// Set by ``stop()``; read by the thread before each check.
    private final class StopFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }
    private let stopped = StopFlag()

    /// Starts watching.
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - interval: The time between two checks.
    ///   - readsTransactions: Whether to report the newest transaction number (history on) or
    ///     every commit (history off, reported as 0).
    ///   - report: Called on the watcher's thread; returns `false` when the store is gone, which
    ///     ends the watcher.
    init(path: String, interval: Duration, readsTransactions: Bool, report: @escaping @Sendable (Int64) -> Bool) {
        let stopped = self.stopped
        let seconds = max(0.001, Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        // The connection and its first readings are made here, before `init` returns: a commit
        // made after the store starts posting is never mistaken for the starting state, however
        // late the thread starts.
        guard let connection = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
        let start = Start(connection: connection, readsTransactions: readsTransactions)
        let thread = Thread {
            Self.watch(start, seconds: seconds, readsTransactions: readsTransactions, stopped: stopped, report: report)
        }
        thread.name = "SQLiteStore remote changes"
        thread.start()
    }

    /// Ends the watcher (its thread finishes within one interval).
    func stop() { stopped.isSet.store(true, ordering: .relaxed) }

    deinit { stop() }

    /// The watcher's connection with its first readings, handed from the starting thread to
    /// the watcher's thread.
    ///
    /// `@unchecked Sendable` because `SQLiteConnection` is not `Sendable`: the starting thread
    /// makes it and never touches it after handing it over; from then on only the watcher's
    /// thread uses it.
    private struct Start: @unchecked Sendable {
        let connection: SQLiteConnection
        let version: Int64?
        let newest: Int64

        init(connection: SQLiteConnection, readsTransactions: Bool) {
            self.connection = connection
            version = Self.dataVersion(connection)
            newest = readsTransactions ? Self.newestTransaction(connection) : 0
        }

        static func dataVersion(_ connection: SQLiteConnection) -> Int64? {
            (try? connection.scalar("PRAGMA data_version"))??.integerValue
        }

        static func newestTransaction(_ connection: SQLiteConnection) -> Int64 {
            let sql = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(SQLiteHistoryLayout.transactionEntity)"
            return (try? connection.scalar(sql))??.integerValue ?? 0
        }
    }

    private static func watch(_ start: Start, seconds: Double, readsTransactions: Bool, stopped: StopFlag,
                              report: @Sendable (Int64) -> Bool) {
        let connection = start.connection
        func dataVersion() -> Int64? { Start.dataVersion(connection) }
        func newestTransaction() -> Int64 { Start.newestTransaction(connection) }
        var version = start.version
        var newest = start.newest
        while !stopped.isSet.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: seconds)
            if stopped.isSet.load(ordering: .relaxed) { return }
            let current = dataVersion()
            guard current != version else { continue }
            version = current
            if readsTransactions {
                let number = newestTransaction()
                guard number > newest else { continue }
                newest = number
                if !report(number) { return }
            } else if !report(0) {
                return
            }
        }
    }
}
