// Docs/Undo.md's other examples (nested groups, the event group, the command-line loop,
// notifications, recording observed changes), kept compiling and true (issue 11);
// ValueTypeGuideExampleTests.swift has the worked and value-type ones. The code is copied as the
// guide writes it; what a fragment takes from its surroundings (`history`, `register`, `apply`)
// is declared around it, and the command-line loop reads from the scripted `readLine` below.

import Foundation
import Synchronization
import Testing
import KeyValueObserving
import UndoManagement

/// The lines the command-line example reads, first first.
private let scriptedInput = Mutex<[String]>([])

/// Stands in for `Swift.readLine` in this file: the next scripted line, nil at the end.
private func readLine() -> String? {
    scriptedInput.withLock { $0.isEmpty ? nil : $0.removeFirst() }
}

/// "Recording observed changes".
private enum RecorderExample {
    final class Movie: KeyValueObservable {
        @Observed var title: String
        @Observed var year: Int
        init(title: String, year: Int) { self.title = title; self.year = year }
    }

    final class Theater: KeyValueObservable {
        @Observed var movies: [Movie] = []
    }
}

@Suite("Undo guide: grouping, events, notifications, recording", .serialized)
struct UndoGuideSectionExampleTests {
    @Test func nestedGroups() throws {
        let history = UndoHistory()
        var undone: [String] = []
        func register(_ name: String) throws { try history.registerUndo { undone.append(name) } }

        history.groupsByEvent = false    // explicit groups only (see "Event grouping" for the default)
        history.beginUndoGrouping()      // groupingLevel 1
        try register("a")
        history.beginUndoGrouping()      // groupingLevel 2
        try register("b"); try register("c")
        try history.endUndoGrouping()    // back to 1
        try register("d")
        try history.endUndoGrouping()    // 0: one step on the undo stack
        try history.undo()               // runs d, c, b, a

        #expect(undone == ["d", "c", "b", "a"])
        #expect(!history.canUndo)
    }

    @Test func groupInsideTheEventGroup() throws {
        let history = UndoHistory()
        var undone: [String] = []
        func register(_ name: String) throws { try history.registerUndo { undone.append(name) } }

        history.beginUndoGrouping()      // groupingLevel 2: the event group, then this group
        #expect(history.groupingLevel == 2)
        try register("a")
        try history.endUndoGrouping()    // 1: the event group is still open
        #expect(history.groupingLevel == 1)
        try register("b")                // joins the event group
        try history.closeEventGroup()    // 0: one step, undone as b, a
        #expect(history.groupingLevel == 0)

        try history.undo()
        #expect(undone == ["b", "a"])
        #expect(!history.canUndo)
    }

    @Test func commandLineLoop() throws {
        let history = UndoHistory()
        var value = 0
        func set(_ new: Int) throws(UndoError) {
            let old = value
            try history.registerUndo { try? set(old) }   // undoing registers the redo
            value = new
        }
        func apply(_ line: String) throws { try set(Int(line) ?? value) }
        scriptedInput.withLock { $0 = ["1", "2", "undo", "undo", "redo"] }

        // A command-line program: one command is one undo step.
        while let line = readLine() {
            switch line {
            case "undo": try history.undo()
            case "redo": try history.redo()
            default:
                try apply(line)                 // registers undo actions
                try history.closeEventGroup()   // end of this "event"
            }
        }

        #expect(value == 1)
        #expect(history.canUndo && history.canRedo)
        history.removeAllActions()   // the handlers capture `set`, which captures the history
    }

    @Test func checkpointNotifications() throws {
        let history = UndoHistory()
        let checkpoints = Mutex(0)

        let token = UndoNotificationCenter.shared.addObserver(
            forName: UndoHistory.checkpointNotification, object: history, queue: nil
        ) { _ in
            // flush batched changes into the open group
            checkpoints.withLock { $0 += 1 }
        }
        try history.registerUndo {}
        try history.closeEventGroup()
        // ...
        UndoNotificationCenter.shared.removeObserver(token)

        let seen = checkpoints.withLock { $0 }
        #expect(seen > 0)
        try history.undo()
        #expect(checkpoints.withLock { $0 } == seen, "no notifications after removeObserver")
    }

    @Test func recordingObservedChanges() throws {
        typealias Movie = RecorderExample.Movie
        typealias Theater = RecorderExample.Theater

        let history = UndoHistory()
        let recorder = UndoRecorder(history: history)     // keep it: it owns the observations
        let theater = Theater()
        try recorder.record(theater, keys: ["movies"])

        let alien = Movie(title: "Alien", year: 1979)
        try recorder.record(alien, keys: ["title", "year"])
        try theater.mutableArrayValue(forKey: "movies").append(alien)
        history.setActionName("Add Movie")
        try history.closeEventGroup()                      // one command = one undo step

        alien.year = 1986
        history.setActionName("Set Year")
        try history.closeEventGroup()

        try history.undo()    // alien.year == 1979
        #expect(alien.year == 1979)
        try history.undo()    // theater.movies is empty
        #expect(theater.movies.isEmpty)
        try history.redo()    // the same Alien object is back at index 0
        #expect(theater.movies.first === alien)
    }
}
