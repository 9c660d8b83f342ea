// Action names, menu titles, discardable actions.

import Foundation
import Testing
@testable import UndoManagement

@Suite("Action names")
struct ActionNameTests {
    @Test func namesFollowTheGroupsThroughUndoAndRedo() throws {
        let history = makeHistory()
        let counter = Counter(history: history)
        #expect(history.undoActionName == "")
        #expect(history.undoMenuItemTitle == "Undo")
        #expect(history.redoMenuItemTitle == "Redo")

        history.beginUndoGrouping()
        counter.set(1)
        history.setActionName("Typing")
        try history.endUndoGrouping()
        history.beginUndoGrouping()
        counter.set(2)
        history.setActionName("Paste")
        try history.endUndoGrouping()
        #expect(history.undoActionName == "Paste")
        #expect(history.undoMenuItemTitle == "Undo Paste")
        #expect(history.redoActionName == "")

        try history.undo()
        #expect(history.undoActionName == "Typing")
        #expect(history.redoActionName == "Paste")
        #expect(history.redoMenuItemTitle == "Redo Paste")
        try history.redo()
        #expect(history.undoActionName == "Paste")
        #expect(history.redoActionName == "")
    }

    @Test func nameOfAnOpenEventGroup() throws {
        let history = makeHistory(groupsByEvent: true)
        let counter = Counter(history: history)
        counter.set(1)
        history.setActionName("Move")
        #expect(history.undoActionName == "Move")
        try history.undo()
        #expect(history.redoActionName == "Move")
    }

    @Test func nameSetAfterClosingNamesTheNewestGroup() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.endUndoGrouping()
        history.setActionName("Late")
        #expect(history.undoActionName == "Late")
        history.setActionName("")
        #expect(history.undoActionName == "")
        #expect(history.undoMenuItemTitle == "Undo")
    }

    @Test func nameSetWhileUndoingNamesTheRedoGroup() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        try history.registerUndo {
            try? history.registerUndo {}
            history.setActionName("Renamed")
        }
        history.setActionName("Original")
        try history.endUndoGrouping()
        try history.undo()
        #expect(history.redoActionName == "Renamed")
    }

    @Test func nestedGroupsShareTheTopLevelName() throws {
        let history = makeHistory()
        history.beginUndoGrouping()
        history.beginUndoGrouping()
        try history.registerUndo {}
        history.setActionName("Inner")
        try history.endUndoGrouping()
        try history.endUndoGrouping()
        #expect(history.undoActionName == "Inner")
    }

    @Test(arguments: [("", "Undo", "Redo"), ("Paste", "Undo Paste", "Redo Paste"),
                      ("Delete 3 Rows", "Undo Delete 3 Rows", "Redo Delete 3 Rows")])
    func menuTitleForActionName(name: String, undo: String, redo: String) {
        let history = makeHistory()
        #expect(history.undoMenuTitle(forUndoActionName: name) == undo)
        #expect(history.redoMenuTitle(forUndoActionName: name) == redo)
    }

    @Test func localizedMenuTitles() throws {
        let history = makeHistory()
        history.menuTitles = try UndoMenuTitles(undo: "Annuler", redo: "Rétablir",
                                                undoFormat: "Annuler « %@ »",
                                                redoFormat: "%@ rétablir")
        #expect(history.undoMenuTitle(forUndoActionName: "Coller") == "Annuler « Coller »")
        #expect(history.redoMenuTitle(forUndoActionName: "Coller") == "Coller rétablir")
        #expect(history.undoMenuItemTitle == "Annuler")
        #expect(history.redoMenuItemTitle == "Rétablir")
        // A name containing the placeholder is inserted as is.
        #expect(history.undoMenuTitle(forUndoActionName: "%@") == "Annuler « %@ »")
    }

    @Test(arguments: ["Undo", "Undo %@ %@", "Undo %d", ""])
    func invalidFormatsAreRejected(format: String) {
        #expect(throws: UndoError.invalidMenuTitleFormat(format)) {
            _ = try UndoMenuTitles(undo: "U", redo: "R", undoFormat: format, redoFormat: "R %@")
        }
    }
}

@Suite("Discardable actions")
struct DiscardableTests {
    @Test func discardableFlagFollowsTheGroup() throws {
        let history = makeHistory()
        #expect(!history.undoActionIsDiscardable)
        history.beginUndoGrouping()
        try history.registerUndo { try? history.registerUndo {} }
        history.setActionIsDiscardable(true)
        try history.endUndoGrouping()
        history.beginUndoGrouping()
        try history.registerUndo { try? history.registerUndo {} }
        try history.endUndoGrouping()
        #expect(!history.undoActionIsDiscardable)
        try history.undo()
        #expect(history.undoActionIsDiscardable)
        #expect(!history.redoActionIsDiscardable)
        try history.undo()
        #expect(history.redoActionIsDiscardable)
        history.setActionIsDiscardable(false)   // nothing to undo: no effect
        #expect(history.redoActionIsDiscardable)
    }

    @Test func closeNotificationsCarryTheDiscardableKey() throws {
        let (history, recorder, _) = makeObservedHistory()
        history.beginUndoGrouping()
        try history.registerUndo {}
        history.setActionIsDiscardable(true)
        try history.endUndoGrouping()
        #expect(recorder.discardableNames == ["WillCloseUndoGroup", "DidCloseUndoGroup"])
        recorder.removeAll()
        history.beginUndoGrouping()
        try history.registerUndo {}
        try history.endUndoGrouping()
        #expect(recorder.discardableNames.isEmpty)
    }
}
