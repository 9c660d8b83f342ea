// Undo groups: explicit begin/end, nesting, and event grouping.

import Foundation

extension UndoHistory {
    /// Opens an undo group, nested inside the current one if a group is open.
    ///
    /// Everything registered until the matching ``endUndoGrouping()`` is undone as one unit. A
    /// nested group is undone as one unit of its parent, or on its own with
    /// ``undoNestedGroup()``. Called from an action during an undo or redo, the group nests
    /// inside the group collecting the inverse.
    ///
    /// With ``groupsByEvent`` on (the default) and no group open, the event group is opened
    /// first, as Apple's undo manager does: the new group is then at level 2, the matching
    /// ``endUndoGrouping()`` leaves the event group open (level 1), and everything registered
    /// until the event group closes (``closeEventGroup()``, ``undo()``) is one undo step.
    ///
    /// ```swift
    /// history.beginUndoGrouping()        // groupingLevel 2: the event group, then this one
    /// try history.registerUndo { value = 0 }
    /// try history.endUndoGrouping()      // groupingLevel 1: the event group stays open
    /// try history.closeEventGroup()      // groupingLevel 0: one step on the undo stack
    /// ```
    ///
    /// Posts ``didOpenUndoGroupNotification`` for the event group when it opens one, then
    /// ``checkpointNotification`` (except while undoing or redoing) and
    /// ``didOpenUndoGroupNotification`` for the new group.
    ///
    /// Corresponds to Apple's `beginUndoGrouping()`.
    public func beginUndoGrouping() {
        if state.beginNeedsEventGroup { openEventGroup() }
        if state.mode == .idle { post(.checkpoint) }
        state.openGroup(isEvent: false)
        post(.didOpenUndoGroup)
    }

    /// Closes the innermost open undo group.
    ///
    /// A top-level group goes onto the undo stack, even when it is empty, as on Apple platforms
    /// (the oldest groups are dropped beyond ``levelsOfUndo``); a nested group becomes one unit
    /// of its parent.
    ///
    /// Posts ``checkpointNotification`` and ``willCloseUndoGroupNotification`` before closing (so
    /// observers can still register into the group) and ``didCloseUndoGroupNotification`` after.
    /// For a discardable top-level group both close notifications carry
    /// ``groupIsDiscardableKey`` = `true` in their user info.
    ///
    /// - Throws: ``UndoError/endUndoGroupingWithoutBegin`` if no group is open; nothing is posted.
    ///
    /// Corresponds to Apple's `endUndoGrouping()`.
    public func endUndoGrouping() throws(UndoError) {
        _ = try state.checkCanCloseGroup()
        post(.checkpoint)
        // Observers may have changed the groups: check again.
        let discardable = try state.checkCanCloseGroup()
        post(.willCloseUndoGroup, discardable: discardable)
        var outcome = try state.closeGroup()
        UndoGroup.dismantle(outcome.takeDiscarded())
        post(.didCloseUndoGroup, discardable: outcome.isDiscardable)
    }

    /// The number of open groups: 0 when none is open.
    ///
    /// While undoing or redoing it counts the group that collects the inverse (so it is at
    /// least 1) and the groups the actions opened inside it.
    ///
    /// Corresponds to Apple's `groupingLevel`.
    public var groupingLevel: Int { state.groupingLevel }

    /// Whether a registration made while no group is open opens an event group. Defaults to
    /// `true`, as on Apple platforms.
    ///
    /// While it is on, ``beginUndoGrouping()`` with no group open also opens the event group
    /// first (so the new group is at level 2). On Apple platforms the event group closes at the
    /// end of each pass of the main run loop. Here the program says when an event ends, with
    /// ``closeEventGroup()``; ``undo()`` also closes it.
    ///
    /// With this property off, nothing opens a group for you: registering while no group is
    /// open throws ``UndoError/registrationWithoutOpenGroup``, as Apple raises.
    ///
    /// Corresponds to Apple's `groupsByEvent`.
    public var groupsByEvent: Bool {
        get { state.groupsByEvent }
        set { state.groupsByEvent = newValue }
    }

    /// Ends the current event: closes the event group that ``groupsByEvent`` opened, if one is
    /// open, so the next registration starts a new undo step.
    ///
    /// Call it where Apple's run loop would end a pass: after handling one command of a
    /// command-line program, one request, or one UI event of your own event loop. It does
    /// nothing when no event group is open (for example when the open group came from
    /// ``beginUndoGrouping()``).
    ///
    /// ```swift
    /// for command in commands {
    ///     try apply(command)              // registers undo actions
    ///     try history.closeEventGroup()   // one command = one undo step
    /// }
    /// ```
    ///
    /// - Throws: ``UndoError/nestedGroupsOpen(operation:groupingLevel:)`` if groups opened inside
    ///   the event group are still open; ``UndoError/busy(operation:whileUndoing:)`` during an
    ///   undo or redo.
    ///
    /// No Apple equivalent: Apple's run loop does this.
    public func closeEventGroup() throws(UndoError) {
        guard try state.checkCanCloseEventGroup() else { return }
        try endUndoGrouping()
    }

    /// Whether the open top-level group was opened by ``groupsByEvent`` (and not yet closed).
    public var isEventGroupOpen: Bool { state.eventGroupIsOpen }

    /// Opens the event group and posts ``didOpenUndoGroupNotification``. No checkpoint: Apple
    /// posts none for the group it opens implicitly, and a checkpoint observer (such as a
    /// context that flushes pending changes) must not run in the middle of a registration.
    func openEventGroup() {
        state.openGroup(isEvent: true)
        post(.didOpenUndoGroup)
    }
}
