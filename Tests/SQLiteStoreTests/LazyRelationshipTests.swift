import Foundation
import Testing
import ManagedObjects
import Predicates
import TestSupport
import UndoManagement
@testable import SQLiteStore

/// Typed classes for the library's shelves and books: `@Managed` to-many properties fire their
/// relationship faults too.
final class LazyShelf: ManagedObject {
    override class var entityName: String { "Shelf" }
    @Managed var label: String?
    @Managed var books: [LazyBook]
}

final class LazyBook: ManagedObject {
    override class var entityName: String { "Book" }
    @Managed var title: String?
    @Managed var shelf: LazyShelf?
    @Managed var tags: Set<ManagedObject>
}

/// To-many relationships of the SQLite store are relationship faults until first accessed
/// (Apple: `hasFault(forRelationshipNamed:)`; accessing the relationship fires one query).
@Suite struct LazyRelationshipTests {
    /// A library file: shelf "A" with books a1, a2, a3 in order, shelf "B" with b1; tags "x"
    /// (on a1 and b1) and "y" (on a2).
    static func file(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Lazy.sqlite")
        let (_, context) = try openStack(Models.library(), at: url)
        var books: [String: ManagedObject] = [:]
        for (label, titles) in [("A", ["a1", "a2", "a3"]), ("B", ["b1"])] {
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue(label, forKey: "label")
            for title in titles {
                let book = try context.insertNewObject(forEntityNamed: "Book")
                try book.setValue(title, forKey: "title")
                try shelf.mutableArrayValue(forKey: "books").append(book)
                books[title] = book
            }
        }
        for (name, titles) in [("x", ["a1", "b1"]), ("y", ["a2"])] {
            let tag = try context.insertNewObject(forEntityNamed: "Tag")
            try tag.setValue(name, forKey: "name")
            for title in titles { try tag.mutableSetValue(forKey: "books").insert(books[title]!) }
        }
        try context.save()
        return url
    }

    /// A fresh context on a counting store over `url`.
    static func counted(_ url: URL) throws -> (ManagedObjectContext, CountingStore) {
        let coordinator = PersistentStoreCoordinator(model: try Models.library())
        let store = CountingStore(SQLitePersistentStore(url: url))
        try coordinator.addStore(store)
        return (ManagedObjectContext(coordinator: coordinator), store)
    }

    static func shelf(_ label: String, _ context: ManagedObjectContext) throws -> ManagedObject {
        let request = EntityFetchRequest(entityName: "Shelf", predicate: try KeyValuePredicate(format: "label == %@", label))
        return try #require(try context.fetch(request).first)
    }

    static func titles(_ value: Any?) -> [String] {
        ((value as? [ManagedObject]) ?? []).map { $0.stored("title") as? String ?? "?" }
    }

    static func names(_ value: Any?) -> Set<String> {
        Set(((value as? Set<ManagedObject>) ?? []).map { $0.stored("title") as? String ?? $0.stored("name") as? String ?? "?" })
    }

    @Test func aFetchedToManyIsAFaultThatOneQueryFills() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.counted(try Self.file(directory))
        let shelf = try Self.shelf("A", context)
        #expect(store.queries == 1)
        #expect(!shelf.isFault)
        #expect(shelf.hasFault(forRelationshipNamed: "books"))
        #expect(!shelf.hasFault(forRelationshipNamed: "label"))   // not a relationship
        #expect(context.registeredObjects.count == 1)              // no book made yet
        #expect(String(describing: shelf).contains("relationship fault"))
        #expect(store.queries == 1)                                 // neither asking nor describing fired it

