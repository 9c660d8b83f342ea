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

    /// A context on two in-memory stores: movies in one ("Shows"), people in the other.
    static func twoStores() throws -> (context: ManagedObjectContext, shows: InMemoryStore, people: InMemoryStore) {
        let model = try ManagedObjectModel(
            entities: [EntityDescription(name: "Movie", properties: [.attribute("title", .string)]),
                       EntityDescription(name: "Person", properties: [.attribute("name", .string)])],
            configurations: ["Shows": ["Movie"], "People": ["Person"]])
        let coordinator = PersistentStoreCoordinator(model: model)
        let shows = InMemoryStore()
        let people = InMemoryStore()
        try coordinator.addStore(shows, configuration: "Shows")
        try coordinator.addStore(people, configuration: "People")
        return (ManagedObjectContext(coordinator: coordinator), shows, people)
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

    /// A save's deleted objects go to their stores in runs; objects of two stores deleted in
    /// alternation each leave their own store, and the others stay.
    @Test func deletesOfTwoStoresInAlternationReachEachStore() throws {
        let (context, shows, people) = try Self.twoStores()
        let coordinator = try #require(context.coordinator)
        var objects: [ManagedObject] = []
        for index in 0..<6 {
            let object = try context.insertNewObject(forEntityNamed: index.isMultiple(of: 2) ? "Movie" : "Person")
            try object.setValue("\(index)", forKey: index.isMultiple(of: 2) ? "title" : "name")
            objects.append(object)
        }
        try context.save()
        let ids = objects.map(\.objectID)
        // Registered in alternation: the deleted set holds objects of both stores mixed.
        for index in [0, 1, 2, 3] { context.delete(objects[index]) }
        try context.save()
        for index in [0, 2] { #expect(try shows.row(for: ids[index]) == nil) }
        for index in [1, 3] { #expect(try people.row(for: ids[index]) == nil) }
        #expect(try shows.row(for: ids[4]) != nil)
        #expect(try people.row(for: ids[5]) != nil)
        for index in [0, 1, 2, 3] { #expect(coordinator.rowCache.row(for: ids[index], maximumAge: -1) == nil) }
    }
}
