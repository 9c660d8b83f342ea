// Fan-out: a save in one process reaches every other process on the same database. The saving
// store sends NOTIFY (the new history token) in the save's transaction; every other store of
// the database listens on a connection of its own and reports the change to its coordinator,
// which posts the remote-change notification.
import Foundation
import ObjectGraphInternals
import ManagedObjects

/// A store's history and fan-out settings and its listener.
struct PostgreSQLFanOutState {
    /// Whether saves record persistent history.
    var tracksHistory = false
    /// Whether the store reports committed transactions (and so sends and listens for
    /// notifications).
    var postsRemoteChanges = false
    /// The coordinator's handler.
    var handler: PersistentStoreCoordinator.RemoteChangeHandler?
    /// The listening connection, while there is a handler.
    var listener: PostgreSQLNotificationListener?
    /// This store object's mark in the notifications it sends, so that it skips its own (it
    /// reports its saves when they commit).
    let origin = UUID().uuidString.lowercased()
}

extension PostgreSQLPersistentStore {
    /// Creates a store that records persistent history and, optionally, reports every
    /// committed transaction of the database (its own and other processes') to its
    /// coordinator (Docs/PostgreSQLStore.md, "Fan-out").
    ///
    /// ```swift
    /// let store = PostgreSQLPersistentStore(url: url, tracksPersistentHistory: true, postsRemoteChangeNotifications: true)
    /// try coordinator.addStore(store)
    /// let observation = coordinator.onRemoteChange { change in … }
    /// ```
    ///
    /// - Parameters:
    ///   - url: A libpq connection string.
    ///   - schema: A PostgreSQL schema to keep the tables in, or `nil`.
    ///   - options: The pool size, timeouts and extra libpq keywords (TLS…).
    ///   - tracksPersistentHistory: Whether saves record transactions (Apple:
    ///     `NSPersistentHistoryTrackingKey`).
    ///   - postsRemoteChangeNotifications: Whether the store sends a notification with each save
    ///     and listens for the others' (Apple:
    ///     `NSPersistentStoreRemoteChangeNotificationPostOptionKey`).
    public convenience init(url: String, schema: String? = nil, options: PostgreSQLStoreOptions = PostgreSQLStoreOptions(),
                            tracksPersistentHistory: Bool, postsRemoteChangeNotifications: Bool = false) {
        self.init(url: url, schema: schema, options: options)
        fanOut.withTrackedLock(self) { state in
            state.tracksHistory = tracksPersistentHistory
            state.postsRemoteChanges = postsRemoteChangeNotifications
        }
    }

    /// The channel of a store's notifications: one per store UUID, so that stores in other
    /// schemas of the same database are not disturbed.
    static func channel(forStoreIdentifier identifier: String) -> String {
        "objectgraph_" + identifier.lowercased()
    }

    /// What a save needs to announce itself, or `nil` when the store does not post changes.
    ///
    /// - Parameter identifier: The store's UUID (passed in: the caller holds the lock that
    ///   ``identifier`` takes).
    func fanOutNotification(identifier: String) -> (channel: String, origin: String)? {
        fanOut.withTrackedLock(self) { state in state.postsRemoteChanges ? (Self.channel(forStoreIdentifier: identifier), state.origin) : nil }
    }

    /// Installs (or removes, with `nil`) the coordinator's handler, and starts (or stops) the
    /// listening connection.
    ///
    /// With a handler and ``postsRemoteChangeNotifications`` on, the store opens a connection
    /// of its own that `LISTEN`s on the store's channel; its thread calls the handler for
    /// every transaction another store object commits (another process, or another
    /// coordinator of this one). After the connection breaks it connects again and calls the
    /// handler once with the newest token, since notifications sent meanwhile were lost. The
    /// connection closes when the handler is removed or the store goes away.
    ///
    /// - Parameter handler: The coordinator's handler.
    public func setRemoteChangeHandler(_ handler: PersistentStoreCoordinator.RemoteChangeHandler?) {
        let stopped = fanOut.withTrackedLock(self) { state -> PostgreSQLNotificationListener? in
            state.handler = handler
            if handler != nil { return nil }
            defer { state.listener = nil }
            return state.listener
        }
        stopped?.stop()
        guard handler != nil, postsRemoteChangeNotifications, !identifier.isEmpty else { return }
        let channel = Self.channel(forStoreIdentifier: identifier)
        let listener = PostgreSQLNotificationListener(connectingTo: url, channels: [channel]) { [weak self] event in
            self?.receive(event)
        }
        let replaced = fanOut.withTrackedLock(self) { state -> PostgreSQLNotificationListener? in
            defer { state.listener = listener }
            return state.listener
        }
        replaced?.stop()
    }

    /// The listening connection's server process ID, or 0 (for tests and diagnostics).
    package var listenerProcessID: Int32 { fanOut.withTrackedLock(self) { $0.listener?.backendProcessID ?? 0 } }

    /// Reports a notification or a reconnection to the coordinator.
    private func receive(_ event: PostgreSQLNotificationListener.Event) {
        let (handler, origin, tracks) = fanOut.withTrackedLock(self) { ($0.handler, $0.origin, $0.tracksHistory) }
        guard let handler else { return }
        switch event {
        case .notification(let notification):
            guard let payload = PostgreSQLFanOutPayload(notification.payload), payload.origin != origin else { return }
            let token = payload.transactionNumber.map { PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
            handler(remoteChange(token: token))
        case .reconnected:
            // Notifications sent while the connection was down are lost: report the newest
            // token, so that the app fetches what it has not merged.
            let token = tracks ? (try? currentHistoryToken()) ?? nil : nil
            handler(remoteChange(token: token))
        }
    }

    /// Reports this store's own committed save.
    func reportSave(token: PersistentHistoryToken?) {
        let handler = fanOut.withTrackedLock(self) { $0.postsRemoteChanges ? $0.handler : nil }
        handler?(remoteChange(token: token))
    }

    private func remoteChange(token: PersistentHistoryToken?) -> PersistentStoreCoordinator.RemoteChange {
        PersistentStoreCoordinator.RemoteChange(storeIdentifier: identifier, storeURL: Self.urlWithoutPassword(url),
                                                historyToken: token)
    }

    /// The connection URL as a `URL` without its password (for the notifications' store URL),
    /// or `nil` for a `key=value` string.
    static func urlWithoutPassword(_ text: String) -> URL? {
        guard text.contains("://"), var components = URLComponents(string: text) else { return nil }
        components.password = nil
        components.queryItems = components.queryItems?.filter { $0.name.lowercased() != "password" }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        return components.url
    }
}
