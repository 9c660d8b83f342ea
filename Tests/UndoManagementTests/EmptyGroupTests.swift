// Empty groups stay on the stacks, as on Apple platforms: `canUndo` is true after an empty
// begin/end, and undoing the empty step does nothing and makes it redoable.

import Testing
@testable import UndoManagement

@Suite("Empty groups")
struct EmptyGroupTests {
    @Test func anEmptyGroupIsAnUndoStep() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        history._checkInvariants()
        #expect(history.canUndo)
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(!history.canUndo)
        #expect(history.canRedo)
        #expect(history.redoCount == 1)
        try history.redo()
        #expect(history.canUndo)
        #expect(!history.canRedo)
        history._checkInvariants()
    }

    @Test func undoingAnEmptyGroupLeavesTheStepsBelowIt() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        history.beginUndoGrouping()
        history.setActionName("Nothing")
        try history.endUndoGrouping()
        #expect(history.undoCount == 2)
        #expect(history.undoMenuItemTitle == "Undo Nothing")
        try history.undo()
        #expect(counter.value == 1)
        #expect(history.redoMenuItemTitle == "Redo Nothing")
        try history.undo()
        #expect(counter.value == 0)
    }

    @Test func nestedEmptyGroupsMakeOneStep() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        try history.endUndoGrouping()
        history._checkInvariants()
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(history.redoCount == 1)
    }

    @Test func anEmptyGroupClosedInsideAnOpenGroupCanBeUndoneAlone() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        try history.undoNestedGroup()
        #expect(history.groupingLevel == 1)
        #expect(history.redoCount == 1)
        try history.endUndoGrouping()
        history._checkInvariants()
    }

    @Test func removingATargetDropsOnlyTheGroupsItEmptied() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        try history.endUndoGrouping()            // empty from the start: stays
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()            // emptied by the removal: dropped
        history.beginUndoGrouping()
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        counter.set(2)
        try history.endUndoGrouping()            // keeps its empty nested group
        history.removeAllActions(withTarget: counter)
        history._checkInvariants()
        #expect(history.undoCount == 2)
    }
}
