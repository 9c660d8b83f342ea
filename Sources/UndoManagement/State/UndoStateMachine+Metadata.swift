// Action names and discardability: which group they describe. (The setters are in
// UndoStateMachine.swift, which owns the stored properties.)

extension UndoStateMachine {
    /// The group `undo()` would perform: the outermost open group if it holds actions, else the
    /// newest group on the undo stack.
    private var nextUndoGroup: UndoGroup? {
        if mode == .idle, openGroupsHoldActions { return openGroups[0] }
        return undoStack.last
    }

    /// The name of the group `undo()` would perform ("" when none).
    var undoActionName: String { nextUndoGroup?.actionName ?? "" }

    /// The name of the group `redo()` would perform ("" when none).
    var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Whether the group `undo()` would perform is discardable.
    var undoActionIsDiscardable: Bool { nextUndoGroup?.isDiscardable ?? false }

    /// Whether the group `redo()` would perform is discardable.
    var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }

    /// Checks that the event group can be closed.
    ///
    /// - Returns: Whether an event group is open (false: nothing to close).
    /// - Throws: `UndoError.busy` while undoing or redoing; `.nestedGroupsOpen` if groups opened
    ///   inside the event group are still open.
    func checkCanCloseEventGroup() throws(UndoError) -> Bool {
        try checkIdle("closeEventGroup()")
        guard eventGroupIsOpen else { return false }
        guard openGroups.count == 1 else {
            throw .nestedGroupsOpen(operation: "closeEventGroup()", groupingLevel: openGroups.count)
        }
        return true
    }
}
