// The notifications an undo history posts: to UndoNotificationCenter.shared when observed there,
// and to its Foundation notificationCenter when it has one.

import Foundation

extension UndoHistory {
    /// Posted when a group opens or closes and before an undo or redo, so observers can finish
    /// pending work (for example register undo actions for changes they batch). The object is
    /// the history.
    ///
    /// Corresponds to Apple's `UndoManager.checkpointNotification`
    /// (`NSUndoManagerCheckpointNotification`).
    public static let checkpointNotification =
        Notification.Name("UndoHistoryCheckpointNotification")

    /// Posted just before an undo runs its actions. The object is the history.
    ///
    /// Corresponds to Apple's `UndoManager.willUndoChangeNotification`.
    public static let willUndoChangeNotification =
        Notification.Name("UndoHistoryWillUndoChangeNotification")

    /// Posted just after an undo ran its actions. The object is the history.
    ///
    /// Corresponds to Apple's `UndoManager.didUndoChangeNotification`.
    public static let didUndoChangeNotification =
        Notification.Name("UndoHistoryDidUndoChangeNotification")

    /// Posted just before a redo runs its actions. The object is the history.
    ///
    /// Corresponds to Apple's `UndoManager.willRedoChangeNotification`.
    public static let willRedoChangeNotification =
        Notification.Name("UndoHistoryWillRedoChangeNotification")

    /// Posted just after a redo ran its actions. The object is the history.
    ///
    /// Corresponds to Apple's `UndoManager.didRedoChangeNotification`.
    public static let didRedoChangeNotification =
        Notification.Name("UndoHistoryDidRedoChangeNotification")

    /// Posted after a group opens (by ``beginUndoGrouping()`` or by event grouping). The object
    /// is the history.
    ///
    /// Corresponds to Apple's `UndoManager.didOpenUndoGroupNotification`.
    public static let didOpenUndoGroupNotification =
        Notification.Name("UndoHistoryDidOpenUndoGroupNotification")

    /// Posted before a group closes. The object is the history; the user info holds
    /// ``groupIsDiscardableKey`` when a discardable top-level group closes.
    ///
    /// Corresponds to Apple's `UndoManager.willCloseUndoGroupNotification`.
    public static let willCloseUndoGroupNotification =
        Notification.Name("UndoHistoryWillCloseUndoGroupNotification")

    /// Posted after a group closed. The object is the history; the user info holds
    /// ``groupIsDiscardableKey`` when a discardable top-level group closed.
    ///
    /// Corresponds to Apple's `UndoManager.didCloseUndoGroupNotification`.
    public static let didCloseUndoGroupNotification =
        Notification.Name("UndoHistoryDidCloseUndoGroupNotification")

    /// The user-info key, with the value `true`, in the close notifications of a group that
    /// ``setActionIsDiscardable(_:)`` marked discardable.
    ///
    /// Corresponds to Apple's `NSUndoManagerGroupIsDiscardableKey`.
    public static let groupIsDiscardableKey = "UndoHistoryGroupIsDiscardableKey"

    /// Posts `name` with the history as object: to ``UndoNotificationCenter/shared`` if someone
    /// observes it there, and to ``notificationCenter`` if one is set. With neither, nothing is
    /// built (the usual case: one atomic load).
    @inline(__always)
    func post(_ kind: UndoNotificationKind, discardable: Bool = false) {
        let toHub = UndoNotificationCenter.shared.isObserved(kind)
        if !toHub && notificationCenter == nil { return }
        postNow(kind.name, discardable: discardable, toHub: toHub)
    }

    @inline(never)
    private func postNow(_ name: Notification.Name, discardable: Bool, toHub: Bool) {
        let userInfo: [AnyHashable: Any]? = discardable ? [Self.groupIsDiscardableKey: true] : nil
        if toHub { UndoNotificationCenter.shared.post(name, object: self, userInfo: userInfo) }
        notificationCenter?.post(name: name, object: self, userInfo: userInfo)
    }
}
