import Foundation
import Testing
import ManagedObjects

/// The row cache takes a save's updated rows as it takes its new ones (moved out of the save,
/// kept as one shared array), with versions either listed or implied (each updated row's
/// version plus one); a store that lists them still gets them looked up.
@Suite struct SavedRowCacheTests {
    static let store = "S"

    static func row(_ key: Int64, version: Int64, name: String) -> StoreRow {
        StoreRow(objectID: ManagedObjectID(entityName: "Item", storeIdentifier: store, primaryKey: key), version: version,
                 attributes: ["name": .string(name)])
    }

    @Test func updatedRowsTakeTheirVersionPlusOneWhenImplied() throws {
        let cache = RowCache()
        var changes = StoreSaveChanges(inserted: [Self.row(1, version: 0, name: "new")],
                                       updated: [Self.row(2, version: 4, name: "two"), Self.row(3, version: 9, name: "three")])
        cache.store(saved: &changes, insertedVersion: 1, versions: [:], updatedByOne: true)
        #expect(changes.inserted.isEmpty)
        #expect(changes.updated.isEmpty)
        #expect(cache.row(for: Self.row(1, version: 0, name: "").objectID, maximumAge: -1)?.version == 1)
        let two = try #require(cache.row(for: Self.row(2, version: 0, name: "").objectID, maximumAge: -1))
        #expect(two.version == 5)
        #expect(two.attributes["name"] == .string("two"))
        #expect(cache.row(for: Self.row(3, version: 0, name: "").objectID, maximumAge: -1)?.version == 10)
    }

    @Test func listedVersionsAreLookedUpAndARowWithoutOneKeepsItsVersion() throws {
        let cache = RowCache()
        let two = Self.row(2, version: 4, name: "two")
        let three = Self.row(3, version: 9, name: "three")
        var changes = StoreSaveChanges(updated: [two, three])
        // A store that answers a dictionary: the listed version, not version plus one.
        cache.store(saved: &changes, versions: [two.objectID: 7])
        #expect(cache.row(for: two.objectID, maximumAge: -1)?.version == 7)
        #expect(cache.row(for: three.objectID, maximumAge: -1)?.version == 9)
        // A later save replaces one of the shared rows; the other stays cached.
        var next = StoreSaveChanges(updated: [Self.row(2, version: 7, name: "two again")])
        cache.store(saved: &next, versions: [:], updatedByOne: true)
        let replaced = try #require(cache.row(for: two.objectID, maximumAge: -1))
        #expect(replaced.version == 8)
        #expect(replaced.attributes["name"] == .string("two again"))
        #expect(cache.row(for: three.objectID, maximumAge: -1)?.attributes["name"] == .string("three"))
    }
}
