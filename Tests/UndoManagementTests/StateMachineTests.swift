// The pure state machine on its own: outcomes it returns, with no history around it.

import Testing
@testable import UndoManagement

@Suite("UndoStateMachine")
struct StateMachineTests {
    @Test func registrationRoutes() throws {
        var state = UndoStateMachine()
        #expect(state.registrationRoute == .needsEventGroup)
        state.groupsByEvent = false
        #expect(state.registrationRoute == .refused)
        state.disableRegistration()
        #expect(state.registrationRoute == .ignored)
        #expect(state.register(UndoAction {}).isEmpty)
        #expect(state.groupingLevel == 0)
        try state.enableRegistration()
        state.openGroup()
        #expect(state.registrationRoute == .direct)
        #expect(state.register(UndoAction {}).isEmpty)
        #expect(state.openGroups[0].actionCount == 1)
        state._checkInvariants()
    }

    @Test func registrationWithNoOpenGroupStillKeepsTheAction() throws {
        var state = UndoStateMachine()
        _ = state.register(UndoAction {})
        #expect(state.groupingLevel == 1)
        #expect(state.eventGroupIsOpen)
        #expect(state.canUndo)
        state._checkInvariants()
    }

    @Test func clearedRedoGroupsAreHandedBack() throws {
        var state = UndoStateMachine()
        state.openGroup()
        _ = state.register(UndoAction {})
        _ = try state.closeGroup()
        let group = try #require(try state.beginUndo())
        #expect(group.actionCount == 1)
        #expect(state.mode == .undoing)
        _ = state.register(UndoAction {})        // the inverse
        _ = state.finishPerforming()
        #expect(state.mode == .idle)
        #expect(state.redoStack.count == 1)
        state.openGroup()
        let discarded = state.register(UndoAction {})
        #expect(discarded.count == 1)
        #expect(state.redoStack.isEmpty)
        state._checkInvariants()
    }

    @Test func closingATopLevelGroupReportsDiscardability() throws {
        var state = UndoStateMachine()
        state.openGroup()
        state.openGroup()
        _ = state.register(UndoAction {})
        state.setActionIsDiscardable(true)
        #expect(try state.checkCanCloseGroup() == false)   // nested close: no flag
        _ = try state.closeGroup()
        #expect(try state.checkCanCloseGroup() == true)
        let outcome = try state.closeGroup()
        #expect(outcome.isDiscardable)
        #expect(state.undoStack.count == 1)
        #expect(state.undoStack[0].actionCount == 1)
    }

    @Test func trimmingHandsBackDroppedGroups() throws {
        var state = UndoStateMachine()
        for _ in 0..<4 {
            state.openGroup()
            _ = state.register(UndoAction {})
            _ = try state.closeGroup()
        }
        let dropped = state.setLevelsOfUndo(1)
        #expect(dropped.count == 3)
        #expect(state.undoStack.count == 1)
        state._checkInvariants()
    }

    @Test func removingActionsDropsEmptiedNestedGroups() {
        final class Target {}
        let target = Target()
        let other = Target()
        var group = UndoGroup()
        var nested = UndoGroup()
        nested.entries = [.action(UndoAction(target: target) { _ in })]
        group.entries = [.action(UndoAction(target: other) { _ in }), .group(nested),
                         .action(UndoAction(target: target) { _ in })]
        let removed = group.removeActions(involving: target)
        #expect(removed.count == 3)       // two actions and the emptied nested group
        #expect(group.entries.count == 1)
        #expect(group.actionCount == 1)
    }

    @Test func untargetedActionsInvolveNoObject() {
        final class Target {}
        let action = UndoAction {}
        #expect(!action.involves(Target()))
        #expect(action.perform())
    }
}
