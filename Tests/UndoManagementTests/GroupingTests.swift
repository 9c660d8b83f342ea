// Groups: order of actions, nesting, grouping level, nested undo. (Event grouping:
// EventGroupingTests.swift; empty groups: EmptyGroupTests.swift.)

import Foundation
import Testing
@testable import UndoManagement

@Suite("Grouping")
struct GroupingTests {
    /// Registers an action that appends `label` to `log` when undone.
    private func register(_ label: String, in history: UndoHistory, log: OrderLog) {
        do {
            try history.registerUndo(withTarget: log) { $0.entries.append(label) }
        } catch {
            Issue.record(error)
        }
    }

    @Test func actionsInAGroupAreUndoneInReverseOrder() throws {
        let history = makeHistory()
        let log = OrderLog()
        history.beginUndoGrouping()
        for label in ["a", "b", "c"] { register(label, in: history, log: log) }
        try history.endUndoGrouping()
        try history.undo()
        #expect(log.entries == ["c", "b", "a"])
    }

    @Test func nestedGroupsUndoAsOneUnitInExactOrder() throws {
        let history = makeHistory()
        let log = OrderLog()
        history.beginUndoGrouping()                 // level 1
        register("a", in: history, log: log)
        history.beginUndoGrouping()                 // level 2
        register("b", in: history, log: log)
        history.beginUndoGrouping()                 // level 3
        register("c", in: history, log: log)
        register("d", in: history, log: log)
        #expect(history.groupingLevel == 3)
        try history.endUndoGrouping()
        register("e", in: history, log: log)
        try history.endUndoGrouping()
        register("f", in: history, log: log)
        #expect(history.groupingLevel == 1)
        try history.endUndoGrouping()
        #expect(history.groupingLevel == 0)
        history._checkInvariants()
        #expect(history.undoCount == 1)

        try history.undo()
        #expect(log.entries == ["f", "e", "d", "c", "b", "a"])
        #expect(!history.canUndo)
    }

    @Test func redoReplaysInOriginalOrder() throws {
        let history = makeHistory()
        let log = OrderLog()
        func add(_ label: String) {
            // Undo removes the label, redo adds it back.
            try? history.registerUndo(withTarget: log) { target in
                target.entries.removeAll { $0 == label }
                try? history.registerUndo(withTarget: target) { _ in add(label) }
            }
            log.entries.append(label)
        }
        history.beginUndoGrouping()
        add("x")
        history.beginUndoGrouping()
        add("y")
        add("z")
        try history.endUndoGrouping()
        try history.endUndoGrouping()
        #expect(log.entries == ["x", "y", "z"])
        try history.undo()
        #expect(log.entries.isEmpty)
        try history.redo()
        #expect(log.entries == ["x", "y", "z"])
        try history.undo()
        #expect(log.entries.isEmpty)
    }

    @Test func groupingLevelCountsOpenGroups() throws {
        let history = makeHistory()
        #expect(history.groupingLevel == 0)
        for level in 1...4 {
            history.beginUndoGrouping()
            #expect(history.groupingLevel == level)
        }
        for level in (0...3).reversed() {
            try history.endUndoGrouping()
            #expect(history.groupingLevel == level)
        }
    }

    @Test func undoNestedGroupUndoesTheInnerGroupOnly() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()          // outer
        counter.set(1)
        history.beginUndoGrouping()          // inner
        counter.set(2)
        counter.set(3)
        try history.endUndoGrouping()        // inner closed, outer open
        try history.undoNestedGroup()
        history._checkInvariants()
        #expect(counter.value == 1)
        #expect(history.groupingLevel == 1)
        #expect(history.redoCount == 1)
        // The outer group still holds set(1) and undoes it.
        try history.undo()
        #expect(counter.value == 0)
        #expect(history.groupingLevel == 0)
    }

    @Test func undoNestedGroupAtTopLevelUndoesTheLastGroup() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        for value in [5, 6] {
            history.beginUndoGrouping()
            counter.set(value)
            try history.endUndoGrouping()
        }
        try history.undoNestedGroup()
        #expect(counter.value == 5)
        try history.undoNestedGroup()
        #expect(counter.value == 0)
    }

    @Test func undoNestedGroupRejectsUngroupedActions() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        #expect(throws: UndoError.ungroupedActionsInOpenGroup(groupingLevel: 1)) {
            try history.undoNestedGroup()
        }
        history._checkInvariants()
        #expect(counter.value == 1)
        #expect(history.groupingLevel == 1)
    }

    @Test func undoNestedGroupRejectsAnEmptyOpenGroup() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        #expect(throws: UndoError.noClosedGroupInOpenGroup(groupingLevel: 1)) {
            try history.undoNestedGroup()
        }
        #expect(history.groupingLevel == 1)
    }

    @Test func endWithoutBeginThrowsAndChangesNothing() throws {
        let (history, recorder, _) = makeObservedHistory()
        #expect(throws: UndoError.endUndoGroupingWithoutBegin) { try history.endUndoGrouping() }
        #expect(recorder.names.isEmpty)
        history.beginUndoGrouping()
        try history.endUndoGrouping()
        #expect(throws: UndoError.endUndoGroupingWithoutBegin) { try history.endUndoGrouping() }
        history._checkInvariants()
    }

    @Test func undoClosesASingleOpenGroup() throws {
        let history = makeHistory()
        history.groupsByEvent = false
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(3)
        try history.undo()
        #expect(counter.value == 0)
        #expect(history.groupingLevel == 0)
        #expect(history.canRedo)
    }

    @Test func undoWithNestedOpenGroupsThrowsAndChangesNothing() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        history.beginUndoGrouping()
        counter.set(3)
        #expect(throws: UndoError.nestedGroupsOpen(operation: "undo()", groupingLevel: 2)) {
            try history.undo()
        }
        history._checkInvariants()
        #expect(counter.value == 3)
        #expect(history.groupingLevel == 2)
        try history.endUndoGrouping()
        try history.endUndoGrouping()
        try history.undo()
        #expect(counter.value == 0)
    }

    @Test func redoWithAnOpenGroupThrows() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        history.beginUndoGrouping()
        counter.set(1)
        try history.endUndoGrouping()
        try history.undo()
        history.beginUndoGrouping()
        #expect(throws: UndoError.groupOpen(operation: "redo()", groupingLevel: 1)) {
            try history.redo()
        }
        try history.endUndoGrouping()
        try history.redo()
        #expect(counter.value == 1)
    }
}
