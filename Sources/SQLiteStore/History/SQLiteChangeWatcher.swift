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
        let thread = Thread {
            Self.watch(path: path, seconds: seconds, readsTransactions: readsTransactions, stopped: stopped, report: report)
        }
        thread.name = "SQLiteStore remote changes"
        thread.start()
    }

    /// Ends the watcher (its thread finishes within one interval).
    func stop() { stopped.isSet.store(true, ordering: .relaxed) }

    deinit { stop() }

    private static func watch(path: String, seconds: Double, readsTransactions: Bool, stopped: StopFlag,
                              report: @Sendable (Int64) -> Bool) {
        guard let connection = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
        func dataVersion() -> Int64? { (try? connection.scalar("PRAGMA data_version"))??.integerValue }
        func newestTransaction() -> Int64 {
            let sql = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(SQLiteHistoryLayout.transactionEntity)"
            return (try? connection.scalar(sql))??.integerValue ?? 0
        }
        var version = dataVersion()
        var newest = readsTransactions ? newestTransaction() : 0
        while !stopped.isSet.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: seconds)
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
