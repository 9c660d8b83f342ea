// The undo recorder: groups, no double registration, stopping, lifetimes, bad keys, failures.

import Foundation
import KeyValueCoding
import KeyValueObserving
import Testing
@testable import UndoManagement

@Suite("Undo recorder: grouping and registration")
struct UndoRecorderGroupingTests {
    @Test func nestedGroupsUndoAsOneStepAndRedoExactly() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let before = ShelfState(shelf)
        history.beginUndoGrouping()
        shelf.name = "Outer"
        history.beginUndoGrouping()
        shelf.capacity = 3
        try shelf.mutableArrayValue(forKey: "books").append(Book("Inner"))
        try history.endUndoGrouping()
        shelf.rating = 9
        try history.endUndoGrouping()
        let after = ShelfState(shelf)
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(ShelfState(shelf) == before)
        try history.redo()
        #expect(ShelfState(shelf) == after)
        try history.undo()
        #expect(ShelfState(shelf) == before)
        history._checkInvariants()
    }

    @Test func undoNestedGroupRevertsOnlyTheInnerGroup() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        history.beginUndoGrouping()
        shelf.name = "Outer"
        history.beginUndoGrouping()
        shelf.capacity = 3
        try history.endUndoGrouping()
        try history.undoNestedGroup()
        #expect(shelf.capacity == 10 && shelf.name == "Outer")
        try history.endUndoGrouping()
        try history.undo()
        #expect(shelf.name == "Shelf")
        try history.redo()
        #expect(shelf.name == "Outer" && shelf.capacity == 10)
    }

    @Test func undoRegistersEachInverseOnceAndNeverLoops() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let counter = ChangeCounter()
        let token = try shelf.observe("name") { _, _ in counter.increment() }
        defer { token.invalidate() }
        shelf.name = "A"
        try history.closeEventGroup()
        #expect(counter.value == 1)
        try history.undo()
        // One inverse ran (one change), and the redo stack got exactly one group.
        #expect(counter.value == 2 && shelf.name == "Shelf")
        #expect(history.undoCount == 0 && history.redoCount == 1)
        try history.redo()
        #expect(counter.value == 3 && shelf.name == "A")
        #expect(history.undoCount == 1 && history.redoCount == 0)
        // Many round trips keep exactly one step on one side.
        for _ in 0..<20 {
            try history.undo()
            try history.redo()
        }
        #expect(counter.value == 43 && history.undoCount == 1 && history.redoCount == 0)
        history._checkInvariants()
    }

    @Test func recordingAKeyTwiceRegistersOnce() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        try recorder.record(shelf, keys: ["name", "name"])
        let counter = ChangeCounter()
        let token = try shelf.observe("name") { _, _ in counter.increment() }
        defer { token.invalidate() }
        shelf.name = "A"
        try history.undo()
        try history.redo()
        #expect(counter.value == 3)   // set, one inverse, one redo
        #expect(shelf.name == "A" && recorder.recordedKeys(of: shelf) == Set(shelfKeys))
    }

    @Test func nothingIsRecordedWhileRegistrationIsDisabled() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        history.disableUndoRegistration()
        shelf.name = "Loaded"
        try shelf.mutableArrayValue(forKey: "books").append(Book("A"))
        try history.enableUndoRegistration()
        #expect(!history.canUndo)
        shelf.name = "Edited"
        try history.undo()
        #expect(shelf.name == "Loaded" && shelf.books.count == 1)
    }

    @Test func actionNamesAndEventGroupsAreTheHistorys() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.name = "A"
        history.setActionName("Rename")
        try history.closeEventGroup()
        shelf.capacity = 1
        shelf.capacity = 2
        history.setActionName("Resize")
        try history.closeEventGroup()
        #expect(history.undoActionName == "Resize" && history.undoCount == 2)
        try history.undo()
        #expect(shelf.capacity == 10 && history.redoActionName == "Resize")
        #expect(history.undoActionName == "Rename")
    }
}

