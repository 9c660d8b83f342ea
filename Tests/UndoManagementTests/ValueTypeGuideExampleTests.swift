import Testing
import UndoManagement

/// Docs/Undo.md's value-type example, kept compiling and true.
@Suite("Undo guide: value types")
struct ValueTypeGuideExampleTests {
    @Test func valueTypeExampleUndoesAndRedoes() throws {
        let history = UndoHistory(notificationCenter: nil)
        var volume = 0
        func setVolume(_ new: Int) throws(UndoError) {
            let old = volume
            try history.registerUndo { try? setVolume(old) }   // undoing registers the redo the same way
            volume = new
        }
        try setVolume(5)
        try history.closeEventGroup()
        try history.undo()
        #expect(volume == 0)
        try history.redo()
        #expect(volume == 5)
    }
}