        let books = try shelf.value(forKey: "books")
        #expect(store.counts.withLock { $0.relationships } == 1)
        #expect(!shelf.hasFault(forRelationshipNamed: "books"))
        let members = try #require(books as? [ManagedObject])
        #expect(members.map(\.isFault) == [true, true, true])       // the members are object faults
        #expect(Self.titles(books) == ["a1", "a2", "a3"])           // in order
        let afterTitles = store.queries
        _ = try shelf.value(forKey: "books")
        #expect(store.queries == afterTitles)                       // loaded once
    }

    @Test func typedToManyPropertiesFireTheirFaults() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.file(directory)
        let model = try Models.library()
        try model.setManagedObjectClasses([LazyShelf.self, LazyBook.self])
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = CountingStore(SQLitePersistentStore(url: url))
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let shelves = try context.fetch(EntityFetchRequest(entityName: "Shelf", sortDescriptors: [KeyValueSortDescriptor(key: "label")]))
        let shelfA = try #require(shelves.first as? LazyShelf)
        let shelfB = try #require(shelves.last as? LazyShelf)
        #expect(shelfA.label == "A" && shelfA.hasFault(forRelationshipNamed: "books"))
        #expect(shelfA.books.map(\.title) == ["a1", "a2", "a3"])          // a typed read fires it
        #expect(store.counts.withLock { $0.relationships } == 1)
        #expect(!shelfA.hasFault(forRelationshipNamed: "books"))
        // A typed write replaces a faulted relationship: the members it replaces are read first,
        // so the inverse of each is maintained.
        let b1 = try #require(try context.fetch(EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title == 'b1'"))).first as? LazyBook)
        #expect(shelfB.hasFault(forRelationshipNamed: "books"))
        shelfB.books = []
        #expect(b1.shelf == nil)
        #expect(b1.tags.count == 1)                                          // a typed Set read
        try context.save()
        let (fresh, _) = try Self.counted(url)
        #expect(Self.titles(try Self.shelf("B", fresh).value(forKey: "books")).isEmpty)
        #expect(Self.titles(try Self.shelf("A", fresh).value(forKey: "books")) == ["a1", "a2", "a3"])
    }

    @Test func theStoreLeavesToManyOutOfRowsAndServesItOnRequest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.file(directory)
        let store = SQLitePersistentStore(url: url)
        try store.load(for: try Models.library())
        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Shelf"])).rows
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.relationships["books"] == nil })
        let bookRows = try store.fetch(StoreFetchRequest(entityNames: ["Book"])).rows
        #expect(bookRows.allSatisfy { $0.relationships["shelf"]?.count == 1 && $0.relationships["tags"] == nil })
        let shelfA = try #require(rows.min { ($0.objectID.referenceObject.integerValue ?? 0) < ($1.objectID.referenceObject.integerValue ?? 0) })
        #expect(try store.row(for: shelfA.objectID)?.relationships["books"] == nil)
        let ids = try store.objectIDs(forRelationship: "books", of: shelfA.objectID)
        #expect(ids.count == 3)
        let byShelf = try store.objectIDs(forRelationship: "books", ofObjects: rows.map(\.objectID))
        #expect(byShelf.count == 2 && byShelf[shelfA.objectID] == ids)
        #expect(throws: SQLiteStoreError.self) { try store.objectIDs(forRelationship: "nope", of: shelfA.objectID) }
    }

    @Test func aToOneIsAFaultWhileItsObjectIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _) = try Self.counted(try Self.file(directory))
        let request = EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title == 'a2'"))
        let book = try #require(try context.fetch(request).first)
        #expect(book.hasFault(forRelationshipNamed: "shelf"))
        #expect(book.hasFault(forRelationshipNamed: "tags"))
        let shelf = try #require(try book.value(forKey: "shelf") as? ManagedObject)
        _ = shelf.stored("label")
        #expect(!book.hasFault(forRelationshipNamed: "shelf"))
        let fault = try context.object(with: book.objectID)
        context.refresh(fault, mergeChanges: false)
        #expect(book.hasFault(forRelationshipNamed: "tags") && book.hasFault(forRelationshipNamed: "shelf"))
        #expect(Self.names(try book.value(forKey: "tags")) == ["y"])
    }

    @Test func prefetchingLoadsAToManyKeyPathInOneQuery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, store) = try Self.counted(try Self.file(directory))
        var request = EntityFetchRequest(entityName: "Shelf", sortDescriptors: [KeyValueSortDescriptor(key: "label")])
        request.relationshipKeyPathsForPrefetching = ["books", "books.tags"]
        let shelves = try context.fetch(request)
        // One fetch; "books" of both shelves in one query; the books' rows in one; their tags in
        // one; the tags' rows in one.
        #expect(store.counts.withLock { $0.relationships } == 2)
        #expect(store.queries == 5)
        let before = store.queries
        #expect(shelves.map { Self.titles($0.stored("books")) } == [["a1", "a2", "a3"], ["b1"]])
        let a1 = try #require((shelves[0].stored("books") as? [ManagedObject])?.first)
        #expect(!a1.isFault && !a1.hasFault(forRelationshipNamed: "tags"))
        #expect(Self.names(a1.stored("tags")) == ["x"])
        #expect(store.queries == before)
    }

    @Test func changesToANeverReadToManyKeepItsSavedMembers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.file(directory)
        do {
            let (context, _) = try Self.counted(url)
            let shelfA = try Self.shelf("A", context)
            let shelfB = try Self.shelf("B", context)
            // Add to a faulted ordered to-many, directly and through the inverse.
            let added = try context.insertNewObject(forEntityNamed: "Book")
            try added.setValue("a4", forKey: "title")
            try shelfA.mutableArrayValue(forKey: "books").append(added)
            let moved = try context.insertNewObject(forEntityNamed: "Book")
            try moved.setValue("b2", forKey: "title")
            try moved.setValue(shelfB, forKey: "shelf")
            // A change of an attribute only: the faulted to-many is left as it is.
            let tagRequest = EntityFetchRequest(entityName: "Tag", predicate: try KeyValuePredicate(format: "name == 'x'"))
            let tag = try #require(try context.fetch(tagRequest).first)
            try tag.setValue("x2", forKey: "name")
            #expect(tag.hasFault(forRelationshipNamed: "books"))
            try context.save()
            #expect(tag.hasFault(forRelationshipNamed: "books"))
        }
        let (context, _) = try Self.counted(url)
        #expect(Self.titles(try Self.shelf("A", context).value(forKey: "books")) == ["a1", "a2", "a3", "a4"])
        #expect(Self.titles(try Self.shelf("B", context).value(forKey: "books")) == ["b1", "b2"])
        let tag = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag", predicate: try KeyValuePredicate(format: "name == 'x2'"))).first)
        #expect(Self.names(try tag.value(forKey: "books")) == ["a1", "b1"])   // the join table kept its pairs
    }

    @Test func removingFromANeverReadToManyKeepsTheOthers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.file(directory)
        do {
            let (context, _) = try Self.counted(url)
            let book = try #require(try context.fetch(EntityFetchRequest(entityName: "Book", predicate: try KeyValuePredicate(format: "title == 'a2'"))).first)
            let shelfA = try Self.shelf("A", context)
            #expect(shelfA.hasFault(forRelationshipNamed: "books"))
            try book.setValue(nil, forKey: "shelf")            // the inverse maintenance loads A's books
            #expect(Self.titles(try shelfA.value(forKey: "books")) == ["a1", "a3"])
            let tagY = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag", predicate: try KeyValuePredicate(format: "name == 'x'"))).first)
            try tagY.mutableSetValue(forKey: "books").subtract(try Self.shelf("B", context).value(forKey: "books") as! [ManagedObject])
            try context.save()
        }
        let (context, _) = try Self.counted(url)
        #expect(Self.titles(try Self.shelf("A", context).value(forKey: "books")) == ["a1", "a3"])
        let tag = try #require(try context.fetch(EntityFetchRequest(entityName: "Tag", predicate: try KeyValuePredicate(format: "name == 'x'"))).first)
        #expect(Self.names(try tag.value(forKey: "books")) == ["a1"])
    }

    @Test func undoObserversAndPredicatesSeeAFaultedToMany() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _) = try Self.counted(try Self.file(directory))
        context.undoManager = UndoHistory()
        let shelfA = try Self.shelf("A", context)
        let recorder = ChangeRecorder()
        try shelfA.addObserver(recorder, forKeyPath: "books", options: [.new])
        #expect(shelfA.hasFault(forRelationshipNamed: "books"))     // observing does not fire it
        let added = try context.insertNewObject(forEntityNamed: "Book")
        try added.setValue("a4", forKey: "title")
        try added.setValue(shelfA, forKey: "shelf")
        context.processPendingChanges()
        #expect(recorder.records.last?.change.kind == .insertion)
        #expect(recorder.records.last?.change.indexes == IndexSet(integer: 3))   // after the three saved books
        try context.undoManager?.undo()
        #expect(Self.titles(try shelfA.value(forKey: "books")) == ["a1", "a2", "a3"])
        try shelfA.removeObserver(recorder, forKeyPath: "books")

        // A predicate through a to-many evaluated in memory reads the faults.
        let (memory, _) = try Self.counted(directory.file("Lazy.sqlite"))
        let shelves = try memory.fetch(EntityFetchRequest(entityName: "Shelf", sortDescriptors: [KeyValueSortDescriptor(key: "label")]))
        let withB1 = try KeyValuePredicate(format: "ANY books.title == 'b1'")
        #expect(try shelves.filter { try withB1.evaluate(with: $0) }.map { $0.stored("label") as? String } == ["B"])
        let counted = try KeyValuePredicate(format: "books.@count == 3")
        #expect(try shelves.filter { try counted.evaluate(with: $0) }.count == 1)
    }

    @Test func aChildContextLoadsAFaultedToManyFromItsParent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (parent, store) = try Self.counted(try Self.file(directory))
        let parentShelf = try Self.shelf("B", parent)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let childShelf = try child.object(with: parentShelf.objectID)
        #expect(Self.titles(try childShelf.value(forKey: "books")) == ["b1"])
        #expect(parentShelf.hasFault(forRelationshipNamed: "books") || store.counts.withLock { $0.relationships } == 1)
        // The parent's unsaved member shows in a child made afterwards.
        let added = try parent.insertNewObject(forEntityNamed: "Book")
        try added.setValue("b2", forKey: "title")
        try parentShelf.mutableArrayValue(forKey: "books").append(added)
        let second = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        #expect(Self.titles(try second.object(with: parentShelf.objectID).value(forKey: "books")) == ["b1", "b2"])
        // A child's addition to a faulted to-many reaches the store through the parent.
        let third = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let shelfA = try third.object(with: try Self.shelf("A", parent).objectID)
        let book = try third.insertNewObject(forEntityNamed: "Book")
        try book.setValue("a4", forKey: "title")
        try book.setValue(shelfA, forKey: "shelf")
        try third.save()
        try parent.save()
        let (fresh, _) = try Self.counted(directory.file("Lazy.sqlite"))
        #expect(Self.titles(try Self.shelf("A", fresh).value(forKey: "books")) == ["a1", "a2", "a3", "a4"])
        #expect(Self.titles(try Self.shelf("B", fresh).value(forKey: "books")) == ["b1", "b2"])
    }
}
