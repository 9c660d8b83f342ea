// Every error of the layer is a LocalizedError whose localizedDescription is its readable text
// (Foundation's default for a Swift error without one is "The operation could not be
// completed").

import Foundation
import KeyValueObserving
import Testing
@testable import UndoManagement

@Suite("Error descriptions")
struct ErrorDescriptionTests {
    static let undoErrors: [(UndoError, String)] = [
        (.endUndoGroupingWithoutBegin, "endUndoGrouping()"),
        (.registrationWithoutOpenGroup, "no open undo group"),
        (.nestedGroupsOpen(operation: "undo()", groupingLevel: 2), "2 nested undo groups"),
        (.groupOpen(operation: "redo()", groupingLevel: 1), "redo()"),
        (.ungroupedActionsInOpenGroup(groupingLevel: 3), "level 3"),
        (.noClosedGroupInOpenGroup(groupingLevel: 4), "level 4"),
        (.busy(operation: "undo()", whileUndoing: true), "while undoing"),
        (.enableWithoutDisable, "enableUndoRegistration()"),
        (.groupsLeftOpenByAction(count: 2), "2 undo group(s)"),
        (.invalidMenuTitleFormat("Undo"), "\"Undo\""),
    ]

    @Test(arguments: undoErrors)
    func undoErrorsDescribeThemselves(error: UndoError, culprit: String) {
        let thrown: any Error = error
        #expect(thrown.localizedDescription == error.description)
        #expect(thrown.localizedDescription.contains(culprit))
        #expect(error.errorDescription == error.description)
    }

    static let recorderErrors: [(UndoRecorderError, String)] = [
        (.keyPathNotRecordable("department.name", type: "Employee"), "'department.name' of Employee"),
        (.inverseFailed(key: "year", type: "Movie", reason: "rejected"), "'year' of Movie: rejected"),
        (.inconsistentChange(key: "items", type: "Box", kind: .removal, indexes: [10], outOfRange: [10]),
         "'items' of Box"),
        (.registrationRefused(key: "name", type: "Shelf", error: .registrationWithoutOpenGroup),
         "'name' of Shelf cannot be undone"),
    ]

    @Test(arguments: recorderErrors)
    func recorderErrorsDescribeThemselves(error: UndoRecorderError, culprit: String) {
        let thrown: any Error = error
        #expect(thrown.localizedDescription == error.description)
        #expect(thrown.localizedDescription.contains(culprit))
    }
}

@Suite("Undo recorder: refused registrations")
struct UndoRecorderRefusalTests {
    /// With event grouping off, a change made while no group is open cannot be registered
    /// (Apple raises); observation handlers cannot throw, so the recorder reports it.
    @Test func aChangeWithNoOpenGroupIsReported() throws {
        let history = makeHistory()
        let recorder = UndoRecorder(history: history)
        let shelf = Shelf()
        try recorder.record(shelf, keys: ["name", "books"])
        var reported: [UndoRecorderError] = []
        recorder.failureHandler = { reported.append($0) }
        shelf.name = "Loose"
        let expected = UndoRecorderError.registrationRefused(key: "name", type: "Shelf",
                                                             error: .registrationWithoutOpenGroup)
        #expect(reported == [expected])
        #expect(recorder.lastFailure == expected)
        #expect(!history.canUndo)
        try shelf.mutableArrayValue(forKey: "books").append(Book("Dune"))
        #expect(reported.count == 2)
        // Inside a group the same changes are recorded.
        history.beginUndoGrouping()
        shelf.name = "Grouped"
        try history.endUndoGrouping()
        try history.undo()
        #expect(shelf.name == "Loose")
        #expect(reported.count == 2)
    }
}
