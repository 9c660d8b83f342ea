// The merging and conflict tests shared by the store test targets: each body takes a store
// factory, so the same cases run on the in-memory store (ManagedObjectsTests) and the SQLite store
// (SQLiteStoreTests).
import Foundation
import KeyValueCoding
import KeyValueObserving
import ManagedObjects
import Predicates
import Testing

/// Makes the stores a merge test runs on.
package struct TestStoreFactory: Sendable, CustomStringConvertible {
    /// The store kind, for test names.
    package var description: String
    /// A store on the test's storage: each call gives a handle on the same rows (the same
    /// in-memory store, a new store on the same file), as another coordinator or process has.
    package var open: @Sendable () throws -> any PersistentStore

    package init(_ description: String, open: @escaping @Sendable () throws -> any PersistentStore) {
        self.description = description
        self.open = open
    }

    /// A new coordinator for `model` with a store of this factory added.
    package func coordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(try open())
        return coordinator
    }
}

/// Shared test bodies for merging and merge policies (issue 14).
package enum MergeMatrix {
    /// Shelves with books; a book's `isbn` is unique.
    package static func model() throws -> ManagedObjectModel {
        var book = EntityDescription(name: "Book", properties: [
            .attribute("isbn", .string), .attribute("title", .string), .attribute("summary", .string),
            .attribute("pages", .integer64), .toOne("shelf", "Shelf", inverse: "books"),
        ])
        book.uniquenessConstraints = [["isbn"]]
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Shelf", properties: [.attribute("label", .string), .toMany("books", "Book", inverse: "shelf")]),
            book,
        ])
    }

    /// A coordinator on a store of `factory` holding shelves "S1" and "S2", book "1"
    /// ("Original", "Plain", 100 pages) and book "2" ("Second") on S1; and two contexts on it.
    package static func stocked(_ factory: TestStoreFactory) throws
        -> (coordinator: PersistentStoreCoordinator, a: ManagedObjectContext, b: ManagedObjectContext) {
        let coordinator = try factory.coordinator(try model())
        let setup = ManagedObjectContext(coordinator: coordinator)
        let first = try setup.insertNewObject(forEntityNamed: "Shelf")
        try first.setValue("S1", forKey: "label")
        try setup.insertNewObject(forEntityNamed: "Shelf").setValue("S2", forKey: "label")
        for (isbn, title) in [("1", "Original"), ("2", "Second")] {
            let book = try setup.insertNewObject(forEntityNamed: "Book")
            try book.setValue(isbn, forKey: "isbn")
            try book.setValue(title, forKey: "title")
            try book.setValue(first, forKey: "shelf")
        }
        let book = try Self.book(setup, "1")
        try book.setValue("Plain", forKey: "summary")
        try book.setValue(Int64(100), forKey: "pages")
        try setup.save()
        return (coordinator, ManagedObjectContext(coordinator: coordinator), ManagedObjectContext(coordinator: coordinator))
    }

    /// The book with an ISBN, fetched (loaded) in `context`.
    package static func book(_ context: ManagedObjectContext, _ isbn: String) throws -> ManagedObject {
        try #require(try books(context, isbn).first)
    }

    /// The books with an ISBN.
    package static func books(_ context: ManagedObjectContext, _ isbn: String) throws -> [ManagedObject] {
        try context.fetch(EntityFetchRequest(entityName: "Book", predicate: KeyValuePredicate(format: "isbn == %@", isbn)))
    }

    /// The shelf with a label.
    package static func shelf(_ context: ManagedObjectContext, _ label: String) throws -> ManagedObject {
        try #require(try context.fetch(EntityFetchRequest(entityName: "Shelf", predicate: KeyValuePredicate(format: "label == %@", label))).first)
    }

    /// A new context that reads the store (no cached rows) for checking what was saved.
    package static func reader(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        let context = ManagedObjectContext(coordinator: coordinator)
        context.stalenessInterval = 0
        return context
    }

    // MARK: Merging

    /// A did-save merged into a context holding the objects: updates reach observed objects
    /// keeping local changes, inserts are faulted in, deletes invalidate; one objects-did-change.
    package static func mergeFromContextDidSave(_ factory: TestStoreFactory) throws {
        let (_, a, b) = try stocked(factory)
        let center = NotificationCenter()
        a.notificationCenter = center
        // Unsafe: the center posts synchronously on this thread (the closure only looks
        // `@Sendable`).
        nonisolated(unsafe) var saved: [Notification] = []
        let observer = center.addObserver(forName: ManagedObjectContext.didSaveNotification, object: a, queue: nil) { saved.append($0) }
        defer { center.removeObserver(observer) }

        let mine = try book(b, "1")
        let gone = try book(b, "2")
        let shelf = try shelf(b, "S1")
        #expect((try shelf.value(forKey: "books") as? Set<ManagedObject>)?.contains(gone) == true)
        try mine.setValue("Local summary", forKey: "summary")          // an unsaved change in b
        let recorder = ChangeRecorder()
        let observation = try mine.observe("title", options: [.new], changeHandler: recorder.handler("title"))
        let shelfRecorder = ChangeRecorder()
        let shelfObservation = try shelf.observe("books", options: [.new], changeHandler: shelfRecorder.handler("books"))
        var batches: [ManagedObjectContext.Changes] = []
        let token = b.onObjectsDidChange { batches.append($0) }
        b.processPendingChanges()
        batches.removeAll()

        let theirs = try book(a, "1")
        try theirs.setValue("Merged title", forKey: "title")
        try theirs.setValue(Int64(300), forKey: "pages")
        let added = try a.insertNewObject(forEntityNamed: "Book")
        try added.setValue("3", forKey: "isbn")
        a.delete(try book(a, "2"))
        try a.save()

        let notification = try #require(saved.first)
        b.mergeChanges(fromContextDidSave: notification)
        #expect(recorder.newValues(as: String.self) == ["Merged title"], "the observer of the merged object heard the change")
        #expect(try mine.value(forKey: "title") as? String == "Merged title")
        #expect(try mine.value(forKey: "pages") as? Int64 == 300)
        #expect(try mine.value(forKey: "summary") as? String == "Local summary", "local changes stay on top")
        #expect(mine.isUpdated && b.updatedObjects == [mine])
        #expect(gone.managedObjectContext == nil && !gone.isDeleted, "a merged delete leaves the context")
        #expect(b.registeredObject(for: gone.objectID) == nil)
        #expect((try shelf.value(forKey: "books") as? Set<ManagedObject>)?.contains(gone) == false)
        #expect(!shelf.hasChanges, "removing the deleted book from its shelf is no change")
        #expect(shelfRecorder.records(for: "books").count == 1, "the shelf's observer heard the book leave")
        #expect((shelfRecorder.records(for: "books").first?.change.newValue as? Set<ManagedObject>)?.contains(gone) == false)
        let fault = try #require(b.registeredObject(for: added.objectID), "inserted objects are faulted in")
        #expect(fault.isFault && b.insertedObjects.isEmpty)
        #expect(batches.count == 1)
        let changes = try #require(batches.first)
        #expect(changes.refreshed == [mine, shelf], "the shelf lost the deleted book in the other save")
        #expect(changes.inserted == [fault])
        #expect(changes.deleted == [gone] && changes.invalidated == [gone])
        #expect(changes.userInfo[ManagedObjectContext.ChangeKey.invalidated.rawValue] as? Set<ManagedObject> == [gone])
        #expect(try fault.value(forKey: "isbn") as? String == "3")

        try b.save()                                                    // no conflict: the version moved on
        let stored = try book(reader(b.coordinator!), "1")
        #expect(try stored.value(forKey: "title") as? String == "Merged title")
        #expect(try stored.value(forKey: "summary") as? String == "Local summary")
        withExtendedLifetime((observation, shelfObservation, token)) {}
    }

    /// A merged update never conflicts with local changes: a property changed in both keeps
    /// the local value (its committed value becomes the saved one); registered faults stay
    /// faults and are not reported.
    package static func mergeKeepsLocalChanges(_ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        let mine = try book(b, "1")
        let other = try book(b, "2")
        let fault = try b.object(with: try shelf(a, "S2").objectID)
        #expect(fault.isFault)
        try shelf(a, "S2").setValue("Renamed", forKey: "label")
        try mine.setValue("Local", forKey: "title")
        var saved: [ManagedObjectContext.SaveResult] = []
        let saveToken = a.onDidSave { result, _ in saved.append(result) }
        for isbn in ["1", "2"] {
            let theirs = try book(a, isbn)
            try theirs.setValue("Theirs " + isbn, forKey: "title")
            try theirs.setValue(Int64(300), forKey: "pages")
        }
        try a.save()
        var batches: [ManagedObjectContext.Changes] = []
        let token = b.onObjectsDidChange { batches.append($0) }
        b.mergeChanges(from: try #require(saved.first))
        #expect(try mine.value(forKey: "title") as? String == "Local")
        #expect(try mine.value(forKey: "pages") as? Int64 == 300)
        #expect(mine.committedValues(forKeys: ["title"])["title"] as? String == "Theirs 1")
        #expect(mine.changedValues().keys.sorted() == ["title"])
        #expect(fault.isFault && batches.last?.refreshed == [mine, other], "a fault is not refreshed")
        #expect(try fault.value(forKey: "label") as? String == "Renamed")
        #expect(try other.value(forKey: "title") as? String == "Theirs 2" && !other.hasChanges)
        try b.save()
        #expect(try book(reader(coordinator), "1").value(forKey: "title") as? String == "Local")
        withExtendedLifetime((token, saveToken)) {}
    }

    /// `refresh(_:mergeChanges:)` and `refreshAllObjects()`: unchanged objects turn into faults
    /// that load the saved values, changed ones keep their changes over them.
    package static func refreshing(_ factory: TestStoreFactory) throws {
        let (_, a, b) = try stocked(factory)
        let plain = try book(b, "2")
        let changed = try book(b, "1")
        try changed.setValue("Mine", forKey: "summary")
        for isbn in ["1", "2"] { try book(a, isbn).setValue("Saved " + isbn, forKey: "title") }
        try a.save()
        #expect(try plain.value(forKey: "title") as? String == "Second", "not merged yet")
        b.refreshAllObjects()
        #expect(plain.isFault && !changed.isFault)
        #expect(try plain.value(forKey: "title") as? String == "Saved 2")
        #expect(try changed.value(forKey: "title") as? String == "Saved 1")
        #expect(try changed.value(forKey: "summary") as? String == "Mine" && changed.isUpdated)
        b.refresh(changed, mergeChanges: false)
        #expect(!b.hasChanges && changed.isFault)
        #expect(try changed.value(forKey: "summary") as? String == "Plain")
    }

    /// Another coordinator's save: invisible through the row cache until merged as a remote
    /// save (by URI), or until the rows age past the staleness interval.
    package static func remoteMergeAndStaleness(_ factory: TestStoreFactory) throws {
        let (coordinator, _, b) = try stocked(factory)
        let remote = PersistentStoreCoordinator(model: coordinator.model)
        try remote.addStore(try factory.open())
        let other = ManagedObjectContext(coordinator: remote)
        let mine = try book(b, "1")
        let theirs = try book(other, "1")
        try theirs.setValue("Remote", forKey: "title")
        try other.save()

        b.refresh(mine, mergeChanges: false)
        #expect(try mine.value(forKey: "title") as? String == "Original", "the default staleness takes the cached row")
        b.stalenessInterval = 60
        b.refresh(mine, mergeChanges: false)
        #expect(try mine.value(forKey: "title") as? String == "Original", "the cached row is younger than 60 s")
        coordinator.rowCache.advanceClock(by: 61)
        b.refresh(mine, mergeChanges: false)
        #expect(try mine.value(forKey: "title") as? String == "Remote", "an old row is read again")

        try theirs.setValue("Remote 2", forKey: "title")
        try other.save()
        let eager = ManagedObjectContext(coordinator: coordinator)
        eager.stalenessInterval = 0
        let eagerBook = try eager.object(with: mine.objectID)
        #expect(try eagerBook.value(forKey: "title") as? String == "Remote 2", "0 reads the store on every fault fill")
        b.stalenessInterval = -1
        var batches: [ManagedObjectContext.Changes] = []
        let token = b.onObjectsDidChange { batches.append($0) }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: ["updated": [theirs.objectID.uriRepresentation()]], into: [b])
        #expect(try mine.value(forKey: "title") as? String == "Remote 2")
        #expect(batches.last?.refreshed == [mine])

        // A did-save notification of the other coordinator's context merges as a remote save.
        let center = NotificationCenter()
        other.notificationCenter = center
        nonisolated(unsafe) var notes: [Notification] = []     // posted synchronously on this thread
        let observer = center.addObserver(forName: ManagedObjectContext.didSaveNotification, object: other, queue: nil) { notes.append($0) }
        defer { center.removeObserver(observer) }
        try theirs.setValue("Remote 3", forKey: "title")
        try other.save()
        b.mergeChanges(fromContextDidSave: try #require(notes.first))
        #expect(try mine.value(forKey: "title") as? String == "Remote 3")

        other.delete(theirs)
        try other.save()
        let unknown = try #require(URL(string: "x-coredata://NOSUCHSTORE/Book/p9"))
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: ["deleted": [theirs.objectID, unknown] as [Any]], into: [b])
        #expect(mine.managedObjectContext == nil && batches.last?.invalidated == [mine])
        b.stalenessInterval = 0
        #expect(try books(b, "1").isEmpty)
        withExtendedLifetime(token) {}
    }
}
