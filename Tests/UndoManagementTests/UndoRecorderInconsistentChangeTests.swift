// To-many change records whose indexes do not match the array: reported when they arrive, with
// no inverse registered (Apple raises a range exception in willChange(_:valuesAt:forKey:)).

import Foundation
import KeyValueObserving
import Testing
@testable import UndoManagement

@Suite("Undo recorder: inconsistent to-many changes")
struct UndoRecorderInconsistentChangeTests {
    /// A recorded crate holding [1, 2, 3], with an empty history and a failure log.
    private func recordedCrate() throws -> (UndoHistory, UndoRecorder, Crate, FailureLog) {
        let history = makeHistory(groupsByEvent: true)
        let recorder = UndoRecorder(history: history)
        let crate = Crate()
        try recorder.record(crate, keys: ["items"])
        let log = FailureLog()
        recorder.failureHandler = { log.failures.append($0) }
        return (history, recorder, crate, log)
    }

    @Test func removalBeyondTheEndIsReportedAtChangeTime() throws {
        let (history, recorder, crate, log) = try recordedCrate()
        crate.willChange(.removal, valuesAt: IndexSet([10]), forKey: "items")
        crate.didChange(.removal, valuesAt: IndexSet([10]), forKey: "items")
        // Reported now, not at undo time, and nothing was registered.
        let failure = try #require(recorder.lastFailure)
        #expect(log.failures == [failure])
        #expect(failure == .inconsistentChange(key: "items", type: "Crate", kind: .removal,
                                               indexes: IndexSet([10]), outOfRange: IndexSet([10])))
        #expect(failure.description.contains("'items' of Crate"))
        #expect(failure.description.contains("[10]"))
        #expect(failure.description.contains("out of range"))
        #expect(!history.canUndo)
        #expect(crate.items == [1, 2, 3])
    }

    @Test func insertionWithIndexesBeyondTheNewCountIsReported() throws {
        let (history, recorder, crate, log) = try recordedCrate()
        crate.willChange(.insertion, valuesAt: IndexSet([0, 50]), forKey: "items")
        crate.items.append(4)   // one element for two announced indexes
        crate.didChange(.insertion, valuesAt: IndexSet([0, 50]), forKey: "items")
        let failure = try #require(recorder.lastFailure)
        #expect(log.failures == [failure])
        #expect(failure == .inconsistentChange(key: "items", type: "Crate", kind: .insertion,
                                               indexes: IndexSet([0, 50]), outOfRange: IndexSet([50])))
        #expect(failure.description.contains("insertion"))
        #expect(!history.canUndo)
    }

    @Test func replacementPartlyBeyondTheEndIsReported() throws {
        let (history, recorder, crate, _) = try recordedCrate()
        crate.willChange(.replacement, valuesAt: IndexSet([1, 3, 4]), forKey: "items")
        crate.didChange(.replacement, valuesAt: IndexSet([1, 3, 4]), forKey: "items")
        let failure = try #require(recorder.lastFailure)
        #expect(failure == .inconsistentChange(key: "items", type: "Crate", kind: .replacement,
                                               indexes: IndexSet([1, 3, 4]), outOfRange: IndexSet([3, 4])))
        #expect(!history.canUndo)
    }

    @Test func consistentManualChangesAreStillRecorded() throws {
        let (history, recorder, crate, log) = try recordedCrate()
        crate.willChange(.removal, valuesAt: IndexSet([1]), forKey: "items")
        crate.items.remove(at: 1)
        crate.didChange(.removal, valuesAt: IndexSet([1]), forKey: "items")
        crate.willChange(.insertion, valuesAt: IndexSet([0, 3]), forKey: "items")
        crate.items.insert(0, at: 0)
        crate.items.append(4)
        crate.didChange(.insertion, valuesAt: IndexSet([0, 3]), forKey: "items")
        #expect(crate.items == [0, 1, 3, 4])
        try history.closeEventGroup()
        try history.undo()
        #expect(crate.items == [1, 2, 3])
        #expect(recorder.lastFailure == nil)
        #expect(log.failures.isEmpty)
    }

    @Test func proxyEditsAreNeverReported() throws {
        let (history, recorder, crate, _) = try recordedCrate()
        let items = try crate.mutableArrayValue(forKey: "items")
        try items.insert(9, at: 3)
        try items.remove(at: IndexSet([0, 2]))
        try items.replace(at: IndexSet([0]), with: [7])
        #expect(crate.items == [7, 9])
        try history.closeEventGroup()
        try history.undo()
        #expect(crate.items == [1, 2, 3])
        #expect(recorder.lastFailure == nil)
    }
}

/// A to-many property with no `@Observed` wrapper: only key-value coding and the manual
/// `willChange`/`didChange` calls notify.
private final class Crate: KeyValueObservable {
    /// Changed through its proxy or between manual will/did pairs only, so exposed as a
    /// computed key (a plain stored `var` cannot be observed).
    var items = [1, 2, 3]

    static var computedKeys: [String: AnyKeyPath] { ["items": \Crate.items] }
}

/// Collects reported failures (the handler is not `@Sendable`: the recorder is single-threaded).
private final class FailureLog {
    var failures: [UndoRecorderError] = []
}

@Suite("Undo recorder: observing options")
struct UndoRecorderObservingOptionsTests {
    @Test func arrayKeysAreObservedWithoutNewValues() {
        // An array insertion's inverse needs only the indexes; a set mutation's needs the
        // added members; a setting's needs only the old value, but new values cost nothing there.
        #expect(UndoRecorder.observingOptions(forValue: [1, 2, 3]) == [.old])
        #expect(UndoRecorder.observingOptions(forValue: [Book("A")]) == [.old])
        #expect(UndoRecorder.observingOptions(forValue: Set(["a"])) == [.old, .new])
        #expect(UndoRecorder.observingOptions(forValue: 7) == [.old, .new])
        #expect(UndoRecorder.observingOptions(forValue: nil) == [.old, .new])
    }

    @Test func arrayInsertionsStillUndoAndRedo() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        let books = try shelf.mutableArrayValue(forKey: "books")
        try books.insert([Book("A"), Book("B")], at: IndexSet([0, 1]))
        #expect(history.undoCount == 1)
        try history.closeEventGroup()
        try books.insert(Book("C"), at: 1)
        try history.closeEventGroup()
        try history.undo()
        #expect(shelf.books.map(\.title) == ["A", "B"])
        try history.undo()
        #expect(shelf.books.isEmpty)
        try history.redo()
        try history.redo()
        #expect(shelf.books.map(\.title) == ["A", "C", "B"])
        #expect(recorder.lastFailure == nil)   // also keeps the recorder alive to here
    }
}
