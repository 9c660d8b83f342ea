import Foundation
import Synchronization
import Testing
@testable import PostgreSQLStore

/// What a listener's handler received, in order.
final class ListenerEvents: Sendable {
    private let events = Mutex<[PostgreSQLNotificationListener.Event]>([])

    var all: [PostgreSQLNotificationListener.Event] { events.withLock { $0 } }

    var payloads: [String] {
        all.compactMap { event in
            if case .notification(let notification) = event { return notification.payload }
            return nil
        }
    }

    func record(_ event: PostgreSQLNotificationListener.Event) { events.withLock { $0.append(event) } }
}

/// Waits until `condition` holds, checking every 10 ms for at most `seconds`; returns whether it
/// held.
func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}

/// The dedicated listening connection: LISTEN/NOTIFY on a thread of its own, its end, and
/// connecting again after the server ended the connection.
@Suite struct NotificationListenerTests {
    /// A channel name of its own for each test (the tests share one database).
    static func channel() -> String { "og_test_" + UUID().uuidString.lowercased() }

    /// Whether the server still has a connection with this backend process ID.
    static func backendExists(_ pid: Int32, _ connection: PostgreSQLConnection) throws -> Bool {
        try connection.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::integer", [.integer(Int64(pid))]).rows[0][0] == "1"
    }

    @Test func notificationsArriveInOrderWithTheirChannelAndPayload() throws {
        try TestDatabase.run { database in
            let channel = Self.channel()
            let other = Self.channel()
            let events = ListenerEvents()
            let listener = try PostgreSQLNotificationListener(url: database.url, channels: [channel]) { events.record($0) }
            defer { listener.stop() }
            let sender = try database.connection()
            let hostile = "it's \"quoted\"; NOTIFY x; -- ✓"
            try sender.execute("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text("one")])
            try sender.execute("SELECT pg_notify($1::text, $2::text)", [.text(other), .text("not listened to")])
            try sender.execute("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text(hostile)])
            // Sent in a transaction: delivered at the commit, not before; not at all after a
            // rollback.
            try sender.execute("BEGIN")
            try sender.execute("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text("committed")])
            Thread.sleep(forTimeInterval: 0.1)
            let beforeCommit = events.payloads
            try sender.execute("COMMIT")
            try sender.execute("BEGIN")
            try sender.execute("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text("rolled back")])
            try sender.execute("ROLLBACK")
            #expect(!beforeCommit.contains("committed"))
            #expect(eventually { events.payloads.count == 3 })
            Thread.sleep(forTimeInterval: 0.05)
            #expect(events.payloads == ["one", hostile, "committed"])
            let senderPID = try #require(PostgreSQLRows.integer(try sender.execute("SELECT pg_backend_pid()").rows[0][0]))
            let first = try #require(events.all.first)
            #expect(first == .notification(.init(channel: channel, payload: "one", senderProcessID: Int32(senderPID))))
        }
    }

    @Test func stopEndsTheThreadAndTheConnection() throws {
        try TestDatabase.run { database in
            let channel = Self.channel()
            let events = ListenerEvents()
            let listener = try PostgreSQLNotificationListener(url: database.url, channels: [channel]) { events.record($0) }
            let pid = listener.backendProcessID
            let sender = try database.connection()
            #expect(pid != 0 && listener.isRunning)
            #expect(try Self.backendExists(pid, sender))
            listener.stop()
            // stop() waited for the thread: it has ended and closed its connection.
            #expect(!listener.isRunning && listener.backendProcessID == 0)
            #expect(try eventually { try !Self.backendExists(pid, sender) })
            try sender.execute("SELECT pg_notify($1::text, 'late')", [.text(channel)])
            Thread.sleep(forTimeInterval: 0.1)
            #expect(events.all.isEmpty)
            listener.stop()   // again: nothing happens
        }
    }

    @Test func theListenersEndStopsIt() throws {
        try TestDatabase.run { database in
            let events = ListenerEvents()
            var listener: PostgreSQLNotificationListener? = try PostgreSQLNotificationListener(url: database.url, channels: [Self.channel()]) {
                events.record($0)
            }
            weak let weakListener = listener
            let pid = try #require(listener?.backendProcessID)
            listener = nil
            #expect(weakListener == nil, "the thread holds no reference to the listener")
            let sender = try database.connection()
            #expect(try eventually { try !Self.backendExists(pid, sender) })
        }
    }

    @Test func theHandlerMayStopTheListener() throws {
        try TestDatabase.run { database in
            let channel = Self.channel()
            let events = ListenerEvents()
            let holder = Mutex<PostgreSQLNotificationListener?>(nil)
            let listener = try PostgreSQLNotificationListener(url: database.url, channels: [channel]) { event in
                events.record(event)
                holder.withLock { $0 }?.stop()   // on the listener's own thread: no deadlock
            }
            holder.withLock { $0 = listener }
            let sender = try database.connection()
            try sender.execute("SELECT pg_notify($1::text, 'first')", [.text(channel)])
            #expect(eventually { !listener.isRunning })
            try sender.execute("SELECT pg_notify($1::text, 'second')", [.text(channel)])
            Thread.sleep(forTimeInterval: 0.1)
            #expect(events.payloads == ["first"])
            holder.withLock { $0 = nil }
        }
    }

    @Test func aTerminatedConnectionIsMadeAgainAndListensAgain() throws {
        try TestDatabase.run { database in
            let channel = Self.channel()
            let events = ListenerEvents()
            let listener = try PostgreSQLNotificationListener(url: database.url, channels: [channel]) { events.record($0) }
            defer { listener.stop() }
            let sender = try database.connection()
            let first = listener.backendProcessID
            #expect(try sender.execute("SELECT pg_terminate_backend($1::integer)", [.integer(Int64(first))]).rows[0][0] == "t")
            #expect(eventually { events.all.contains(.reconnected) })
            let second = listener.backendProcessID
            #expect(second != 0 && second != first && listener.reconnectionCount == 1)
            #expect(try sender.execute("SELECT application_name FROM pg_stat_activity WHERE pid = $1::integer",
                                       [.integer(Int64(second))]).rows.first?.first == "objectgraph-listener")
            try sender.execute("SELECT pg_notify($1::text, 'after')", [.text(channel)])
            #expect(eventually { events.payloads == ["after"] })
        }
    }

    @Test func aServerThatCannotBeReachedIsAThrownError() throws {
        do {
            _ = try PostgreSQLNotificationListener(url: "postgresql://nobody:s3cr3t@/nodb?host=/nonexistent-folder", channels: ["c"]) { _ in }
            Issue.record("listening on a server that does not exist")
        } catch let error as PostgreSQLStoreError {
            guard case .connectionFailed = error.code else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("/nonexistent-folder") && !error.description.contains("s3cr3t"))
        }
    }
}
