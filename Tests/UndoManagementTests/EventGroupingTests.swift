// Event grouping (Apple's default): registrations open the event group, a group begun at
// level 0 nests inside it, and the program ends each event with closeEventGroup(). And the
// refusal of ungrouped registrations with event grouping off.

import Foundation
import Testing
@testable import UndoManagement

@Suite("Event grouping")
struct EventGroupingTests {
    @Test func groupsByEventIsOnByDefault() {
        #expect(UndoHistory(notificationCenter: nil).groupsByEvent)
    }

    @Test func registrationOpensTheEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        counter.set(1)
        #expect(history.groupingLevel == 1)
        #expect(history.isEventGroupOpen)
        #expect(history.canUndo)
        #expect(history.undoCount == 1)
        counter.set(2)
        #expect(history.groupingLevel == 1)
        // undo() closes the event group and undoes both changes as one step.
        try history.undo()
        #expect(counter.value == 0)
        #expect(!history.isEventGroupOpen)
        #expect(!history.canUndo)
    }

    @Test func closeEventGroupSeparatesSteps() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        counter.set(1)
        try history.closeEventGroup()
        #expect(history.groupingLevel == 0)
        counter.set(2)
        counter.set(3)
        try history.closeEventGroup()
        #expect(history.undoCount == 2)
        try history.undo()
        #expect(counter.value == 1)
        try history.undo()
        #expect(counter.value == 0)
    }

    @Test func explicitGroupsNestInsideTheEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        counter.set(1)
        history.beginUndoGrouping()
        counter.set(2)
        #expect(history.groupingLevel == 2)
        #expect(throws: UndoError.nestedGroupsOpen(operation: "closeEventGroup()", groupingLevel: 2)) {
            try history.closeEventGroup()
        }
        try history.endUndoGrouping()
        try history.closeEventGroup()
        #expect(history.undoCount == 1)
    }

    // Apple: with groupsByEvent on, beginUndoGrouping() at level 0 first opens the implicit
    // event group, so the new group is at level 2 and its end leaves the event group open.
    @Test func beginAtLevelZeroOpensTheEventGroupFirst() throws {
        let history = makeHistory(groupsByEvent: true)
        history.beginUndoGrouping()
        #expect(history.groupingLevel == 2)
        #expect(history.isEventGroupOpen)
        try history.endUndoGrouping()
        #expect(history.groupingLevel == 1)
        #expect(history.isEventGroupOpen)
        try history.closeEventGroup()
        #expect(history.groupingLevel == 0)
        history._checkInvariants()
    }

    @Test func everythingBeforeTheEventGroupClosesIsOneStep() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        #expect(!history.canUndo)   // nothing registered yet
        counter.set(1)
        #expect(history.canUndo)
        try history.endUndoGrouping()
        counter.set(2)
        history.beginUndoGrouping()
        counter.set(3)
        try history.endUndoGrouping()
        #expect(history.undoCount == 1)
        try history.closeEventGroup()
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(counter.value == 0)
        #expect(!history.canUndo)
        try history.redo()
        #expect(counter.value == 3)
        #expect(history.undoCount == 1)
        history._checkInvariants()
    }

    @Test func undoWithTheEventGroupAndAGroupOpenThrowsAndChangesNothing() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        #expect(throws: UndoError.nestedGroupsOpen(operation: "undo()", groupingLevel: 2)) {
            try history.undo()
        }
        #expect(counter.value == 1)
        #expect(history.groupingLevel == 2)
        try history.endUndoGrouping()
        // One level open (the event group): undo() closes it and undoes the step.
        try history.undo()
        #expect(counter.value == 0)
        #expect(history.groupingLevel == 0)
        #expect(history.canRedo)
    }

    @Test func undoNestedGroupUndoesOneGroupInsideTheEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        for value in [1, 2] {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
        try history.undoNestedGroup()
        #expect(counter.value == 1)
        #expect(history.groupingLevel == 1)
        #expect(history.redoCount == 1)
        #expect(throws: UndoError.groupOpen(operation: "redo()", groupingLevel: 1)) { try history.redo() }
        try history.undoNestedGroup()
        #expect(counter.value == 0)
        try history.closeEventGroup()
        history._checkInvariants()
    }

    @Test func beginWhileUndoingDoesNotOpenAnEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        var levels: [Int] = []
        try history.registerUndo {
            history.beginUndoGrouping()
            levels.append(history.groupingLevel)
            try? history.endUndoGrouping()
        }
        try history.undo()
        #expect(levels == [2])   // the group collecting the inverse, and this one
    }

    @Test func beginWithRegistrationDisabledStillOpensTheEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        history.disableUndoRegistration()
        history.beginUndoGrouping()
        #expect(history.groupingLevel == 2)
        try history.endUndoGrouping()
        try history.closeEventGroup()
        try history.enableUndoRegistration()
    }

    @Test func beginAtLevelZeroPostsTheEventGroupsOpeningFirst() throws {
        let (history, recorder, _) = makeObservedHistory(groupsByEvent: true)
        history.beginUndoGrouping()
        // The implicit group: did-open only, no checkpoint (as Apple).
        #expect(recorder.names == ["DidOpenUndoGroup", "Checkpoint", "DidOpenUndoGroup"])
        recorder.removeAll()
        history.beginUndoGrouping()
        #expect(recorder.names == ["Checkpoint", "DidOpenUndoGroup"])
    }

    @Test func closeEventGroupIsANoOpWithoutEventGrouping() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.closeEventGroup()
        #expect(history.groupingLevel == 1)
        #expect(!history.isEventGroupOpen)
        try history.endUndoGrouping()
        #expect(history.undoCount == 1)
    }
}

/// With `groupsByEvent` off, Apple raises "must begin a group before registering undo" for a
/// registration made while no group is open.
@Suite("Registration without event grouping")
struct RegistrationWithoutEventGroupingTests {
    @Test func registrationWithNoOpenGroupIsRefused() throws {
        let history = makeHistory()
        let target = OrderLog()
        #expect(throws: UndoError.registrationWithoutOpenGroup) { try history.registerUndo {} }
        #expect(throws: UndoError.registrationWithoutOpenGroup) {
            try history.registerUndo(withTarget: target) { $0.entries.append("x") }
        }
        #expect(history.groupingLevel == 0)
        #expect(!history.canUndo)
        history._checkInvariants()
    }

    @Test func aRefusedRegistrationLeavesTheRedoStack() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        try history.undo()
        #expect(throws: UndoError.registrationWithoutOpenGroup) { try history.registerUndo {} }
        #expect(history.canRedo)
        try history.redo()
        #expect(counter.value == 1)
    }

    @Test func disabledRegistrationIsDroppedNotRefused() throws {
        let history = makeHistory()
        history.disableUndoRegistration()
        try history.registerUndo {}
        #expect(!history.canUndo)
    }

    @Test func registrationsWhileUndoingNeedNoOpenGroup() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        try history.undo()   // the handler registers the redo with no group of its own open
        #expect(history.canRedo)
        try history.redo()
        #expect(counter.value == 1)
    }
}
