import Foundation
import ManagedObjects
import Testing
@testable import SQLiteStore

/// A save is first written with its version checks in the UPDATE and DELETE statements; when a
/// row does not match, the store makes the save again with every version compared first. These
/// tests hold the store to the rules of optimistic locking in the cases that take that way back.
@Suite struct CheckedWriteTests {
    /// A store with three saved items (names "a", "b", "c", each at version 1).
    private func threeItems(_ directory: TemporaryDirectory) throws -> (SQLitePersistentStore, URL, [ManagedObjectID]) {
        let url = directory.file("Library.sqlite")
        let (store, _) = try openStack(try Models.library(), at: url)
        let ids = try store.newObjectIDs(for: ["Item", "Item", "Item"])
        let rows = zip(ids, ["a", "b", "c"]).map { StoreRow(objectID: $0, version: 0, attributes: ["name": .string($1)]) }
        _ = try store.save(StoreSaveChanges(inserted: rows))
        return (store, url, ids)
    }

    private func names(_ url: URL) throws -> [[SQLiteValue]] {
        try query(url, "SELECT Z_PK, Z_OPT, ZNAME FROM ZITEM ORDER BY Z_PK")
    }

    @Test func everyConflictIsReportedInOrderAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        let before = try names(url)
        // The first update matches (and is written before the second is found stale); the
        // second expects version 2 of a row at 1; the delete expects 5.
        let changes = StoreSaveChanges(
            updated: [StoreRow(objectID: ids[0], version: 1, attributes: ["name": .string("x")]),
                      StoreRow(objectID: ids[1], version: 2, attributes: ["name": .string("y")])],
            deleted: [(ids[2], 5)])
        let error = #expect(throws: StoreSaveError.self) { _ = try store.save(changes) }
        #expect(error == .conflicts([StoreConflict(objectID: ids[1], expectedVersion: 2, storeVersion: 1),
                                     StoreConflict(objectID: ids[2], expectedVersion: 5, storeVersion: 1)]))
        #expect(try names(url) == before, "the matching update is rolled back with the rest")
    }

    @Test func aStaleLockedObjectIsAConflictAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        let before = try names(url)
        let changes = StoreSaveChanges(updated: [StoreRow(objectID: ids[0], version: 1, attributes: ["name": .string("x")])],
                                       locked: [(ids[1], 3)])
        let error = #expect(throws: StoreSaveError.self) { _ = try store.save(changes) }
        #expect(error == .conflicts([StoreConflict(objectID: ids[1], expectedVersion: 3, storeVersion: 1)]))
        #expect(try names(url) == before)
    }

    @Test func aDeletedRowIsAConflictWithStoreVersionZero() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        _ = try store.save(StoreSaveChanges(deleted: [(ids[1], 1)]))
        let error = #expect(throws: StoreSaveError.self) {
            _ = try store.save(StoreSaveChanges(updated: [StoreRow(objectID: ids[1], version: 1, attributes: ["name": .string("y")])]))
        }
        #expect(error == .conflicts([StoreConflict(objectID: ids[1], expectedVersion: 1, storeVersion: 0)]))
        #expect(try names(url) == [[.integer(1), .integer(1), .text("a")], [.integer(3), .integer(1), .text("c")]])
    }

    @Test func conflictsComeBeforeAnInsertWhoseKeyIsTaken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        let before = try names(url)
        // The insert fails (its key is taken) before the stale update is reached.
        let changes = StoreSaveChanges(inserted: [StoreRow(objectID: ids[0], version: 0)],
                                       updated: [StoreRow(objectID: ids[1], version: 4)])
        let error = #expect(throws: StoreSaveError.self) { _ = try store.save(changes) }
        #expect(error == .conflicts([StoreConflict(objectID: ids[1], expectedVersion: 4, storeVersion: 1)]))
        #expect(try names(url) == before)
        // Without the conflict, the taken key is the error.
        let alone = #expect(throws: StoreSaveError.self) { _ = try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: ids[0], version: 0)])) }
        guard case .invalidObject(let id, _)? = alone else { Issue.record("not an invalid object: \(String(describing: alone))"); return }
        #expect(id == ids[0])
    }

    @Test func aRowOfAnotherEntityUnderTheSameKeyIsAConflict() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let (store, _) = try openStack(try Models.library(), at: url)
        let book = try #require(try store.newObjectIDs(for: ["Book"]).first)
        _ = try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: book, version: 0, attributes: ["title": .string("t")])]))
        // A Novel ID with the Book's key: the row is not the Novel's.
        let novel = ManagedObjectID(entityName: "Novel", storeIdentifier: try #require(book.storeIdentifier), primaryKey: 1)
        let update = StoreRow(objectID: novel, version: 1, attributes: ["title": .string("u")])
        let error = #expect(throws: StoreSaveError.self) { _ = try store.save(StoreSaveChanges(updated: [update])) }
        #expect(error == .conflicts([StoreConflict(objectID: novel, expectedVersion: 1, storeVersion: 0)]))
        let deleted = #expect(throws: StoreSaveError.self) { _ = try store.save(StoreSaveChanges(deleted: [(novel, 1)])) }
        #expect(deleted == .conflicts([StoreConflict(objectID: novel, expectedVersion: 1, storeVersion: 0)]))
        #expect(try query(url, "SELECT Z_PK, Z_OPT, ZTITLE FROM ZBOOK") == [[.integer(1), .integer(1), .text("t")]])
    }

    @Test func matchingUpdatesAndDeletesAreWrittenWithNewVersions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        let versions = try store.save(StoreSaveChanges(
            updated: [StoreRow(objectID: ids[0], version: 1, attributes: ["name": .string("x")]),
                      StoreRow(objectID: ids[2], version: 1, attributes: ["name": .string("z")])],
            deleted: [(ids[1], 1)]))
        #expect(versions == [ids[0]: 2, ids[2]: 2])
        #expect(try names(url) == [[.integer(1), .integer(2), .text("x")], [.integer(3), .integer(2), .text("z")]])
    }

    @Test func textIsBoundAsTextWhateverItsLength() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let (store, _) = try openStack(try Models.library(), at: url)
        let texts = ["", "short", String(repeating: "long text é ", count: 20), "naïve 🙂"]
        let ids = try store.newObjectIDs(for: texts.map { _ in "Item" })
        _ = try store.save(StoreSaveChanges(inserted: zip(ids, texts).map {
            StoreRow(objectID: $0, version: 0, attributes: ["name": .string($1)])
        }))
        // An empty string stays text (not NULL); every byte of the others is kept.
        #expect(try query(url, "SELECT typeof(ZNAME), ZNAME FROM ZITEM ORDER BY Z_PK") == texts.map { [.text("text"), .text($0)] })
    }

    @Test func anAttributeARowLeavesOutIsWrittenAsNull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, url, ids) = try threeItems(directory)
        // The updated row has no "name" (nil) and a name the entity does not have (ignored).
        _ = try store.save(StoreSaveChanges(updated: [
            StoreRow(objectID: ids[0], version: 1, attributes: ["large": .integer(7), "unknown": .string("z")]),
        ]))
        #expect(try query(url, "SELECT Z_OPT, ZNAME, ZLARGE FROM ZITEM WHERE Z_PK = 1") == [[.integer(2), .null, .integer(7)]])
    }
}