@Suite("Undo recorder: stopping and lifetimes")
struct UndoRecorderLifetimeTests {
    @Test func stoppingSomeKeysKeepsTheOthers() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        recorder.stopRecording(shelf, keys: ["name", "books", "unknown"])
        #expect(recorder.recordedKeys(of: shelf) == Set(shelfKeys).subtracting(["name", "books"]))
        shelf.name = "Not recorded"
        try shelf.mutableArrayValue(forKey: "books").append(Book("A"))
        #expect(!history.canUndo)
        shelf.capacity = 1
        try history.undo()
        #expect(shelf.capacity == 10 && shelf.name == "Not recorded" && shelf.books.count == 1)
    }

    @Test func stoppingAnObjectAndStoppingAll() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        let other = Shelf()
        try recorder.record(other, keys: ["name"])
        #expect(recorder.recordedObjectCount == 2)
        recorder.stopRecording(shelf)
        #expect(recorder.recordedKeys(of: shelf).isEmpty && recorder.recordedObjectCount == 1)
        shelf.name = "Free"
        #expect(!history.canUndo)
        other.name = "Kept"
        #expect(history.canUndo)
        recorder.stopRecordingAll()
        #expect(recorder.recordedObjectCount == 0)
        try history.undo()
        // The inverse still runs, but is no longer recorded: the redo step is empty.
        #expect(other.name == "Shelf")
        try history.redo()
        #expect(other.name == "Shelf")
    }

    @Test func releasedObjectsAreSkippedAndForgotten() throws {
        let history = makeHistory(groupsByEvent: true)
        let recorder = UndoRecorder(history: history)
        weak var released: Shelf?
        do {
            let shelf = Shelf()
            released = shelf
            try recorder.record(shelf, keys: ["name"])
            shelf.name = "Gone"
            try history.closeEventGroup()
        }
        #expect(released == nil)
        #expect(recorder.recordedObjectCount == 0)
        try history.undo()   // the action's target is gone: skipped
        #expect(!history.canUndo)
        // New objects, possibly at the same address, are recorded afresh.
        for index in 0..<200 {
            let shelf = Shelf()
            try recorder.record(shelf, keys: ["capacity"])
            shelf.capacity = index
            #expect(recorder.recordedKeys(of: shelf) == ["capacity"])
        }
        #expect(recorder.recordedObjectCount == 0)
    }

    @Test func releasingTheRecorderEndsRecording() throws {
        let history = makeHistory(groupsByEvent: true)
        let shelf = Shelf()
        do {
            let recorder = UndoRecorder(history: history)
            try recorder.record(shelf, keys: ["name"])
            shelf.name = "Recorded"
            try history.closeEventGroup()
        }
        shelf.name = "Unrecorded"
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(shelf.name == "Shelf")   // reverted, but not re-recorded
        try history.redo()
        #expect(shelf.name == "Shelf")   // the redo step is empty
    }
}

@Suite("Undo recorder: errors")
struct UndoRecorderErrorTests {
    @Test(arguments: ["books.title", "@count", "books.@count"])
    func keyPathsAreRejected(keyPath: String) throws {
        let history = makeHistory(groupsByEvent: true)
        let recorder = UndoRecorder(history: history)
        let shelf = Shelf()
        #expect(throws: UndoRecorderError.keyPathNotRecordable(keyPath, type: "Shelf")) {
            try recorder.record(shelf, keys: ["name", keyPath])
        }
        #expect(recorder.recordedKeys(of: shelf).isEmpty)
        shelf.name = "A"
        #expect(!history.canUndo)
    }

    @Test func undefinedKeyIsReportedAndNothingIsRecorded() throws {
        let history = makeHistory(groupsByEvent: true)
        let recorder = UndoRecorder(history: history)
        let shelf = Shelf()
        #expect(throws: KeyValueObservingError.self) {
            try recorder.record(shelf, keys: ["name", "colour"])
        }
        #expect(recorder.recordedObjectCount == 0)
        shelf.name = "A"
        #expect(!history.canUndo)
    }

    @Test func failedInverseIsReportedNotThrown() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        var reported: [UndoRecorderError] = []
        recorder.failureHandler = { reported.append($0) }
        try shelf.mutableArrayValue(forKey: "books").insert(Book("A"), at: 0)
        shelf.name = "Named"
        try history.closeEventGroup()
        // Changed behind the recorder's back: the insertion's index no longer exists.
        recorder.stopRecording(shelf, keys: ["books"])
        shelf.books = []
        try recorder.record(shelf, keys: ["books"])
        try history.undo()
        #expect(shelf.name == "Shelf")   // the rest of the group still ran
        let failure = try #require(recorder.lastFailure)
        #expect(reported == [failure])
        guard case .inverseFailed(let key, let type, let reason) = failure else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(key == "books" && type == "Shelf" && reason.contains("out of range"))
        #expect(failure.description.hasPrefix("cannot revert the change of 'books' of Shelf"))
    }
}

/// The example of Docs/Undo.md, "Recording observed changes".
private final class GuideMovie: KeyValueObservable {
    @Observed var title: String
    @Observed var year: Int
    init(title: String, year: Int) { self.title = title; self.year = year }
}

private final class GuideTheater: KeyValueObservable {
    @Observed var movies: [GuideMovie] = []
}

@Suite("Undo recorder: guide example")
struct UndoRecorderGuideTests {
    @Test func guideExampleWorksAsDocumented() throws {
        let history = UndoHistory(notificationCenter: nil)
        let recorder = UndoRecorder(history: history)
        defer { withExtendedLifetime(recorder) {} }
        let theater = GuideTheater()
        try recorder.record(theater, keys: ["movies"])
        let alien = GuideMovie(title: "Alien", year: 1979)
        try recorder.record(alien, keys: ["title", "year"])
        try theater.mutableArrayValue(forKey: "movies").append(alien)
        history.setActionName("Add Movie")
        try history.closeEventGroup()
        alien.year = 1986
        history.setActionName("Set Year")
        try history.closeEventGroup()
        try history.undo()
        #expect(alien.year == 1979 && theater.movies.count == 1)
        try history.undo()
        #expect(theater.movies.isEmpty)
        try history.redo()
        #expect(theater.movies.first === alien && history.redoActionName == "Set Year")
    }
}
