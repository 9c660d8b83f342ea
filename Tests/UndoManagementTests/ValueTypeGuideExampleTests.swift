// Docs/Undo.md's worked example and value-type example, kept compiling and true, and the
// retain cycle the value-type example avoids.

import Testing
import UndoManagement

@Suite("Undo guide: value types")
struct ValueTypeGuideExampleTests {
    /// The guide's example, verbatim apart from the expectations and the weak reference.
    @Test func valueTypeExampleUndoesRedoesAndReleasesTheHistory() throws {
        weak var released: UndoHistory?
        try {
            let history = UndoHistory()
            released = history
            var volume = 0
            // The history comes in as a parameter and the handler holds it weakly: a handler
            // stored in the history must not keep the history alive.
            func setVolume(_ new: Int, in history: UndoHistory) throws(UndoError) {
                let old = volume
                try history.registerUndo { [weak history] in
                    if let history { try? setVolume(old, in: history) }   // registers the redo
                }
                volume = new
            }
            try setVolume(5, in: history)
            try history.closeEventGroup()
            try history.undo()                            // volume is 0 again
            #expect(volume == 0)
            try history.redo()                            // volume is 5 again
            #expect(volume == 5)
        }()
        #expect(released == nil)
    }

    /// What the guide warns about: a handler that captures the history strongly (here through
    /// a nested function that uses it) makes a cycle that `removeAllActions()` breaks.
    @Test func aHandlerCapturingTheHistoryKeepsItAliveUntilItsActionsAreRemoved() throws {
        weak var released: UndoHistory?
        var keep: UndoHistory?
        try {
            let history = UndoHistory(notificationCenter: nil)
            released = history
            var volume = 0
            func setVolume(_ new: Int) throws(UndoError) {
                let old = volume
                try history.registerUndo { try? setVolume(old) }   // captures `history`
                volume = new
            }
            try setVolume(5)
            try history.closeEventGroup()
        }()
        #expect(released != nil)   // kept alive by its own handler
        keep = released
        keep?.removeAllActions()
        keep = nil
        #expect(released == nil)
    }
}

/// The worked example's document.
private final class GuideDocument {
    let history = UndoHistory()
    private(set) var title = "Untitled"

    func setTitle(_ newTitle: String) throws(UndoError) {
        let oldTitle = title
        try history.registerUndo(withTarget: self) { try? $0.setTitle(oldTitle) }
        history.setActionName("Rename")
        title = newTitle
    }
}

@Suite("Undo guide: worked example")
struct WorkedGuideExampleTests {
    @Test func workedExampleUndoesAndRedoesARename() throws {
        let document = GuideDocument()
        try document.setTitle("Budget")
        try document.history.closeEventGroup()
        #expect(document.history.undoMenuItemTitle == "Undo Rename")
        try document.history.undo()
        #expect(document.title == "Untitled")
        #expect(document.history.redoMenuItemTitle == "Redo Rename")
        try document.history.redo()
        #expect(document.title == "Budget")
    }
}
