// undo_register, undo_undo, undo_redo: one-action groups (event grouping off) whose actions
// re-register their inverses, so that redo works.

import ObjectGraph
import PeerSupport

/// A model whose setter registers its inverse.
final class UndoModel {
    let history: UndoHistory
    var value = 0
    init(history: UndoHistory) { self.history = history }

    func set(_ newValue: Int) {
        let old = value
        try! history.registerUndo(withTarget: self) { $0.set(old) }
        value = newValue
    }
}

func runUndoWorkload(harness: PeerHarness) {
    let history = UndoHistory(notificationCenter: nil)
    history.groupsByEvent = false
    let model = UndoModel(history: history)
    let count = harness.undoActions
    harness.measurePhases(["undo_register", "undo_undo", "undo_redo"], operations: count) {
        let register = harness.time {
            for value in 1...count {
                history.beginUndoGrouping()
                model.set(value)
                try! history.endUndoGrouping()
            }
        }
        precondition(model.value == count, "undo_register: value \(model.value)")
        let undo = harness.time { while history.canUndo { try! history.undo() } }
        precondition(model.value == 0, "undo_undo: value \(model.value)")
        let redo = harness.time { while history.canRedo { try! history.redo() } }
        precondition(model.value == count, "undo_redo: value \(model.value)")
        history.removeAllActions()
        model.value = 0
        return [register, undo, redo]
    }
}
