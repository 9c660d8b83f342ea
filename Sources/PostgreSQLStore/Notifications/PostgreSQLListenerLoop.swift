// The listener's thread: waits on the connection's socket and a wake-up pipe, reads
// notifications, and connects again after the connection breaks.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibPQ
import Foundation
import ObjectGraphInternals
import SQLCompiling
import Synchronization

/// The state and the thread of a ``PostgreSQLNotificationListener``.
///
/// - Important: Thread safety: the connection is used by the initializer until ``start()``,
///   then by the listening thread alone; the rest is atomics and constants.
// @unchecked Sendable: `connection` is touched by one thread at a time: by `init` until `start()`
// starts the thread (starting a thread orders the accesses), then only by that thread (`run()`,
// then `deinit`, which runs after the thread released its reference). Everything else is
// immutable or atomic.
final class PostgreSQLListenerLoop: @unchecked Sendable {
    private let url: String
    private let channels: [String]
    private let handler: @Sendable (PostgreSQLNotificationListener.Event) -> Void
    private var connection: OpaquePointer?
    /// The pipe `stop()` writes to, so that the thread's `poll` returns at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    let backendProcessID = Atomic<Int32>(0)
    let reconnections = Atomic<Int>(0)
    let hasEnded = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    /// The listening thread's identity, to recognise `stop()` called from the handler.
    private let threadIdentity = Mutex<ObjectIdentifier?>(nil)

    /// The first pause before connecting again, and the longest.
    static let firstPause: Duration = .milliseconds(50)
    static let longestPause: Duration = .seconds(2)

    /// Makes the pipe and the first connection; when `requiresConnection` is `false`, a first
    /// connection that fails is left to the thread, which tries again.
    init(url: String, channels: [String], requiresConnection: Bool,
         handler: @escaping @Sendable (PostgreSQLNotificationListener.Event) -> Void) throws {
        self.url = url
        self.channels = channels
        self.handler = handler
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PostgreSQLStoreError(.unsupported("the listener cannot make its wake-up pipe (errno \(errno))"), server: "(listener)")
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        do {
            let made = try Self.connect(url: url, channels: channels)
            connection = made
            backendProcessID.store(PQbackendPID(made), ordering: .releasing)
        } catch where !requiresConnection {
            connection = nil
        } catch {
            close(wakeRead)
            close(wakeWrite)
            throw error
        }
    }

    deinit {
        if let connection { PQfinish(connection) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the listening thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ObjectGraph PostgreSQL listener"
        threadIdentity.withTrackedLock(self) { $0 = ObjectIdentifier(thread) }
        thread.start()
    }

    /// Asks the thread to end and waits for it (unless called on that thread).
    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        let identity = threadIdentity.withTrackedLock(self) { $0 }
        guard let identity, identity != ObjectIdentifier(Thread.current) else { return }
        ended.wait()
    }

    // MARK: - The thread

    private func run() {
        var pause = Self.firstPause
        while !stopRequested.load(ordering: .acquiring) {
            guard let connection else {
                if waitForWakeUp(milliseconds: Self.milliseconds(pause)) { break }
                do {
                    let made = try Self.connect(url: url, channels: channels)
                    self.connection = made
                    backendProcessID.store(PQbackendPID(made), ordering: .releasing)
                    reconnections.add(1, ordering: .releasing)
                    pause = Self.firstPause
                    handler(.reconnected)
                } catch {
                    pause = min(pause * 2, Self.longestPause)
                }
                continue
            }
            // Notifications read along with an earlier result (the LISTEN's) are already queued.
            deliverNotifications(of: connection)
            let wait = waitForInput(on: connection)
            if wait == .wokenUp { break }
            if wait == .broken || PQconsumeInput(connection) == 0 || PQstatus(connection) != CONNECTION_OK {
                deliverNotifications(of: connection)
                dropConnection()
            }
        }
        dropConnection()
        hasEnded.store(true, ordering: .releasing)
        ended.signal()
    }

    private enum Wait { case wokenUp, input, broken }

    /// Waits until the socket has input or `stop()` wrote to the pipe.
    private func waitForInput(on connection: OpaquePointer) -> Wait {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return .broken }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            let count = poll(&descriptors, 2, -1)
            if count < 0 {
                if errno == EINTR { continue }
                return .broken
            }
            if descriptors[1].revents != 0 { return .wokenUp }
            if descriptors[0].revents & Int16(POLLNVAL) != 0 { return .broken }
            // POLLIN, POLLHUP, POLLERR: PQconsumeInput reads what is there and tells.
            if descriptors[0].revents != 0 { return .input }
        }
    }

    /// Waits for `stop()` at most `milliseconds`; returns whether it was called.
    private func waitForWakeUp(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        let count = poll(&descriptor, 1, milliseconds)
        return count > 0 || stopRequested.load(ordering: .acquiring)
    }

    /// Hands every queued notification to the handler.
    private func deliverNotifications(of connection: OpaquePointer) {
        while let notify = PQnotifies(connection) {
            let notification = PostgreSQLNotificationListener.Notification(
                channel: String(cString: notify.pointee.relname),
                payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
                senderProcessID: notify.pointee.be_pid)
            PQfreemem(notify)
            handler(.notification(notification))
        }
    }

    private func dropConnection() {
        if let connection { PQfinish(connection) }
        connection = nil
        backendProcessID.store(0, ordering: .releasing)
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

extension PostgreSQLListenerLoop {
    /// Connects (libpq's `PQconnectdbParams`, the URL expanded last so that what it says wins)
    /// and issues `LISTEN` for each channel.
    static func connect(url: String, channels: [String]) throws -> OpaquePointer {
        let keywords = ["fallback_application_name", "connect_timeout", "dbname"]
        let values = ["objectgraph-listener", "10", url]
        let made = withCStringArray(keywords) { keywords in
            withCStringArray(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle = made else {
            throw PostgreSQLStoreError(.connectionFailed("out of memory"), server: "(unknown)")
        }
        let server = (PQhost(handle).map { String(cString: $0) } ?? "localhost") + "/"
            + (PQdb(handle).map { String(cString: $0) } ?? "")
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw PostgreSQLStoreError(.connectionFailed(message), server: server)
        }
        // The server's messages outside a statement (the FATAL before it ends the connection)
        // would go to standard error: the listener tells its handler instead.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        for channel in channels {
            let statement = "LISTEN " + SQLDialect.postgreSQL.quoted(channel)
            let result = PQexec(handle, statement)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
                let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
                PQfinish(handle)
                throw PostgreSQLStoreError(.statementFailed(message: message, sqlState: state, statement: statement), server: server)
            }
        }
        return handle
    }

    /// Runs `body` with a NULL-terminated array of C strings that live for the call.
    private static func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
