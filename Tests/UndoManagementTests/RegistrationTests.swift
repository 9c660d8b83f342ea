// Registration: targets, target-less actions, where registrations go, enabling and disabling.

import Foundation
import Testing
@testable import UndoManagement

@Suite("Registration")
struct RegistrationTests {
    @Test func undoAndRedoRestoreValues() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(10)
        try history.endUndoGrouping()
        history._checkInvariants()
        #expect(history.canUndo)
        #expect(!history.canRedo)

        try history.undo()
        history._checkInvariants()
        #expect(counter.value == 0)
        #expect(!history.canUndo)
        #expect(history.canRedo)

        try history.redo()
        history._checkInvariants()
        #expect(counter.value == 10)
        #expect(history.canUndo)
        #expect(!history.canRedo)
        #expect(counter.log == [10, 0, 10])
    }

    @Test func targetIsNotRetained() throws {
        let history = makeHistory()
        weak var weakTarget: Counter?
        do {
            let counter = Counter(history: history)
            weakTarget = counter
            history.beginUndoGrouping()
            counter.set(5)
            try history.endUndoGrouping()
        }
        #expect(weakTarget == nil)
        #expect(history.canUndo)
        // The action of the freed target is skipped: no crash; the redo step records nothing.
        try history.undo()
        history._checkInvariants()
        #expect(!history.canUndo)
        #expect(history.redoCount == 1)
        try history.redo()
        #expect(history.undoCount == 1)
    }

    @Test func registrationWithoutTargetForValueTypes() throws {
        let history = makeHistory()
        var settings = (name: "a", size: 1)
        func setSettings(_ new: (name: String, size: Int)) throws(UndoError) {
            let old = settings
            try history.registerUndo { try? setSettings(old) }
            settings = new
        }
        history.beginUndoGrouping()
        try setSettings(("b", 2))
        try history.endUndoGrouping()
        try history.undo()
        #expect(settings == ("a", 1))
        try history.redo()
        #expect(settings == ("b", 2))
    }

    @Test func registrationsWhileUndoingGoToRedoAndWhileRedoingToUndo() throws {
        let history = makeHistory()
        var undoStates: [(Bool, Bool)] = []
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        try history.registerUndo(withTarget: counter) { target in
            undoStates.append((history.isUndoing, history.isRedoing))
            try? history.registerUndo(withTarget: target) { target in
                undoStates.append((history.isUndoing, history.isRedoing))
                try? history.registerUndo(withTarget: target) { _ in }
            }
        }
        try history.endUndoGrouping()
        #expect(!history.isUndoing && !history.isRedoing)
        try history.undo()
        #expect(history.redoCount == 1)
        #expect(history.undoCount == 0)
        try history.redo()
        #expect(history.redoCount == 0)
        #expect(history.undoCount == 1)
        #expect(undoStates.count == 2)
        #expect(undoStates[0] == (true, false))
        #expect(undoStates[1] == (false, true))
    }

    @Test func newRegistrationClearsRedoStack() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        for value in 1...3 {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
        try history.undo()
        try history.undo()
        #expect(history.redoCount == 2)
        history.beginUndoGrouping()
        counter.set(7)
        try history.endUndoGrouping()
        history._checkInvariants()
        #expect(!history.canRedo)
        #expect(history.undoCount == 2)
        try history.undo()
        #expect(counter.value == 1)
    }

    @Test func redoingDoesNotClearTheRestOfTheRedoStack() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        for value in 1...3 {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
        try history.undo()
        try history.undo()
        try history.redo()
        #expect(history.redoCount == 1)
        #expect(counter.value == 2)
    }

    @Test func disablingIsCounted() throws {
        // Registrations with no group open, so a dropped one opens no event group either.
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        #expect(history.isUndoRegistrationEnabled)
        history.disableUndoRegistration()
        history.disableUndoRegistration()
        #expect(!history.isUndoRegistrationEnabled)
        counter.set(1)
        #expect(!history.canUndo)
        #expect(history.groupingLevel == 0)

        try history.enableUndoRegistration()
        #expect(!history.isUndoRegistrationEnabled)
        counter.set(2)
        #expect(!history.canUndo)

        try history.enableUndoRegistration()
        #expect(history.isUndoRegistrationEnabled)
        counter.set(3)
        try history.closeEventGroup()
        #expect(history.undoCount == 1)
        history._checkInvariants()
        try history.undo()
        #expect(counter.value == 2)
    }

    @Test func unbalancedEnableThrows() throws {
        let history = makeHistory()
        #expect(throws: UndoError.enableWithoutDisable) { try history.enableUndoRegistration() }
        history.disableUndoRegistration()
        try history.enableUndoRegistration()
        #expect(throws: UndoError.enableWithoutDisable) { try history.enableUndoRegistration() }
        #expect(history.isUndoRegistrationEnabled)
    }

    @Test func disabledRegistrationDoesNotOpenAnEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        history.disableUndoRegistration()
        try history.registerUndo {}
        #expect(history.groupingLevel == 0)
        #expect(!history.canUndo)
    }

    @Test func disabledRegistrationWhileUndoingLeavesAnEmptyRedoStep() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(4)
        try history.endUndoGrouping()
        history.disableUndoRegistration()
        try history.undo()
        #expect(counter.value == 0)
        // The inverse recorded nothing, but the step is there (Apple keeps empty groups).
        #expect(history.redoCount == 1)
        try history.enableUndoRegistration()
        try history.redo()
        #expect(counter.value == 0)
        #expect(history.undoCount == 1 && history.redoCount == 0)
    }
}
