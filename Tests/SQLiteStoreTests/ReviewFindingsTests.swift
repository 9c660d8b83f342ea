import Foundation
import ManagedObjects
import Predicates
import Testing
import TestSupport
@testable import SQLiteStore

/// Review of the session's SQLite fast paths (checked writes, the BEGINSWITH range) against
/// Core Data's and NSPredicate's documented rules.
@Suite struct SQLiteReviewFindingsTests {
    /// A save whose second update breaks a uniqueness constraint after the first update was
    /// written fails as a whole (Core Data: a save is all or nothing): the error names the
    /// constraint's property, and the file keeps every row as it was.
    @Test func aSaveFailingAfterAnUpdateLeavesTheFileUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Books.sqlite")
        let (store, _) = try openStack(try MergeMatrix.model(), at: url)
        let ids = try store.newObjectIDs(for: ["Book", "Book"])
        _ = try store.save(StoreSaveChanges(inserted: [
            StoreRow(objectID: ids[0], version: 0, attributes: ["isbn": .string("1"), "title": .string("One")]),
            StoreRow(objectID: ids[1], version: 0, attributes: ["isbn": .string("2"), "title": .string("Two")]),
        ]))
        let before = try query(url, "SELECT Z_PK, Z_OPT, ZISBN, ZTITLE FROM ZBOOK ORDER BY Z_PK")
        let changes = StoreSaveChanges(updated: [
            StoreRow(objectID: ids[0], version: 1, attributes: ["isbn": .string("1"), "title": .string("Changed")]),
            StoreRow(objectID: ids[1], version: 1, attributes: ["isbn": .string("1"), "title": .string("Two")]),
        ])
        let error = #expect(throws: SQLiteStoreError.self) { _ = try store.save(changes) }
        guard case .uniquenessConstraint(let id, let properties)? = error?.code else {
            Issue.record("not a uniqueness error: \(String(describing: error))")
            return
        }
        #expect(id == ids[1] && properties == ["isbn"])
        #expect(try query(url, "SELECT Z_PK, Z_OPT, ZISBN, ZTITLE FROM ZBOOK ORDER BY Z_PK") == before)
        // The store still works: a valid save afterwards is written with the next versions.
        let versions = try store.save(StoreSaveChanges(updated: [
            StoreRow(objectID: ids[0], version: 1, attributes: ["isbn": .string("1"), "title": .string("Changed")]),
        ]))
        #expect(versions == [ids[0]: 2])
    }

    /// Two coordinators on one file (Core Data's optimistic locking): a delete against a
    /// delete already saved by the other is a conflict with the store's version 0 under the
    /// error policy, and the file is left as the first save made it.
    @Test func deleteAgainstDeleteFromAnotherCoordinator() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Books.sqlite")
        let model = try MergeMatrix.model()
        let (_, first) = try openStack(model, at: url)
        let book = try first.insertNewObject(forEntityNamed: "Book")
        try book.setValue("1", forKey: "isbn")
        try first.save()
        let (_, second) = try openStack(model, at: url)
        let copy = try second.existingObject(with: book.objectID)
        _ = try copy.value(forKey: "isbn")
        first.delete(book)
        try first.save()
        second.delete(copy)
        #expect(throws: (any Error).self) { try second.save() }
        #expect(try query(url, "SELECT COUNT(*) FROM ZBOOK") == [[.integer(0)]])
    }

    /// NSPredicate: BEGINSWITH through a to-one (a join) and inside ANY over a to-many, by
    /// SQL, selects what the in-memory evaluation selects, including negated.
    @Test func beginsWithThroughRelationshipsMatchesTheEvaluator() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Books.sqlite")
        let model = try MergeMatrix.model()
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = SQLitePersistentStore(url: url, evaluatesPredicatesInSQL: true)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let labels: [String?] = ["alpha", "Alpha", "al", "a\u{301}lpha", nil, "b%", "b_x", "b\\y", "o'k", "\u{7F}z"]
        var shelves: [ManagedObject] = []
        for (index, label) in labels.enumerated() {
            let shelf = try context.insertNewObject(forEntityNamed: "Shelf")
            try shelf.setValue(label, forKey: "label")
            let book = try context.insertNewObject(forEntityNamed: "Book")
            try book.setValue("\(index)", forKey: "isbn")
            try book.setValue(label, forKey: "title")
            if index % 3 != 2 { try book.setValue(shelf, forKey: "shelf") }
            shelves.append(shelf)
        }
        try context.save()
        let books = try context.fetch(EntityFetchRequest(entityName: "Book"))
        for prefix in ["al", "a", "b%", "b_", "b\\", "o'", "\u{7F}", "alpha", "x"] {
            for (entity, format, objects) in [
                ("Book", "shelf.label BEGINSWITH %@", books), ("Book", "NOT (shelf.label BEGINSWITH %@)", books),
                ("Shelf", "ANY books.title BEGINSWITH %@", shelves), ("Shelf", "NOT (ANY books.title BEGINSWITH %@)", shelves),
                ("Shelf", "SUBQUERY(books, $b, $b.title BEGINSWITH %@).@count > 0", shelves),
                ("Book", "title BEGINSWITH %@ OR NOT (shelf.label BEGINSWITH %@)", books),
            ] {
                let predicate = try KeyValuePredicate(format: format, prefix, prefix)
                let expected = Set(try objects.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
                let result = try store.fetch(StoreFetchRequest(entityNames: [entity], predicate: predicate))
                #expect(Set(result.rows.map(\.objectID)) == expected, "\(predicate)")
            }
        }
        // A variable prefix, substituted.
        let template = try KeyValuePredicate(format: "title BEGINSWITH $p")
        let predicate = try template.withSubstitutionVariables(["p": "al"])
        let expected = Set(try books.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
        let result = try store.fetch(StoreFetchRequest(entityNames: ["Book"], predicate: predicate))
        #expect(Set(result.rows.map(\.objectID)) == expected && expected.count == 2)
    }
}
