// The shared undo notification center: observers receive every history's notifications, and
// the center knows which names are observed (so unobserved notifications are not posted).
// Serialized: the center is shared, and these tests count its observers.

import Foundation
import Synchronization
import Testing
@testable import UndoManagement

@Suite("UndoNotificationCenter", .serialized)
struct UndoNotificationCenterTests {
    private let hub = UndoNotificationCenter.shared

    /// Observes every undo notification of `history` on the shared center.
    private func observe(_ history: UndoHistory, into recorder: NotificationRecorder)
        -> [any NSObjectProtocol] {
        allUndoNotificationNames.map { name in
            hub.addObserver(forName: name, object: history, queue: nil) { recorder.record($0) }
        }
    }

    @Test func historiesPostToTheSharedCenterByDefault() throws {
        let history = UndoHistory()
        #expect(history.notificationCenter == nil)
        let recorder = NotificationRecorder()
        let tokens = observe(history, into: recorder)
        defer { tokens.forEach(hub.removeObserver) }
        history.groupsByEvent = false
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.endUndoGrouping()
        try history.undo()
        #expect(recorder.names == ["Checkpoint", "DidOpenUndoGroup",
                                   "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
                                   "Checkpoint", "WillUndoChange", "DidUndoChange"])
    }

    @Test func observersOfOneHistoryDoNotHearAnother() throws {
        let history = UndoHistory()
        let other = UndoHistory()
        let recorder = NotificationRecorder()
        let tokens = observe(history, into: recorder)
        defer { tokens.forEach(hub.removeObserver) }
        other.beginUndoGrouping()
        #expect(recorder.names.isEmpty)
    }

    @Test func theCenterKnowsWhichNamesAreObserved() {
        let checkpoint = UndoHistory.checkpointNotification
        let didUndo = UndoHistory.didUndoChangeNotification
        #expect(!hub.isObserved(checkpoint) && !hub.isObserved(didUndo))
        #expect(!hub.isObserved(.checkpoint))
        let token = hub.addObserver(forName: didUndo, object: nil, queue: nil) { _ in }
        #expect(hub.isObserved(didUndo) && hub.isObserved(.didUndoChange))
        #expect(!hub.isObserved(checkpoint) && !hub.isObserved(.checkpoint))
        let second = hub.addObserver(forName: didUndo, object: nil, queue: nil) { _ in }
        hub.removeObserver(token)
        #expect(hub.isObserved(didUndo))   // one observer left
        hub.removeObserver(second)
        #expect(!hub.isObserved(didUndo) && !hub.isObserved(.didUndoChange))
        hub.removeObserver(second)         // removing twice is harmless
        #expect(!hub.isObserved(didUndo))
    }

    @Test func anObserverOfEveryNameObservesAll() {
        let token = hub.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        #expect(UndoNotificationKind.allCases.allSatisfy { hub.isObserved($0) })
        #expect(hub.isObserved(UndoHistory.willCloseUndoGroupNotification))
        hub.removeObserver(token)
        #expect(!UndoNotificationKind.allCases.contains { hub.isObserved($0) })
    }

    @Test func unobservedNotificationsAreNotPosted() throws {
        // Only did-undo is observed: the history posts nothing else to the shared center.
        let history = UndoHistory()
        let seen = Mutex<[String]>([])
        let token = hub.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        let watcher = hub.addObserver(forName: UndoHistory.didUndoChangeNotification,
                                      object: history, queue: nil) { notification in
            seen.withLock { $0.append(notification.name.rawValue) }
        }
        hub.removeObserver(token)
        defer { hub.removeObserver(watcher) }
        try history.registerUndo {}
        try history.undo()
        #expect(seen.withLock { $0 } == [UndoHistory.didUndoChangeNotification.rawValue])
    }

    @Test func aFoundationCenterReceivesEverythingToo() throws {
        let (history, recorder, _) = makeObservedHistory()
        let hubRecorder = NotificationRecorder()
        let token = hub.addObserver(forName: UndoHistory.didCloseUndoGroupNotification,
                                    object: history, queue: nil) { hubRecorder.record($0) }
        defer { hub.removeObserver(token) }
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        #expect(recorder.names == ["Checkpoint", "DidOpenUndoGroup",
                                   "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup"])
        #expect(hubRecorder.names == ["DidCloseUndoGroup"])
    }
}
