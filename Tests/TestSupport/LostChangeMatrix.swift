// Changes that were lost in silence (session 11's hostile trial, findings F5–F7): each body
// takes a store factory, so the same cases run on the in-memory store (ManagedObjectsTests) and
// the SQLite store (SQLiteStoreTests).
import Foundation
import KeyValueCoding
import ManagedObjects
import Predicates
import Testing

/// A typed class of LostChangeMatrix's Author entity.
package final class LostChangeAuthor: ManagedObject {
    override package class var entityName: String { "Author" }
    @Managed package var name: String?
}

/// Shared test bodies: a child's save onto an object its parent deleted, changes of objects
/// whose rows do not exist, faults that cannot be fulfilled.
package enum LostChangeMatrix {
    /// The cases, for one parameterised test per store kind.
    package enum Case: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case childEditsAfterParentSavedDelete, childEditsAfterParentDeleted, childRelatesAfterParentSavedDelete
        case grandchildEditsAfterRootSavedDelete, childSaveOntoLiveObjects, changeOfDeletedRow, changeOfNeverStoredRow, storeRefusesUpdateOfMissingRow
        case faultOfDeletedRow, faultOfNeverStoredRow, faultOfReleasedContext
        case typedFaultOfDeletedRow, typedFaultOfNeverStoredRow, fulfillFaultOfReleasedContext, staleFetchedResultsCache
        package var testDescription: String { rawValue }
    }

    /// Runs one case on a store of `factory`.
    package static func run(_ which: Case, _ factory: TestStoreFactory) throws {
        switch which {
        case .childEditsAfterParentSavedDelete: try childSaveOntoAnObjectItsParentDeleted(factory, parentSaves: true)
        case .childEditsAfterParentDeleted: try childSaveOntoAnObjectItsParentDeleted(factory, parentSaves: false)
        case .childRelatesAfterParentSavedDelete:
            try childSaveOntoAnObjectItsParentDeleted(factory, parentSaves: true, editsAuthor: false)
        case .grandchildEditsAfterRootSavedDelete: try grandchildSaveOntoAnObjectTheRootDeleted(factory)
        case .childSaveOntoLiveObjects: try childSaveOntoLiveObjects(factory)
        case .changeOfDeletedRow: try changeOfAMissingRowThrows(factory, neverStored: false)
        case .changeOfNeverStoredRow: try changeOfAMissingRowThrows(factory, neverStored: true)
        case .storeRefusesUpdateOfMissingRow: try storeRefusesAnUpdateOfAMissingRow(factory)
        case .faultOfDeletedRow: try faultOfAMissingRowThrows(factory, neverStored: false)
        case .faultOfNeverStoredRow: try faultOfAMissingRowThrows(factory, neverStored: true)
        case .faultOfReleasedContext: try faultOfAReleasedContextThrows(factory)
        case .typedFaultOfDeletedRow: try typedAccessOfAnUnfulfillableFault(factory, neverStored: false)
        case .typedFaultOfNeverStoredRow: try typedAccessOfAnUnfulfillableFault(factory, neverStored: true)
        case .fulfillFaultOfReleasedContext: try fulfillingAFaultOfAReleasedContextThrows(factory)
        case .staleFetchedResultsCache: try staleCacheObjectsThrowWhenRead(factory)
        }
    }

    /// Authors with books; deleting an author deletes its books.
    package static func model() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Author", properties: [
                .attribute("name", .string), .toMany("books", "Book", inverse: "author", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .toOne("author", "Author", inverse: "books")]),
        ])
        try model.setManagedObjectClasses([LostChangeAuthor.self])
        return model
    }

    /// A coordinator on a store of `factory` holding authors A0 and A1, with books B0 and B1.
    package static func stocked(_ factory: TestStoreFactory) throws -> PersistentStoreCoordinator {
        let coordinator = try factory.coordinator(try model())
        let setup = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<2 {
            let author = try setup.insertNewObject(forEntityNamed: "Author")
            try author.setValue("A\(index)", forKey: "name")
            let book = try setup.insertNewObject(forEntityNamed: "Book")
            try book.setValue("B\(index)", forKey: "title")
            try book.setValue(author, forKey: "author")
        }
        try setup.save()
        return coordinator
    }

    /// The author named `name`, fetched in `context`.
    package static func author(_ context: ManagedObjectContext, _ name: String) throws -> ManagedObject {
        try #require(try context.fetch(EntityFetchRequest(entityName: "Author", predicate: KeyValuePredicate(format: "name == %@", name))).first)
    }

    /// What the store holds, read by a new context: author names, and book titles with their
    /// author's name (`"?"` for an author the store does not have: a dangling reference).
    package static func stored(_ coordinator: PersistentStoreCoordinator) throws -> (authors: [String], books: [String]) {
        let reader = ManagedObjectContext(coordinator: coordinator)
        let authors = try reader.fetch(EntityFetchRequest(entityName: "Author")).map { try $0.value(forKey: "name") as? String ?? "" }
        let authorIDs = Set(try reader.fetchObjectIDs(EntityFetchRequest(entityName: "Author")))
        let books = try reader.fetch(EntityFetchRequest(entityName: "Book")).map { book -> String in
            let title = try book.value(forKey: "title") as? String ?? ""
            guard let author = try book.value(forKey: "author") as? ManagedObject else { return title }
            return authorIDs.contains(author.objectID) ? "\(title)->\(try author.value(forKey: "name") as? String ?? "")" : "\(title)->?"
        }
        return (authors.sorted(), books.sorted())
    }

    /// Whether `error` is a child save's refusal naming exactly `ids`.
    package static func isGoneFromParent(_ error: any Error, _ ids: [ManagedObjectID]) -> Bool {
        guard case ManagedObjectContextError.objectsGoneFromParent(let gone) = error else { return false }
        let text = (error as? any LocalizedError)?.errorDescription ?? ""
        return gone == ids && ids.allSatisfy { text.contains($0.description) }
    }

    /// F5: a child relates a new book to an author (and, when `editsAuthor`, renames it); its
    /// parent deletes the author and saves (or only deletes it). The child's save throws
    /// naming the author, the parent receives nothing, the child keeps its changes, and the
    /// store never gets a book whose author row does not exist.
    package static func childSaveOntoAnObjectItsParentDeleted(_ factory: TestStoreFactory, parentSaves: Bool,
                                                               editsAuthor: Bool = true) throws {
        let coordinator = try stocked(factory)
        let parent = ManagedObjectContext(coordinator: coordinator)
        let a0 = try author(parent, "A0")
        let id = a0.objectID
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let childA0 = try child.existingObject(with: id)
        if editsAuthor { try childA0.setValue("child-edit", forKey: "name") }
        let book = try child.insertNewObject(forEntityNamed: "Book")
        try book.setValue("child-book", forKey: "title")
        try book.setValue(childA0, forKey: "author")
        parent.delete(a0)
        if parentSaves { try parent.save() }
        #expect { try child.save() } throws: { isGoneFromParent($0, [id]) }
        #expect(parent.hasChanges == !parentSaves)
        #expect(parent.insertedObjects.isEmpty && parent.updatedObjects.isEmpty)
        #expect(child.hasChanges && child.insertedObjects.count == 1 && childA0.isUpdated)
        try parent.save()
        #expect(try stored(coordinator) == (["A1"], ["B1->A1"]))
    }

    /// F5 one level down: a grandchild renames an author that the root context deleted and
    /// saved; the middle context never loaded it. The grandchild's save throws naming it, and
    /// the middle context receives nothing.
    package static func grandchildSaveOntoAnObjectTheRootDeleted(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let root = ManagedObjectContext(coordinator: coordinator)
        let middle = ManagedObjectContext(concurrencyType: .confinement, parent: root)
        let grandchild = ManagedObjectContext(concurrencyType: .confinement, parent: middle)
        let a0 = try author(grandchild, "A0")
        try a0.setValue("grandchild-edit", forKey: "name")
        root.delete(try author(root, "A0"))
        try root.save()
        #expect { try grandchild.save() } throws: { isGoneFromParent($0, [a0.objectID]) }
        #expect(!middle.hasChanges && grandchild.hasChanges)
        #expect(try stored(coordinator) == (["A1"], ["B1->A1"]))
    }

    /// F5's control: a child whose objects all still exist in its parent saves as before.
    package static func childSaveOntoLiveObjects(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let parent = ManagedObjectContext(coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
        let childA0 = try author(child, "A0")
        try childA0.setValue("renamed", forKey: "name")
        let book = try child.insertNewObject(forEntityNamed: "Book")
        try book.setValue("new", forKey: "title")
        try book.setValue(childA0, forKey: "author")
        try child.save()
        try parent.save()
        #expect(try stored(coordinator) == (["A1", "renamed"], ["B0->renamed", "B1->A1", "new->renamed"]))
    }

    /// The ID of a row the store does not have: A0's, after another context deleted A0.
    package static func deletedAuthorID(_ coordinator: PersistentStoreCoordinator) throws -> ManagedObjectID {
        let other = ManagedObjectContext(coordinator: coordinator)
        let a0 = try author(other, "A0")
        other.delete(a0)
        try other.save()
        return a0.objectID
    }

    /// The ID of a row that never existed: A0's URI with another key.
    package static func neverStoredAuthorID(_ coordinator: PersistentStoreCoordinator) throws -> ManagedObjectID {
        let reader = ManagedObjectContext(coordinator: coordinator)
        let uri = try author(reader, "A0").objectID.uriRepresentation().absoluteString
        let key = try #require(uri.split(separator: "/").last)
        let ghost = try #require(URL(string: uri.dropLast(key.count) + "p424242"))
        return try #require(coordinator.managedObjectID(forURIRepresentation: ghost))
    }

    /// F6: an object reached by ID whose row does not exist (never stored, or deleted and
    /// saved by another context), changed and saved: the change or the save throws, naming
    /// the object; nothing is written and no row appears.
    package static func changeOfAMissingRowThrows(_ factory: TestStoreFactory, neverStored: Bool) throws {
        let coordinator = try stocked(factory)
        let id = neverStored ? try neverStoredAuthorID(coordinator) : try deletedAuthorID(coordinator)
        let before = try stored(coordinator)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ghost = try context.object(with: id)
        var refused = false
        do { try ghost.setValue("ghost", forKey: "name") } catch { refused = true }
        if !refused {
            #expect { try context.save() } throws: { error in
                (error as? any LocalizedError)?.errorDescription?.contains(id.description) == true
            }
        }
        #expect(try stored(coordinator) == before)
    }

    /// F6 at the store: an updated row the store does not have is a conflict even when the save
    /// expects version 0 (an object reached by ID alone), and a locked one too; nothing is
    /// written.
    package static func storeRefusesAnUpdateOfAMissingRow(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let id = try neverStoredAuthorID(coordinator)
        let store = try #require(coordinator.stores.first)
        for locked in [false, true] {
            var changes = StoreSaveChanges()
            if locked {
                changes.locked = [(id, 0)]
            } else {
                changes.updated = [StoreRow(objectID: id, version: 0, attributes: ["name": .string("ghost")])]
            }
            #expect(throws: StoreSaveError.conflicts([StoreConflict(objectID: id, expectedVersion: 0, storeVersion: 0)])) {
                _ = try store.save(changes)
            }
        }
        #expect(try store.row(for: id) == nil)
        #expect(try stored(coordinator).authors == ["A0", "A1"])
    }

    /// Whether `error` names `id` in its text.
    package static func names(_ error: any Error, _ id: ManagedObjectID) -> Bool {
        ((error as? any LocalizedError)?.errorDescription ?? "\(error)").contains(id.description)
    }

    /// F7: a fault whose row is gone (deleted by another context, or never stored) cannot be
    /// fulfilled: key-value reads and writes throw naming the object, where they read nil
    /// (Apple raises "could not fulfill a fault"); nothing is saved.
    package static func faultOfAMissingRowThrows(_ factory: TestStoreFactory, neverStored: Bool) throws {
        let coordinator = try stocked(factory)
        let id = neverStored ? try neverStoredAuthorID(coordinator) : try deletedAuthorID(coordinator)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ghost = try context.object(with: id)
        #expect(ghost.isFault)
        #expect { try ghost.value(forKey: "name") } throws: { names($0, id) }
        #expect { try ghost.value(forKey: "books") } throws: { names($0, id) }
        #expect { try ghost.setValue("ghost", forKey: "name") } throws: { names($0, id) }
        #expect(!context.hasChanges)
    }

    /// F7: a fault whose context was released cannot be fulfilled either: key-value reads
    /// throw naming the object.
    package static func faultOfAReleasedContextThrows(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        var book: ManagedObject?
        var author: ManagedObject?
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            book = try context.fetch(EntityFetchRequest(entityName: "Book", predicate: KeyValuePredicate(format: "title == 'B0'"))).first
            author = try book?.value(forKey: "author") as? ManagedObject
            context.refreshAllObjects()
        }
        let fault = try #require(book)
        let authorFault = try #require(author)
        #expect(fault.managedObjectContext == nil)
        #expect { try fault.value(forKey: "title") } throws: { names($0, fault.objectID) }
        #expect { try authorFault.value(forKey: "name") } throws: { names($0, authorFault.objectID) }
        #expect { try authorFault.value(forKey: "books") } throws: { names($0, authorFault.objectID) }
    }

    /// F7 with typed properties (which cannot throw): a fault whose row is gone reads empty
    /// values and stays a fault; `fulfillFault()` throws why; a typed change of it fails the
    /// save (a conflict naming it: the store has no row) and nothing is written; a loaded
    /// object's `fulfillFault()` does nothing.
    package static func typedAccessOfAnUnfulfillableFault(_ factory: TestStoreFactory, neverStored: Bool) throws {
        let coordinator = try stocked(factory)
        let id = neverStored ? try neverStoredAuthorID(coordinator) : try deletedAuthorID(coordinator)
        let before = try stored(coordinator)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ghost = try #require(try context.object(with: id) as? LostChangeAuthor)
        #expect(ghost.name == nil)
        #expect(ghost.isFault, "a fault that could not be fulfilled stays one")
        #expect(throws: ManagedObjectContextError.faultNotFulfilled(id, reason: .rowGone)) { try ghost.fulfillFault() }
        ghost.name = "ghost"
        #expect(ghost.name == "ghost")
        #expect(context.hasChanges)
        #expect { try context.save() } throws: { names($0, id) }
        #expect(try stored(coordinator) == before)
        let live = try #require(try author(context, "A1") as? LostChangeAuthor)
        try live.fulfillFault()
        #expect(live.name == "A1" && !live.isFault)
    }

    /// F7: `fulfillFault()` of a fault whose context was released throws `.contextGone`; its
    /// typed reads give empty values.
    package static func fulfillingAFaultOfAReleasedContextThrows(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        var fault: LostChangeAuthor?
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            fault = try author(context, "A0") as? LostChangeAuthor
            context.refreshAllObjects()
        }
        let author = try #require(fault)
        #expect(author.isFault && author.managedObjectContext == nil)
        #expect(throws: ManagedObjectContextError.faultNotFulfilled(author.objectID, reason: .contextGone)) { try author.fulfillFault() }
        #expect(author.name == nil)
    }

    /// F7 through a fetched results controller's named cache (Apple's, too, is not checked
    /// against changes made outside the controllers that use it): an object the cache still
    /// lists after another context deleted it reads as a thrown error naming it, not as nil.
    package static func staleCacheObjectsThrowWhenRead(_ factory: TestStoreFactory) throws {
        let coordinator = try stocked(factory)
        let cacheName = "LostChangeMatrix-\(UUID().uuidString)"
        defer { FetchedResultsController.deleteCache(withName: cacheName) }
        let request = EntityFetchRequest(entityName: "Author", sortDescriptors: [KeyValueSortDescriptor(key: "name")])
        let first = try FetchedResultsController(fetchRequest: request, context: ManagedObjectContext(coordinator: coordinator),
                                                 sectionNameKeyPath: nil, cacheName: cacheName)
        try first.performFetch()
        let id = try deletedAuthorID(coordinator)
        let second = try FetchedResultsController(fetchRequest: request, context: ManagedObjectContext(coordinator: coordinator),
                                                  sectionNameKeyPath: nil, cacheName: cacheName)
        try second.performFetch()
        let objects = try #require(second.fetchedObjects)
        let gone = try #require(objects.first { $0.objectID == id }, "the cache still lists the deleted author")
        #expect { try gone.value(forKey: "name") } throws: { names($0, id) }
        #expect(try objects.filter { $0.objectID != id }.map { try $0.value(forKey: "name") as? String } == ["A1"])
    }
}
