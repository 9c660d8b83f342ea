// Test fixtures: a target class with an undoable setter, and a notification recorder.

import Foundation
import Synchronization
import Testing
@testable import UndoManagement

/// A model object whose setter registers its own inverse, as Apple's examples do.
final class Counter {
    let history: UndoHistory
    var value = 0
    /// Values seen by `set(_:)`, in order.
    var log: [Int] = []

    init(history: UndoHistory, value: Int = 0) {
        self.history = history
        self.value = value
    }

    /// Sets the value and registers the inverse (which registers its own inverse in turn). A
    /// refused registration fails the test.
    func set(_ newValue: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let old = value
        do {
            try history.registerUndo(withTarget: self) { $0.set(old) }
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
        value = newValue
        log.append(newValue)
    }
}

/// Appends labels to a shared log, to check the order in which actions run.
final class OrderLog {
    var entries: [String] = []
}

/// Records the notifications one history posts, in order.
final class NotificationRecorder: Sendable {
    private let records = Mutex<[(name: String, discardable: Bool)]>([])

    /// Short names in posting order: "Checkpoint", "DidOpenUndoGroup", ...
    var names: [String] { records.withLock { $0.map(\.name) } }

    /// Names of notifications that carried `groupIsDiscardableKey`.
    var discardableNames: [String] { records.withLock { $0.filter(\.discardable).map(\.name) } }

    func removeAll() { records.withLock { $0.removeAll() } }

    func record(_ notification: Notification) {
        var name = notification.name.rawValue
        if name.hasPrefix("UndoHistory") { name.removeFirst("UndoHistory".count) }
        if name.hasSuffix("Notification") { name.removeLast("Notification".count) }
        let flag = notification.userInfo?[UndoHistory.groupIsDiscardableKey] as? Bool ?? false
        records.withLock { $0.append((name, flag)) }
    }
}

let allUndoNotificationNames: [Notification.Name] = [
    UndoHistory.checkpointNotification,
    UndoHistory.willUndoChangeNotification, UndoHistory.didUndoChangeNotification,
    UndoHistory.willRedoChangeNotification, UndoHistory.didRedoChangeNotification,
    UndoHistory.didOpenUndoGroupNotification,
    UndoHistory.willCloseUndoGroupNotification, UndoHistory.didCloseUndoGroupNotification,
]

/// A history posting to its own notification center, and a recorder of what it posts.
///
/// - Parameter groupsByEvent: Off by default: most tests group explicitly, and with event
///   grouping on a `beginUndoGrouping()` at level 0 nests inside the event group.
func makeObservedHistory(groupsByEvent: Bool = false) -> (UndoHistory, NotificationRecorder, NotificationCenter) {
    let center = NotificationCenter()
    let history = UndoHistory(notificationCenter: center)
    history.groupsByEvent = groupsByEvent
    let recorder = NotificationRecorder()
    for name in allUndoNotificationNames {
        _ = center.addObserver(forName: name, object: history, queue: nil) { notification in
            recorder.record(notification)
        }
    }
    return (history, recorder, center)
}

/// A history that posts no notifications (most tests do not look at them).
///
/// - Parameter groupsByEvent: Off by default: most tests group explicitly, so each
///   `beginUndoGrouping()`/`endUndoGrouping()` at level 0 is a step of its own. Tests of event
///   grouping (Apple's default) turn it on.
func makeHistory(groupsByEvent: Bool = false) -> UndoHistory {
    let history = UndoHistory(notificationCenter: nil)
    history.groupsByEvent = groupsByEvent
    return history
}
