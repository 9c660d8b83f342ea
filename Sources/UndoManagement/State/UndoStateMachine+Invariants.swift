// Consistency checks for tests (convention: `_checkInvariants()` after each mutation).

extension UndoStateMachine {
    #if DEBUG
    /// Traps if the state breaks one of its rules. Compiled only in debug builds.
    func _checkInvariants() {
        precondition(disableCount >= 0, "negative disable count")
        precondition(levelsOfUndo >= 0, "negative levelsOfUndo")
        if mode == .idle {
            precondition(recordingGroups.isEmpty, "recording groups outside undo/redo")
        } else {
            precondition(!recordingGroups.isEmpty, "no recording group while performing")
        }
        if eventGroupIsOpen {
            precondition(!openGroups.isEmpty, "event group flagged but no group open")
        }
        for group in undoStack + redoStack + openGroups + recordingGroups {
            Self.checkNestedGroupFlags(group)
        }
        if levelsOfUndo > 0 {
            precondition(undoStack.count <= levelsOfUndo, "undo stack beyond levelsOfUndo")
            precondition(redoStack.count <= levelsOfUndo, "redo stack beyond levelsOfUndo")
        }
    }

    /// Every group holding a nested group says so (freeing relies on it). Iterative: groups may
    /// be nested far deeper than the stack allows recursion.
    private static func checkNestedGroupFlags(_ group: UndoGroup) {
        var pending = [group]
        while let next = pending.popLast() {
            for case .group(let nested) in next.entries {
                precondition(next.mayHoldNestedGroups, "nested group in a group not flagged")
                pending.append(nested)
            }
        }
    }
    #else
    /// Does nothing in release builds.
    @inline(__always)
    func _checkInvariants() {}
    #endif
}
