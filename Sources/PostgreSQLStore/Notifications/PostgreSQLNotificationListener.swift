// A dedicated connection that waits for PostgreSQL notifications (LISTEN/NOTIFY) on a thread of
// its own, and connects and listens again when the connection breaks.
import CLibPQ
import Foundation
import Synchronization

/// A connection of its own that `LISTEN`s on channels and hands every notification to a handler.
///
/// ```swift
/// let listener = try PostgreSQLNotificationListener(url: url, channels: ["og_changes"]) { event in
///     if case .notification(let notification) = event { print(notification.payload) }
/// }
/// // …
/// listener.stop()
/// ```
///
/// The listener makes its connection and issues `LISTEN` before the initializer returns, so a
/// notification committed after that is delivered. A thread of its own then waits on the
/// connection's socket (`poll` on `PQsocket` and on a wake-up pipe, no polling interval), reads
/// what arrived (`PQconsumeInput`) and hands each notification (`PQnotifies`) to the handler,
/// on that thread, in the order the server sent them.
///
/// When the connection breaks (the server restarts, an administrator ends the backend), the
/// thread connects again with a growing pause (50 ms doubling to 2 s), issues `LISTEN` again,
/// and reports ``Event/reconnected``: notifications sent while it was away are lost, so the
/// handler catches up by other means (the store reads the history after its last token).
///
/// ``stop()`` (or the listener's end, `deinit`) wakes the thread, which closes the connection
/// and ends; `stop()` waits for that, so no thread outlives the listener.
///
/// - Important: Thread safety: `Sendable`. The handler runs on the listener's thread; it must
///   not block for long (notifications wait meanwhile), and it may call ``stop()``.
package final class PostgreSQLNotificationListener: Sendable {
    /// One notification (libpq's `PGnotify`).
    package struct Notification: Sendable, Hashable {
        /// The channel it was sent on.
        package var channel: String
        /// Its payload (`NOTIFY channel, 'payload'`; empty when none was given).
        package var payload: String
        /// The server process (backend) of the connection that sent it.
        package var senderProcessID: Int32
    }

    /// What the listener tells its handler.
    package enum Event: Sendable, Hashable {
        /// A notification arrived.
        case notification(Notification)
        /// The connection broke and was made again, listening again: notifications sent in
        /// between were missed.
        case reconnected
    }

    /// The thread's state; `nil` only when not even the wake-up pipe could be made.
    private let loop: PostgreSQLListenerLoop?

    /// Connects, listens on `channels`, and starts the listening thread.
    ///
    /// - Parameters:
    ///   - url: A libpq connection string (a URL or `key=value` pairs), as the store's; the
    ///     connection's `application_name` is `objectgraph-listener` unless the URL names one,
    ///     and connecting gives up after 10 s unless it sets `connect_timeout`.
    ///   - channels: The channel names (identifiers; any text, quoted for the server).
    ///   - handler: Called on the listener's thread with each event.
    /// - Throws: ``PostgreSQLStoreError`` when the first connection or `LISTEN` fails (later
    ///   failures make the listener connect again instead).
    package init(url: String, channels: [String], handler: @escaping @Sendable (Event) -> Void) throws {
        let made = try PostgreSQLListenerLoop(url: url, channels: channels, requiresConnection: true, handler: handler)
        loop = made
        made.start()
    }

    /// Starts listening, connecting on the listener's thread when the server cannot be reached
    /// now: it then keeps trying (with the growing pause) and reports ``Event/reconnected``
    /// once it listens.
    ///
    /// - Parameters:
    ///   - url: A libpq connection string, as for ``init(url:channels:handler:)``.
    ///   - channels: The channel names.
    ///   - handler: Called on the listener's thread with each event.
    package init(connectingTo url: String, channels: [String], handler: @escaping @Sendable (Event) -> Void) {
        // Only the pipe can fail here (the connection is retried); without one the thread
        // could not be stopped, so the listener then does nothing.
        loop = try? PostgreSQLListenerLoop(url: url, channels: channels, requiresConnection: false, handler: handler)
        loop?.start()
    }

    deinit { loop?.stop() }

    /// The server process ID (backend) of the listening connection, or 0 while disconnected
    /// (`PQbackendPID`; for `pg_terminate_backend` in tests and for diagnostics).
    package var backendProcessID: Int32 { loop?.backendProcessID.load(ordering: .acquiring) ?? 0 }

    /// How many times the connection was made again after breaking.
    package var reconnectionCount: Int { loop?.reconnections.load(ordering: .acquiring) ?? 0 }

    /// Whether the listening thread still runs.
    package var isRunning: Bool { !(loop?.hasEnded.load(ordering: .acquiring) ?? true) }

    /// Stops listening: wakes the thread, which closes the connection and ends. Waits until it
    /// has ended, except when called from the handler (on the listener's own thread). Calling
    /// it again does nothing.
    package func stop() { loop?.stop() }
}
