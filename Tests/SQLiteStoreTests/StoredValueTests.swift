import Foundation
import Testing
import ManagedObjects
@testable import SQLiteStore

/// Values as other writers leave them, transformable values, and conflicts on deletes.
@Suite struct StoredValueTests {
    struct Point: Codable, Sendable, Hashable {
        var x: Int
        var y: Int
    }

    @Test func transformableValuesGoThroughTheirTransformer() throws {
        let name = "SQLiteStoreTests.PointTransformer"
        AttributeValueTransformers.register(CodableValueTransformer<Point>(), named: name)
        defer { AttributeValueTransformers.unregister(named: name) }
        var position = AttributeDescription(name: "position", type: .transformable)
        position.valueTransformerName = name
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Pin", properties: [.attribute(position)])])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Pins.sqlite")
        do {
            let (_, context) = try openStack(model, at: url)
            try context.insertNewObject(forEntityNamed: "Pin").setValue(Point(x: 3, y: -4), forKey: "position")
            try context.save()
        }
        let stored = try query(url, "SELECT ZPOSITION FROM ZPIN")
        guard case .blob(let data) = stored.first?.first else {
            Issue.record("ZPOSITION is not a blob: \(stored)")
            return
        }
        #expect(try JSONDecoder().decode(Point.self, from: data) == Point(x: 3, y: -4))
        let (_, context) = try openStack(model, at: url)
        let pin = try #require(try context.fetch(EntityFetchRequest(entityName: "Pin")).first)
        #expect(pin.stored("position") as? Point == Point(x: 3, y: -4))
    }

    @Test func integerTimestampsAndExtraColumnsAreRead() throws {
        // knowledgeC keeps whole seconds as INTEGER in TIMESTAMP columns; CoreDataBooks has a
        // hand-added column the model does not know.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            _ = try context.insertNewObject(forEntityNamed: "Item")
            try context.save()
        }
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        try connection.execute("UPDATE ZITEM SET ZWHEN = 600000000")
        try connection.execute("ALTER TABLE ZITEM ADD COLUMN \"ZCONTENTS\" VARCHAR DEFAULT test")
        let (_, context) = try openStack(try Models.library(), at: url)
        let item = try #require(try context.fetch(EntityFetchRequest(entityName: "Item")).first)
        #expect(item.stored("when") as? Date == Date(timeIntervalSinceReferenceDate: 600_000_000))
    }

    @Test func deletingARowAnotherStoreDeletedIsAConflict() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        let model = try Models.library()
        let (_, first) = try openStack(model, at: url)
        let item = try first.insertNewObject(forEntityNamed: "Item")
        try first.save()
        let (_, second) = try openStack(model, at: url)
        let mirror = try #require(try second.fetch(EntityFetchRequest(entityName: "Item")).first)
        second.delete(mirror)
        try second.save()
        first.delete(item)
        let error = #expect(throws: ManagedObjectMergeError.self) { try first.save() }
        let conflict = try #require(error?.mergeConflicts.first)
        #expect(conflict.objectID == item.objectID && conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 0)
        #expect(conflict.persistedSnapshot == nil && conflict.isDeletedInContext)
    }

    @Test func objectsOfOtherStoresAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try openStack(try Models.library(), at: directory.file("Library.sqlite"))
        let foreign = ManagedObjectID(entityName: "Item", storeIdentifier: "OTHER", primaryKey: 1)
        #expect(try store.row(for: foreign) == nil)
        #expect(try store.row(for: ManagedObjectID(entityName: "Item", storeIdentifier: store.identifier, primaryKey: 99)) == nil)
        #expect(throws: StoreSaveError.self) {
            try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: foreign, version: 0)]))
        }
        let temporary = ManagedObjectID.temporary(entityName: "Item")
        #expect(throws: StoreSaveError.self) {
            try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: temporary, version: 0)]))
        }
        let unknown = ManagedObjectID(entityName: "Nope", storeIdentifier: store.identifier, primaryKey: 1)
        #expect(throws: SQLiteStoreError.self) {
            try store.save(StoreSaveChanges(inserted: [StoreRow(objectID: unknown, version: 0)]))
        }
        #expect(throws: SQLiteStoreError.self) { try store.newObjectIDs(for: ["Nope"]) }
        #expect(try query(directory.file("Library.sqlite"), "SELECT count(*) FROM ZITEM") == [[.integer(0)]])
    }

    @Test func textWithNULCharactersStaysWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        do {
            let (_, context) = try openStack(try Models.library(), at: url)
            try context.insertNewObject(forEntityNamed: "Item").setValue("a\u{0}b", forKey: "name")
            try context.save()
        }
        #expect(try query(url, "SELECT length(CAST(ZNAME AS BLOB)) FROM ZITEM") == [[.integer(3)]])
        let (_, context) = try openStack(try Models.library(), at: url)
        #expect(try context.fetch(EntityFetchRequest(entityName: "Item")).first?.stored("name") as? String == "a\u{0}b")
    }

    @Test func exhaustedCountersThrowInsteadOfOverflowing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("Library.sqlite")
        _ = try openStack(try Models.library(), at: url)
        try SQLiteConnection(path: url.path, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807")
        let (store, _) = try openStack(try Models.library(), at: url)
        #expect(throws: SQLiteStoreError.self) { try store.newObjectIDs(for: ["Item"]) }
        #expect(try query(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") == [[.integer(.max)]])
    }
}

@Suite struct UniquenessTests {
    @Test func aDuplicateOfAUniquenessConstraintIsRefusedNamingTheProperties() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.copyOfFixture("coredataplus/SampleModel_V1.sqlite")
        let (store, context) = try openStack(try AppleStoreTests.sampleModel(), at: url)
        // Victoria Coster is person 1 of the store; the constraint is (firstName, lastName).
        let twin = try context.insertNewObject(forEntityNamed: "Person")
        try twin.setValue("Victoria", forKey: "firstName")
        try twin.setValue("Coster", forKey: "lastName")
        try twin.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
        try twin.setValue(UUID(), forKey: "id")
        // The context finds the conflict before writing (the default merge policy throws it)…
        let mergeError = #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        let conflict = try #require(mergeError?.constraintConflicts.first)
        #expect(conflict.constraint == ["firstName", "lastName"] && conflict.databaseObjectID?.entityName == "Person")
        #expect(conflict.constraintValues == ["firstName": .string("Victoria"), "lastName": .string("Coster")])
        // …and the store refuses a duplicate that reaches it all the same.
        var row = context.row(of: twin)
        row.objectID = try store.newObjectIDs(for: ["Person"])[0]
        let error = #expect(throws: SQLiteStoreError.self) { try store.save(StoreSaveChanges(inserted: [row])) }
        guard case .uniquenessConstraint(let id, let properties) = error?.code else {
            Issue.record("expected a uniqueness error, got \(String(describing: error))")
            return
        }
        #expect(id.entityName == "Person")
        #expect(properties == ["firstName", "lastName"])
        #expect(error?.errorDescription?.contains("firstName, lastName") == true)
        #expect(try query(url, "SELECT count(*) FROM ZPERSON") == [[.integer(20)]])
    }
}
