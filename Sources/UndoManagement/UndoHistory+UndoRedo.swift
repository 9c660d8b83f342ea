// Performing undo and redo.

import Foundation

extension UndoHistory {
    /// Undoes the last top-level group, closing it first if it is still open.
    ///
    /// If exactly one group is open (such as the event group), it is closed with
    /// ``endUndoGrouping()`` first; then ``undoNestedGroup()`` runs. Actions run in reverse order
    /// of registration, nested groups as units. What they register goes to the redo stack as one
    /// group, named like the undone group unless an action sets a name. With nothing to undo it
    /// only posts ``checkpointNotification``.
    ///
    /// ```swift
    /// try history.registerUndo(withTarget: account) { $0.balance = 0 }
    /// try history.undo()   // closes the event group, then undoes it
    /// ```
    ///
    /// - Throws: ``UndoError/nestedGroupsOpen(operation:groupingLevel:)`` if more than one group is
    ///   open; ``UndoError/busy(operation:whileUndoing:)`` when called from an action during an
    ///   undo or redo; ``UndoError/groupsLeftOpenByAction(count:)`` (after completing) if the
    ///   actions left groups open. Nothing happens on the first two.
    ///
    /// Corresponds to Apple's `undo()`.
    public func undo() throws(UndoError) {
        try state.checkIdle("undo()")
        let level = state.groupingLevel
        if level > 1 {
            throw .nestedGroupsOpen(operation: "undo()", groupingLevel: level)
        }
        if level == 1 {
            try endUndoGrouping()
        }
        try undoNestedGroup()
    }

    /// Undoes the last group at the current level: the newest closed group inside the innermost
    /// open group, or the newest top-level group when no group is open.
    ///
    /// What the actions register goes to the redo stack as one top-level group. Posts
    /// ``checkpointNotification``, then ``willUndoChangeNotification`` before running the actions
    /// and ``didUndoChangeNotification`` after; with nothing to undo only the checkpoint.
    ///
    /// ```swift
    /// history.beginUndoGrouping()          // outer
    /// history.beginUndoGrouping()          // inner
    /// try history.registerUndo { value = 1 }
    /// try history.endUndoGrouping()        // closes inner; outer stays open
    /// try history.undoNestedGroup()        // undoes inner only
    /// ```
    ///
    /// - Throws: ``UndoError/ungroupedActionsInOpenGroup(groupingLevel:)`` or
    ///   ``UndoError/noClosedGroupInOpenGroup(groupingLevel:)`` if the innermost open group does
    ///   not end with a closed group; ``UndoError/busy(operation:whileUndoing:)`` during an undo
    ///   or redo; ``UndoError/groupsLeftOpenByAction(count:)`` (after completing) if the actions
    ///   left groups open.
    ///
    /// Corresponds to Apple's `undoNestedGroup()`.
    public func undoNestedGroup() throws(UndoError) {
        try state.checkIdle("undoNestedGroup()")
        post(.checkpoint)
        guard let group = try state.beginUndo() else { return }
        post(.willUndoChange)
        try perform(consume group, then: .didUndoChange)
    }

    /// Redoes the last undone group.
    ///
    /// What the actions register goes to the undo stack as one top-level group. Posts
    /// ``checkpointNotification``, then ``willRedoChangeNotification`` and
    /// ``didRedoChangeNotification`` around the actions; with nothing to redo only the checkpoint.
    ///
    /// - Throws: ``UndoError/groupOpen(operation:groupingLevel:)`` if a group is open;
    ///   ``UndoError/busy(operation:whileUndoing:)`` during an undo or redo;
    ///   ``UndoError/groupsLeftOpenByAction(count:)`` (after completing) if the actions left
    ///   groups open.
    ///
    /// Corresponds to Apple's `redo()`.
    public func redo() throws(UndoError) {
        try state.checkIdle("redo()")
        let level = state.groupingLevel
        if level > 0 {
            throw .groupOpen(operation: "redo()", groupingLevel: level)
        }
        post(.checkpoint)
        guard let group = try state.beginRedo() else { return }
        post(.willRedoChange)
        try perform(consume group, then: .didRedoChange)
    }

    /// Runs a group taken by `beginUndo()`/`beginRedo()`, finishes, and posts `notification`.
    private func perform(_ group: consuming UndoGroup,
                         then notification: UndoNotificationKind) throws(UndoError) {
        Self.run(consume group)
        var outcome = state.finishPerforming()
        if !outcome.discarded.isEmpty { UndoGroup.dismantle(outcome.takeDiscarded()) }
        post(notification)
        if outcome.groupsLeftOpen > 0 {
            throw .groupsLeftOpenByAction(count: outcome.groupsLeftOpen)
        }
    }

    /// Runs the actions of a group, newest first; nested groups run as units. The group is
    /// consumed, so its entries are moved out rather than copied. (Not inlined: measured
    /// faster in `undo_undo` / `undo_redo` as a call of its own.)
    @inline(never)
    private static func run(_ group: consuming UndoGroup) {
        while let entry = group.entries.popLast() {
            switch consume entry {
            case .action(let action):
                action.perform()
            case .group(let nested):
                runNested(nested)
            }
        }
    }

    /// Runs a nested group and the groups nested in it.
    ///
    /// Iterative, with the unfinished parents on an explicit stack, so groups nested to any
    /// depth run in constant stack space. Every group is empty when it is released, so freeing
    /// is flat too. (Kept apart from `run(_:)`, whose loop stays that of a flat group.)
    @inline(never)
    private static func runNested(_ group: consuming UndoGroup) {
        var current = consume group
        var parents: [UndoGroup] = []
        while true {
            while let entry = current.entries.popLast() {
                switch consume entry {
                case .action(let action):
                    action.perform()
                case .group(let nested):
                    parents.append(current)
                    current = nested
                }
            }
            guard let parent = parents.popLast() else { return }
            current = parent
        }
    }
}
