// Shared test bodies: optimistic-locking and constraint conflicts under every merge policy.
import Foundation
import KeyValueCoding
import ManagedObjects
import Predicates
import Testing

extension MergeMatrix {
    /// Two contexts change the same book: `a` saves title "Theirs" and 200 pages, then `b`
    /// saves title "Mine" and summary "Mine too".
    package static func optimisticLocking(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let mine = try book(b, "1")
        let theirs = try book(a, "1")
        try theirs.setValue("Theirs", forKey: "title")
        try theirs.setValue(Int64(200), forKey: "pages")
        try a.save()
        try mine.setValue("Mine", forKey: "title")
        try mine.setValue("Mine too", forKey: "summary")
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            #expect(error.code == 133020 && error.code == ManagedObjectMergeError.mergeErrorCode)
            #expect(error.mergeConflicts.count == 1 && error.constraintConflicts.isEmpty)
            let conflict = try #require(error.mergeConflicts.first)
            #expect(conflict.objectID == mine.objectID)
            #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
            #expect(conflict.cachedSnapshot?.attributes["title"] == .string("Original"))
            #expect(conflict.persistedSnapshot?.attributes["title"] == .string("Theirs"))
            #expect(conflict.objectSnapshot?.attributes["title"] == .string("Mine"))
            let text = try #require(error.errorDescription)
            for part in [mine.objectID.description, "version 1", "version 2", "Original", "Theirs", "Mine"] {
                #expect(text.contains(part), "the message names \(part): \(text)")
            }
            let bridged = error as NSError
            #expect(bridged.domain == NSCocoaErrorDomain && bridged.code == 133020)
            #expect((bridged.userInfo["conflictList"] as? [Any])?.count == 1)
            #expect(b.hasChanges && mine.isUpdated, "nothing was saved")
            return
        }
        try b.save()
        let expected: (title: String, summary: String, pages: Int64) = switch kind {
        case .mergeByPropertyStoreTrump: ("Theirs", "Mine too", 200)
        case .mergeByPropertyObjectTrump: ("Mine", "Mine too", 200)
        case .overwrite: ("Mine", "Mine too", 100)
        case .rollback, .error: ("Theirs", "Plain", 200)
        }
        for object in [mine, try book(reader(coordinator), "1")] {
            #expect(try object.value(forKey: "title") as? String == expected.title, "\(kind)")
            #expect(try object.value(forKey: "summary") as? String == expected.summary, "\(kind)")
            #expect(try object.value(forKey: "pages") as? Int64 == expected.pages, "\(kind)")
        }
        #expect(!b.hasChanges)
        try mine.setValue("Again", forKey: "title")
        try b.save()                                        // the version is current again
    }

    /// A change of a relationship only is a change: `a` moves the book to S2, `b` changes its
    /// title.
    package static func relationshipOnlyChange(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let mine = try book(b, "1")
        _ = try mine.value(forKey: "shelf")
        try book(a, "1").setValue(try shelf(a, "S2"), forKey: "shelf")
        try a.save()
        try mine.setValue("Mine", forKey: "title")
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            #expect(error.mergeConflicts.map(\.objectID) == [mine.objectID])
            return
        }
        try b.save()
        let expected: (title: String, shelf: String) = switch kind {
        case .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump: ("Mine", "S2")
        case .overwrite: ("Mine", "S1")
        case .rollback, .error: ("Original", "S2")
        }
        let check = reader(coordinator)            // kept: a context that goes away empties relationships
        let stored = try book(check, "1")
        #expect(try stored.value(forKey: "title") as? String == expected.title, "\(kind)")
        #expect(try stored.value(forKeyPath: "shelf.label") as? String == expected.shelf, "\(kind)")
        #expect(try mine.value(forKeyPath: "shelf.label") as? String == expected.shelf, "\(kind)")
        // Both sides of the relationship agree, in the store and in the context.
        #expect(try shelves(listing: "1", in: check) == [expected.shelf], "\(kind)")
        #expect(try shelves(listing: "1", in: b) == [expected.shelf], "\(kind)")
        withExtendedLifetime(check) {}
    }

    /// `a` moves book 1 to S2, `b` (which read it on S1) to a new shelf S3: the policy picks
    /// the book's shelf, and the shelf that loses leaves the book out, in the store and in `b`
    /// (the resolution changes the inverse of both shelves). With `staleShelves`, `b` has read
    /// every shelf's books before `a` saves (its S2 is loaded without the book).
    package static func toOneMovedBothWays(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory,
                                           staleShelves: Bool = false) throws {
        let (coordinator, a, b) = try stocked(factory)
        try a.insertNewObject(forEntityNamed: "Shelf").setValue("S3", forKey: "label")
        try a.save()
        b.mergePolicy = MergePolicy(kind: kind)
        let mine = try book(b, "1")
        #expect(try mine.value(forKeyPath: "shelf.label") as? String == "S1")
        if staleShelves { #expect(try shelves(listing: "1", in: b) == ["S1"]) }
        try book(a, "1").setValue(try shelf(a, "S2"), forKey: "shelf")
        try a.save()
        try mine.setValue(try shelf(b, "S3"), forKey: "shelf")
        if kind == .error {
            // The book conflicts (and S1, which `b` read holding it and saves without it).
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            #expect(error.mergeConflicts.map(\.objectID).contains(mine.objectID))
            return
        }
        try b.save()
        let winner = kind == .mergeByPropertyObjectTrump || kind == .overwrite ? "S3" : "S2"
        let check = reader(coordinator)
        #expect(try book(check, "1").value(forKeyPath: "shelf.label") as? String == winner, "\(kind)")
        #expect(try shelves(listing: "1", in: check) == [winner], "\(kind)")
        #expect(try mine.value(forKeyPath: "shelf.label") as? String == winner, "\(kind)")
        #expect(try shelves(listing: "1", in: b) == [winner], "\(kind)")
        #expect(try shelves(listing: "2", in: check) == ["S1"], "\(kind)")
        withExtendedLifetime(check) {}
    }

    /// The labels of the shelves whose `books` hold the book with an ISBN.
    package static func shelves(listing isbn: String, in context: ManagedObjectContext) throws -> Set<String> {
        let shelves = try context.fetch(EntityFetchRequest(entityName: "Shelf"))
        return Set(try shelves.filter { shelf in
            try (shelf.value(forKey: "books") as? Set<ManagedObject> ?? []).contains { try $0.value(forKey: "isbn") as? String == isbn }
        }.compactMap { try $0.value(forKey: "label") as? String })
    }

    /// Both contexts add a book to shelf S2: the property-merging policies merge the to-many
    /// relationship member by member, so neither addition is lost.
    package static func toManyMergedByMember(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let shelf = try shelf(b, "S2")
        #expect((try shelf.value(forKey: "books") as? Set<ManagedObject>)?.isEmpty == true)
        try book(a, "2").setValue(try Self.shelf(a, "S2"), forKey: "shelf")
        try a.save()
        let new = try b.insertNewObject(forEntityNamed: "Book")
        try new.setValue("5", forKey: "isbn")
        try new.setValue(shelf, forKey: "shelf")
        try b.save()
        let isbns = { (shelf: ManagedObject) throws -> Set<String> in
            Set(try (shelf.value(forKey: "books") as? Set<ManagedObject> ?? []).compactMap { try $0.value(forKey: "isbn") as? String })
        }
        #expect(try isbns(shelf) == ["2", "5"], "\(kind)")
        let check = reader(coordinator)
        #expect(try isbns(try Self.shelf(check, "S2")) == ["2", "5"], "\(kind)")
        #expect(try isbns(try Self.shelf(check, "S1")) == ["1"], "\(kind)")
    }

    /// `a` deletes the book, `b` changes it: the store's delete stands under every policy.
    package static func deletedInStore(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let mine = try book(b, "1")
        a.delete(try book(a, "1"))
        try a.save()
        try mine.setValue("Mine", forKey: "title")
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            let conflict = try #require(error.mergeConflicts.first)
            #expect(conflict.persistedSnapshot == nil && conflict.newVersionNumber == 0 && conflict.oldVersionNumber == 1)
            return
        }
        try b.save()
        #expect(mine.managedObjectContext == nil, "\(kind)")
        #expect(try books(reader(coordinator), "1").isEmpty, "\(kind)")
    }

    /// `a` changes the book, `b` deletes it: object trump and overwrite delete it, store trump
    /// and rollback keep the stored row and bring the object back.
    package static func deletedInContext(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let mine = try book(b, "1")
        try book(a, "1").setValue("Theirs", forKey: "title")
        try a.save()
        b.delete(mine)
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            #expect(error.mergeConflicts.first?.isDeletedInContext == true)
            return
        }
        try b.save()
        let stored = try books(reader(coordinator), "1")
        switch kind {
        case .mergeByPropertyObjectTrump, .overwrite:
            #expect(stored.isEmpty, "\(kind)")
        default:
            #expect(try stored.first?.value(forKey: "title") as? String == "Theirs", "\(kind)")
            #expect(!mine.isDeleted && mine.managedObjectContext === b, "\(kind)")
            #expect(try mine.value(forKey: "title") as? String == "Theirs", "\(kind)")
        }
    }

    // MARK: Constraint conflicts

    /// `b` inserts a book with the ISBN of a stored one.
    package static func constraintWithStoredRow(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let existingID = try book(a, "1").objectID
        let new = try b.insertNewObject(forEntityNamed: "Book")
        try new.setValue("1", forKey: "isbn")
        try new.setValue("New", forKey: "title")
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            #expect(error.code == 133021 && error.code == ManagedObjectMergeError.constraintMergeErrorCode)
            #expect((error as NSError).code == 133021)
            let conflict = try #require(error.constraintConflicts.first)
            #expect(conflict.constraint == ["isbn"] && conflict.constraintValues == ["isbn": .string("1")])
            #expect(conflict.databaseObjectID == existingID && conflict.databaseSnapshot?.attributes["title"] == .string("Original"))
            #expect(conflict.conflictingObjectIDs.count == 1 && conflict.conflictingSnapshots == [nil])
            #expect(new.isInserted && new.objectID.isTemporaryID, "nothing was saved")
            #expect(error.errorDescription?.contains("isbn") == true)
            return
        }
        try b.save()
        let stored = try books(reader(coordinator), "1")
        #expect(stored.count == 1, "\(kind)")
        let row = try #require(stored.first)
        switch kind {
        case .mergeByPropertyObjectTrump, .overwrite:
            #expect(new.objectID == existingID && new.managedObjectContext === b, "the new object took the row's identity")
            #expect(try row.value(forKey: "title") as? String == "New", "\(kind)")
            let pages = try row.value(forKey: "pages") as? Int64
            #expect(pages == (kind == .overwrite ? nil : 100), "object trump keeps the row's values the object was not given")
        default:
            #expect(new.managedObjectContext == nil, "\(kind): the new object is dropped")
            #expect(try row.value(forKey: "title") as? String == "Original", "\(kind)")
        }
    }

    /// `b` gives saved book "2" the ISBN of book "1".
    package static func constraintByUpdate(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, _, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        let second = try book(b, "2")
        let firstID = try book(b, "1").objectID
        try second.setValue("1", forKey: "isbn")
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            let conflict = try #require(error.constraintConflicts.first)
            #expect(conflict.databaseObjectID == firstID && conflict.conflictingObjectIDs == [second.objectID])
            #expect(conflict.conflictingSnapshots.first??.attributes["isbn"] == .string("2"), "the committed values")
            return
        }
        try b.save()
        let check = reader(coordinator)
        let ones = try books(check, "1")
        #expect(ones.count == 1, "\(kind)")
        switch kind {
        case .mergeByPropertyObjectTrump, .overwrite:
            #expect(try ones.first?.value(forKey: "title") as? String == "Second", "\(kind): the stored duplicate went away")
            #expect(ones.first?.objectID == second.objectID)
        default:
            #expect(try ones.first?.value(forKey: "title") as? String == "Original", "\(kind)")
            #expect(try second.value(forKey: "isbn") as? String == "2", "\(kind): the change was dropped")
        }
    }

    /// `b` inserts two books with one new ISBN.
    package static func constraintWithinContext(_ kind: MergePolicy.Kind, _ factory: TestStoreFactory) throws {
        let (coordinator, _, b) = try stocked(factory)
        b.mergePolicy = MergePolicy(kind: kind)
        var new: [ManagedObject] = []
        for title in ["First", "Second"] {
            let book = try b.insertNewObject(forEntityNamed: "Book")
            try book.setValue("9", forKey: "isbn")
            try book.setValue(title, forKey: "title")
            new.append(book)
        }
        if kind == .error {
            let error = try #require(throws: ManagedObjectMergeError.self) { try b.save() }
            let conflict = try #require(error.constraintConflicts.first)
            #expect(conflict.databaseObjectID == nil && conflict.conflictingObjectIDs.count == 2)
            return
        }
        try b.save()
        let stored = try books(reader(coordinator), "9")
        let winner = kind == .mergeByPropertyObjectTrump || kind == .overwrite ? "Second" : "First"
        #expect(try stored.map { try $0.value(forKey: "title") as? String } == [winner], "\(kind)")
    }

    /// Object trump with the stored row's object registered in the context: that object takes
    /// the new one's values and the new one goes away.
    package static func constraintWithRegisteredObject(_ factory: TestStoreFactory) throws {
        let (coordinator, _, b) = try stocked(factory)
        b.mergePolicy = .mergeByPropertyObjectTrump
        let existing = try book(b, "1")
        let new = try b.insertNewObject(forEntityNamed: "Book")
        try new.setValue("1", forKey: "isbn")
        try new.setValue("New", forKey: "title")
        try new.setValue(try shelf(b, "S2"), forKey: "shelf")
        try b.save()
        #expect(new.managedObjectContext == nil && existing.managedObjectContext === b)
        #expect(try existing.value(forKey: "title") as? String == "New")
        #expect(try existing.value(forKeyPath: "shelf.label") as? String == "S2")
        let stored = try books(reader(coordinator), "1")
        #expect(stored.count == 1)
        #expect(try stored.first?.value(forKey: "title") as? String == "New")
        #expect(try stored.first?.value(forKey: "pages") as? Int64 == 100)
    }

    /// A subclass of a policy changes what the built-in behaviour did.
    package static func customPolicy(_ factory: TestStoreFactory) throws {
        final class Stamping: MergePolicy {
            override func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
                try super.resolve(optimisticLockingConflicts: conflicts, in: context)
                for conflict in conflicts {
                    try context.registeredObject(for: conflict.objectID)?.setValue("Resolved", forKey: "summary")
                }
            }
        }
        let (coordinator, a, b) = try stocked(factory)
        b.mergePolicy = Stamping(kind: .mergeByPropertyObjectTrump)
        let mine = try book(b, "1")
        try book(a, "1").setValue("Theirs", forKey: "title")
        try a.save()
        try mine.setValue(Int64(7), forKey: "pages")
        try b.save()
        let stored = try book(reader(coordinator), "1")
        #expect(try stored.value(forKey: "title") as? String == "Theirs")
        #expect(try stored.value(forKey: "pages") as? Int64 == 7)
        #expect(try stored.value(forKey: "summary") as? String == "Resolved")
    }
}
