// Undo and redo: counts, nothing-to-undo, handlers that misuse the history.

import Foundation
import Testing
@testable import UndoManagement

@Suite("Undo and redo")
struct UndoRedoTests {
    @Test func countsFollowUndoAndRedo() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        #expect(!history.canUndo && !history.canRedo)
        for value in 1...3 {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
        #expect(history.undoCount == 3 && history.redoCount == 0)
        try history.undo()
        #expect(history.undoCount == 2 && history.redoCount == 1)
        try history.undo()
        try history.undo()
        #expect(history.undoCount == 0 && history.redoCount == 3)
        #expect(counter.value == 0)
        try history.redo()
        try history.redo()
        try history.redo()
        #expect(counter.value == 3)
        #expect(history.undoCount == 3 && history.redoCount == 0)
    }

    @Test func undoAndRedoWithNothingToDoAreNoOps() throws {
        let (history, recorder, _) = makeObservedHistory()
        try history.undo()
        try history.redo()
        try history.undoNestedGroup()
        #expect(recorder.names == ["Checkpoint", "Checkpoint", "Checkpoint"])
        history._checkInvariants()
    }

    @Test func undoInsideAHandlerThrowsBusy() throws {
        let history = makeHistory()
        var errors: [UndoError] = []
        history.beginUndoGrouping()
        try history.registerUndo {
            do throws(UndoError) { try history.undo() } catch { errors.append(error) }
            do throws(UndoError) { try history.redo() } catch { errors.append(error) }
            do throws(UndoError) { try history.undoNestedGroup() } catch { errors.append(error) }
            do throws(UndoError) { try history.closeEventGroup() } catch { errors.append(error) }
        }
        try history.registerUndo {}
        try history.endUndoGrouping()
        try history.undo()
        history._checkInvariants()
        #expect(errors == [
            .busy(operation: "undo()", whileUndoing: true),
            .busy(operation: "redo()", whileUndoing: true),
            .busy(operation: "undoNestedGroup()", whileUndoing: true),
            .busy(operation: "closeEventGroup()", whileUndoing: true),
        ])
        #expect(!history.isUndoing)
        #expect(!history.canUndo)
    }

    @Test func redoInsideARedoHandlerThrowsBusy() throws {
        let history = makeHistory()
        var caught: UndoError?
        history.beginUndoGrouping()
        try history.registerUndo {
            try? history.registerUndo {
                do throws(UndoError) { try history.redo() } catch { caught = error }
            }
        }
        try history.endUndoGrouping()
        try history.undo()
        try history.redo()
        #expect(caught == .busy(operation: "redo()", whileUndoing: false))
        #expect(!history.isRedoing)
    }

    @Test func groupingInsideAHandlerNestsInTheInverse() throws {
        let history = makeHistory()
        var levels: [Int] = []
        history.beginUndoGrouping()
        try history.registerUndo {
            levels.append(history.groupingLevel)
            history.beginUndoGrouping()
            levels.append(history.groupingLevel)
            try? history.registerUndo {}
            try? history.endUndoGrouping()
            levels.append(history.groupingLevel)
        }
        try history.endUndoGrouping()
        try history.undo()
        history._checkInvariants()
        #expect(levels == [1, 2, 1])
        #expect(history.groupingLevel == 0)
        #expect(history.redoCount == 1)
    }

    @Test func endInsideAHandlerCannotCloseTheInverseGroup() throws {
        let history = makeHistory()
        var caught: UndoError?
        history.beginUndoGrouping()
        try history.registerUndo {
            do throws(UndoError) { try history.endUndoGrouping() } catch { caught = error }
        }
        try history.endUndoGrouping()
        try history.undo()
        #expect(caught == .endUndoGroupingWithoutBegin)
        history._checkInvariants()
    }

    @Test func groupsLeftOpenByAnActionAreClosedAndReported() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        try history.registerUndo(withTarget: counter) { target in
            history.beginUndoGrouping()
            target.set(9)
        }
        try history.endUndoGrouping()
        #expect(throws: UndoError.groupsLeftOpenByAction(count: 1)) { try history.undo() }
        history._checkInvariants()
        #expect(counter.value == 9)
        #expect(history.groupingLevel == 0)
        #expect(!history.isUndoing)
        #expect(history.redoCount == 1)
        try history.redo()
        #expect(counter.value == 0)
    }

    @Test func isUndoingAndIsRedoingAreFalseOutsideHandlers() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        try history.undo()
        #expect(!history.isUndoing && !history.isRedoing)
        try history.redo()
        #expect(!history.isUndoing && !history.isRedoing)
    }
}
