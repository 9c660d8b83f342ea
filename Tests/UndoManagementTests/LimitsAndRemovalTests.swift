// levelsOfUndo, removeAllActions(), removeAllActions(withTarget:).

import Foundation
import Testing
@testable import UndoManagement

@Suite("Limits and removal")
struct LimitsAndRemovalTests {
    private func fill(_ history: UndoHistory, _ counter: Counter, values: ClosedRange<Int>) throws {
        for value in values {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func levelsOfUndoDropsTheOldestGroups(levels: Int) throws {
        let history = makeHistory()
        history.levelsOfUndo = levels
        let counter = Counter(history: history)
        try fill(history, counter, values: 1...6)
        history._checkInvariants()
        #expect(history.undoCount == levels)
        while history.canUndo { try history.undo() }
        // Only the newest `levels` changes can be undone.
        #expect(counter.value == 6 - levels)
    }

    @Test func loweringLevelsOfUndoTrimsAtOnce() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        try fill(history, counter, values: 1...5)
        #expect(history.levelsOfUndo == 0)
        #expect(history.undoCount == 5)
        history.levelsOfUndo = 2
        history._checkInvariants()
        #expect(history.undoCount == 2)
        try history.undo()
        try history.undo()
        #expect(counter.value == 3)
    }

    @Test func levelsOfUndoLimitsTheRedoStackToo() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        try fill(history, counter, values: 1...4)
        for _ in 1...4 { try history.undo() }
        #expect(history.redoCount == 4)
        history.levelsOfUndo = 3
        #expect(history.redoCount == 3)
        history._checkInvariants()
    }

    @Test func negativeLevelsMeanNoLimit() {
        let history = makeHistory()
        history.levelsOfUndo = -4
        #expect(history.levelsOfUndo == 0)
    }

    @Test func removeAllActionsClearsEverythingAndReenables() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        try fill(history, counter, values: 1...3)
        try history.undo()
        history.beginUndoGrouping()
        try history.registerUndo {}
        history.disableUndoRegistration()
        history.disableUndoRegistration()
        history.removeAllActions()
        history._checkInvariants()
        #expect(!history.canUndo)
        #expect(!history.canRedo)
        #expect(history.groupingLevel == 0)
        #expect(history.isUndoRegistrationEnabled)
    }

    @Test func removeAllActionsWithTargetKeepsOtherTargets() throws {
        let history = makeHistory()
        let first = Counter(history: history)
        let second = Counter(history: history)
        history.beginUndoGrouping()
        first.set(1)
        second.set(1)
        try history.endUndoGrouping()
        history.beginUndoGrouping()       // a group with only `first`: dropped when emptied
        first.set(2)
        try history.endUndoGrouping()
        history.beginUndoGrouping()
        second.set(2)
        history.beginUndoGrouping()
        first.set(3)
        try history.endUndoGrouping()
        try history.endUndoGrouping()
        #expect(history.undoCount == 3)

        history.removeAllActions(withTarget: first)
        history._checkInvariants()
        #expect(history.undoCount == 2)
        while history.canUndo { try history.undo() }
        #expect(first.value == 3)
        #expect(second.value == 0)
    }

    @Test func removeAllActionsWithTargetCoversOpenGroups() throws {
        let history = makeHistory()
        let first = Counter(history: history)
        let second = Counter(history: history)
        history.beginUndoGrouping()
        first.set(5)
        second.set(5)
        history.removeAllActions(withTarget: first)
        #expect(history.groupingLevel == 1)
        try history.endUndoGrouping()
        try history.undo()
        #expect(first.value == 5)
        #expect(second.value == 0)
    }

    @Test func removeAllActionsWithTargetLeavesRegistrationDisabled() {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.disableUndoRegistration()
        history.removeAllActions(withTarget: counter)
        #expect(!history.isUndoRegistrationEnabled)
    }

    @Test func removeAllActionsWithTargetOnTheRedoStack() throws {
        let history = makeHistory()
        let first = Counter(history: history)
        let second = Counter(history: history)
        history.beginUndoGrouping()
        first.set(1)
        second.set(1)
        try history.endUndoGrouping()
        try history.undo()
        history.removeAllActions(withTarget: second)
        try history.redo()
        #expect(first.value == 1)
        #expect(second.value == 0)
    }

    /// A deinit that calls back into the history (as Apple recommends: remove your actions when
    /// you go away) must not collide with the history's own mutation.
    @Test func releasingActionsMayCallBackIntoTheHistory() throws {
        final class Client {
            let history: UndoHistory
            init(history: UndoHistory) { self.history = history }
            deinit { history.removeAllActions(withTarget: self) }
        }
        let history = makeHistory()
        history.beginUndoGrouping()
        do {
            let client = Client(history: history)
            // The closure is the only owner of `client`.
            try history.registerUndo { _ = client }
        }
        try history.endUndoGrouping()
        try history.undo()     // the undo action registers nothing: redo stack empty
        history.beginUndoGrouping()
        do {
            let client = Client(history: history)
            try history.registerUndo { try? history.registerUndo { _ = client } }
        }
        try history.endUndoGrouping()
        try history.undo()     // redo stack now owns the only reference to a client
        #expect(history.canRedo)
        history.beginUndoGrouping()
        try history.registerUndo {}   // clears the redo stack: the client's deinit runs
        try history.endUndoGrouping()
        history.levelsOfUndo = 1
        history.removeAllActions()
        history._checkInvariants()
        #expect(!history.canRedo)
    }
}
