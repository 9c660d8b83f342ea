// The undo recorder: inverses of attribute sets and of to-many insertions, removals and
// replacements, undone and redone to the exact state.

import Foundation
import KeyValueCoding
import KeyValueObserving
import Testing
@testable import UndoManagement

@Suite("Undo recorder: inverses")
struct UndoRecorderInverseTests {
    @Test func attributeSetsAreUndoneAndRedone() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.name = "Films"
        shelf.capacity = 25
        shelf.rating = 4.5
        try history.closeEventGroup()
        #expect(history.undoCount == 1)
        try history.undo()
        #expect(shelf.name == "Shelf" && shelf.capacity == 10 && shelf.rating == 0.5)
        try history.redo()
        #expect(shelf.name == "Films" && shelf.capacity == 25 && shelf.rating == 4.5)
        history._checkInvariants()
    }

    @Test func optionalAttributeGoesBackToNil() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.note = "signed"
        try history.closeEventGroup()
        shelf.note = nil
        try history.closeEventGroup()
        try history.undo()
        #expect(shelf.note == "signed")
        try history.undo()
        #expect(shelf.note == nil)
        try history.redo()
        #expect(shelf.note == "signed")
        try history.redo()
        #expect(shelf.note == nil)
    }

    @Test func plainPropertyChangedThroughKeyValueCoding() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        try shelf.setValue(7, forKey: "shelfNumber")
        try history.undo()
        #expect(shelf.shelfNumber == 1)
        try history.redo()
        #expect(shelf.shelfNumber == 7)
    }

    @Test func insertionsAreRemovedAtTheirIndexes() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let (a, b, c) = (Book("A"), Book("B"), Book("C"))
        shelf.books = [a, c]
        try history.closeEventGroup()
        let proxy = try shelf.mutableArrayValue(forKey: "books")
        try proxy.insert(b, at: 1)
        try history.closeEventGroup()
        #expect(shelf.books.map(\.title) == ["A", "B", "C"])
        try history.undo()
        #expect(shelf.books.map(\.title) == ["A", "C"])
        try history.redo()
        #expect(shelf.books.count == 3 && shelf.books[1] === b)
    }

    @Test func severalInsertionsAtOnce() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.books = [Book("A"), Book("D")]
        try history.closeEventGroup()
        let inserted = [Book("B"), Book("C"), Book("E")]
        try shelf.mutableArrayValue(forKey: "books").insert(inserted, at: IndexSet([1, 2, 4]))
        let after = ShelfState(shelf)
        #expect(after.titles == ["A", "B", "C", "D", "E"])
        try history.undo()
        #expect(shelf.books.map(\.title) == ["A", "D"])
        try history.redo()
        #expect(ShelfState(shelf) == after)
    }

    @Test func removalsPutTheSameElementsBack() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let books = ["A", "B", "C", "D", "E"].map(Book.init)
        shelf.books = books
        try history.closeEventGroup()
        let before = ShelfState(shelf)
        try shelf.mutableArrayValue(forKey: "books").remove(at: IndexSet([0, 2, 4]))
        let after = ShelfState(shelf)
        #expect(after.titles == ["B", "D"])
        try history.undo()
        #expect(ShelfState(shelf) == before)
        #expect(shelf.books[2] === books[2])
        try history.redo()
        #expect(ShelfState(shelf) == after)
    }

    @Test func replacementsPutTheOldElementsBack() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.books = ["A", "B", "C"].map(Book.init)
        try history.closeEventGroup()
        let before = ShelfState(shelf)
        try shelf.mutableArrayValue(forKey: "books").replace(at: IndexSet([0, 2]), with: [Book("X"), Book("Z")])
        let after = ShelfState(shelf)
        try history.undo()
        #expect(ShelfState(shelf) == before)
        try history.redo()
        #expect(ShelfState(shelf) == after)
        #expect(after.titles == ["X", "B", "Z"])
    }

    @Test func moveIsUndoneAsOneStep() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        shelf.books = ["A", "B", "C", "D"].map(Book.init)
        try history.closeEventGroup()
        let before = ShelfState(shelf)
        try shelf.mutableArrayValue(forKey: "books").move(from: 0, to: 3)
        try history.closeEventGroup()
        let after = ShelfState(shelf)
        #expect(after.titles == ["B", "C", "D", "A"])
        try history.undo()
        #expect(ShelfState(shelf) == before)
        try history.redo()
        #expect(ShelfState(shelf) == after)
    }

    @Test func elementAttributesRecordedToo() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let book = Book("Draft")
        try recorder.record(book, keys: ["title"])
        try shelf.mutableArrayValue(forKey: "books").append(book)
        book.title = "Final"
        try history.closeEventGroup()
        try history.undo()
        #expect(shelf.books.isEmpty && book.title == "Draft")
        try history.redo()
        #expect(shelf.books.first === book && book.title == "Final")
    }

    @Test func setMutationsAreInverted() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let tags = try shelf.mutableSetValue(forKey: "tags")
        try tags.union(["drama", "noir"])
        try history.closeEventGroup()
        try tags.remove("noir")
        try history.closeEventGroup()
        try tags.replaceAll(with: ["comedy", "drama"])
        try history.closeEventGroup()
        #expect(shelf.tags == ["comedy", "drama"])
        try history.undo()
        #expect(shelf.tags == ["drama"])
        try history.undo()
        #expect(shelf.tags == ["drama", "noir"])
        try history.undo()
        #expect(shelf.tags.isEmpty)
        try history.redo()
        try history.redo()
        try history.redo()
        #expect(shelf.tags == ["comedy", "drama"])
    }

    @Test func everyStepUndoesAndRedoesToTheExactState() throws {
        let (history, recorder, shelf) = try makeRecordedShelf()
        defer { withExtendedLifetime(recorder) {} }
        let books = ["A", "B", "C"].map(Book.init)
        for book in books { try recorder.record(book, keys: ["title"]) }
        let proxy = try shelf.mutableArrayValue(forKey: "books")
        let steps: [() throws -> Void] = [
            { shelf.name = "Films" },
            { try proxy.append(books[0]); try proxy.append(books[1]) },
            { try proxy.insert(books[2], at: 0) },
            { books[1].title = "B2"; shelf.capacity = 3 },
            { try proxy.remove(at: 1) },
            { try proxy.replace(at: 0, with: books[0]) },
            { try shelf.setValue(nil, forKey: "note"); shelf.note = "x"; shelf.rating = 2 },
            { try proxy.move(from: 0, to: 1) },
        ]
        var states = [ShelfState(shelf)]
        for step in steps {
            try step()
            try history.closeEventGroup()
            states.append(ShelfState(shelf))
        }
        #expect(history.undoCount == steps.count)
        for index in stride(from: steps.count - 1, through: 0, by: -1) {
            try history.undo()
            #expect(ShelfState(shelf) == states[index], "after undoing step \(index + 1)")
        }
        #expect(!history.canUndo && history.redoCount == steps.count)
        for index in 1...steps.count {
            try history.redo()
            #expect(ShelfState(shelf) == states[index], "after redoing step \(index)")
        }
        #expect(!history.canRedo && history.undoCount == steps.count)
        history._checkInvariants()
    }
}
