// Notifications: names, order, object, and observers that act on a checkpoint.

import Foundation
import Testing
@testable import UndoManagement

@Suite("Notifications")
struct NotificationTests {
    @Test func beginRegisterEnd() throws {
        let (history, recorder, _) = makeObservedHistory()
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.endUndoGrouping()
        #expect(recorder.names == ["Checkpoint", "DidOpenUndoGroup",
                                   "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup"])
    }

    @Test func undoThenRedo() throws {
        let (history, recorder, _) = makeObservedHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        recorder.removeAll()
        try history.undo()
        #expect(recorder.names == ["Checkpoint", "WillUndoChange", "DidUndoChange"])
        recorder.removeAll()
        try history.redo()
        #expect(recorder.names == ["Checkpoint", "WillRedoChange", "DidRedoChange"])
    }

    @Test func eventGroupOpenAndUndo() throws {
        let (history, recorder, _) = makeObservedHistory(groupsByEvent: true)
        try history.registerUndo {}
        try history.registerUndo {}
        // Apple posts no checkpoint for the group it opens implicitly.
        #expect(recorder.names == ["DidOpenUndoGroup"])
        recorder.removeAll()
        try history.undo()
        #expect(recorder.names == ["Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
                                   "Checkpoint", "WillUndoChange", "DidUndoChange"])
    }

    @Test func noCheckpointForGroupsOpenedWhileUndoing() throws {
        let (history, recorder, _) = makeObservedHistory()
        history.beginUndoGrouping()
        try history.registerUndo {
            history.beginUndoGrouping()
            try? history.registerUndo {}
            try? history.endUndoGrouping()
        }
        try history.endUndoGrouping()
        recorder.removeAll()
        try history.undo()
        #expect(recorder.names == ["Checkpoint", "WillUndoChange",
                                   "DidOpenUndoGroup",
                                   "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
                                   "DidUndoChange"])
    }

    @Test func notificationObjectIsTheHistory() throws {
        let center = NotificationCenter()
        let history = UndoHistory(notificationCenter: center)
        let other = UndoHistory(notificationCenter: center)
        // One group each (with event grouping, the event group would open first).
        history.groupsByEvent = false
        other.groupsByEvent = false
        nonisolated(unsafe) var objects: [ObjectIdentifier] = []
        let token = center.addObserver(forName: UndoHistory.didOpenUndoGroupNotification,
                                       object: nil, queue: nil) { notification in
            if let object = notification.object as? AnyObject { objects.append(ObjectIdentifier(object)) }
        }
        history.beginUndoGrouping()
        other.beginUndoGrouping()
        center.removeObserver(token)
        #expect(objects == [ObjectIdentifier(history), ObjectIdentifier(other)])
    }

    @Test func checkpointObserversCanRegisterIntoTheClosingGroup() throws {
        let center = NotificationCenter()
        let history = UndoHistory(notificationCenter: center)
        history.groupsByEvent = false
        let log = OrderLog()
        nonisolated(unsafe) let unsafeHistory = history
        nonisolated(unsafe) let unsafeLog = log
        let token = center.addObserver(forName: UndoHistory.checkpointNotification,
                                       object: nil, queue: nil) { _ in
            // Like a context processing pending changes: register once, into the open group.
            if unsafeHistory.groupingLevel == 1, unsafeLog.entries.isEmpty {
                unsafeLog.entries.append("pending")
                try? unsafeHistory.registerUndo(withTarget: unsafeLog) { $0.entries.append("undo pending") }
            }
        }
        history.beginUndoGrouping()
        try history.registerUndo(withTarget: log) { $0.entries.append("undo first") }
        try history.endUndoGrouping()
        center.removeObserver(token)
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(log.entries == ["pending", "undo pending", "undo first"])
    }

    @Test func noNotificationCenterPostsNothing() throws {
        let center = NotificationCenter()
        let history = UndoHistory(notificationCenter: center)
        nonisolated(unsafe) var count = 0
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { _ in count += 1 }
        history.notificationCenter = nil
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.endUndoGrouping()
        try history.undo()
        center.removeObserver(token)
        #expect(count == 0)
        #expect(!history.canUndo)
    }

    @Test func noFoundationCenterByDefault() {
        // Histories post to UndoNotificationCenter.shared; a Foundation center is opt-in.
        #expect(UndoHistory().notificationCenter == nil)
        #expect(UndoHistory(notificationCenter: .default).notificationCenter === NotificationCenter.default)
    }
}
