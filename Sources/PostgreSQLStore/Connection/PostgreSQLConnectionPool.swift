// A small pool of libpq connections: one per concurrent caller, reconnecting after a loss.
import Dispatch
import Foundation
import ObjectGraphInternals
import Synchronization

/// The store's connections: at most ``PostgreSQLConnectionConfiguration/poolSize`` open, each
/// used by one caller at a time, opened on demand and kept for the next caller.
///
/// A connection that fails (the server restarted, the network broke) is closed, and so are the
/// idle ones (a restarted server has dropped them all). A call that may safely run again is
/// retried once on a new connection: a read, a whole transaction lost before its `COMMIT` (the
/// server rolled it back). A transaction lost during its `COMMIT` is never retried:
/// ``PostgreSQLStoreError/Code/commitOutcomeUnknown(_:)`` reaches the caller.
///
/// - Important: Thread safety: `Sendable`; callers beyond the pool's size wait for a
///   connection.
package final class PostgreSQLConnectionPool: Sendable {
    package let configuration: PostgreSQLConnectionConfiguration
    /// Runs on each new connection before its first use (the store's `search_path`).
    private let setUp: @Sendable (PostgreSQLConnection) throws -> Void
    // Taken with `withTrackedLock`: the thread sanitizer cannot see `Mutex`.
    private let idle = Mutex<[PostgreSQLConnection]>([])
    /// One permit per connection of the pool.
    private let permits: DispatchSemaphore
    /// How many connections were opened (for tests: reconnection is visible).
    private let opened = Atomic<Int>(0)

    /// A pool (no connection is made before the first call).
    ///
    /// - Parameters:
    ///   - configuration: How to connect, and the pool's size.
    ///   - setUp: Runs on every new connection; its error fails the call.
    package init(configuration: PostgreSQLConnectionConfiguration,
                 setUp: @escaping @Sendable (PostgreSQLConnection) throws -> Void = { _ in }) {
        self.configuration = configuration
        self.setUp = setUp
        self.permits = DispatchSemaphore(value: configuration.poolSize)
    }

    /// How many connections the pool has opened so far.
    package var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// How many connections wait idle.
    package var idleCount: Int { idle.withTrackedLock(self) { $0.count } }

    /// Runs `body` with a connection of its own.
    ///
    /// - Parameters:
    ///   - retrying: Whether `body` may run a second time, on a new connection, when the
    ///     connection is lost during the first (`false` for work that must not repeat).
    ///   - body: The work; it must leave the connection outside any transaction.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgreSQLStoreError/Code/connectionFailed(_:)`` when no connection can be
    ///   made; what `body` throws (after the retry, if any).
    @discardableResult
    package func withConnection<T>(retrying: Bool = true, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        permits.wait()
        defer { permits.signal() }
        var attempts = 0
        while true {
            attempts += 1
            let connection = try checkOut()
            do {
                let value = try body(connection)
                checkIn(connection)
                return value
            } catch let error as PostgreSQLStoreError where connection.isBroken || !connection.isConnected {
                // Every idle connection shared the server that went away: close them too.
                drain()
                guard retrying, attempts == 1, case .connectionLost = error.code else { throw error }
            } catch {
                checkIn(connection)
                throw error
            }
        }
    }

    /// Closes every idle connection (the next calls connect anew).
    package func drain() {
        let closing = idle.withTrackedLock(self) { connections -> [PostgreSQLConnection] in
            defer { connections.removeAll() }
            return connections
        }
        _ = closing   // released here, outside the lock: PQfinish may wait on the network
    }

    private func checkOut() throws -> PostgreSQLConnection {
        if let connection = idle.withTrackedLock(self, { $0.popLast() }) { return connection }
        let connection = try PostgreSQLConnection(configuration: configuration)
        opened.add(1, ordering: .relaxed)
        try setUp(connection)
        return connection
    }

    private func checkIn(_ connection: PostgreSQLConnection) {
        guard connection.isConnected, connection.isIdle else { return }
        idle.withTrackedLock(self) { $0.append(connection) }
    }
}
