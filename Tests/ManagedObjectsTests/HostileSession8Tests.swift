import Foundation
import Testing
import KeyValueCoding
import Predicates
@testable import ManagedObjects

// Hostile probes of session 8's insert, update and fetch rewrites on the in-memory and atomic
// file stores: lifecycle hooks called once per object and save, temporary IDs turning permanent
// wherever an object is looked up, saved rows independent of the objects that go on changing,
// one changed column saved with every other kept across a reopened file.
private final class CountingNote: ManagedObject {
    var awoken = 0, willSaves = 0, didSaves = 0, fetched = 0
    override func awakeFromInsert() { awoken += 1 }
    override func awakeFromFetch() { fetched += 1 }
    override func willSave() { willSaves += 1 }
    override func didSave() { didSaves += 1 }
}

@Suite struct HostileSession8Tests {
    enum Kind: String, CaseIterable, Sendable { case memory, file }

    static func model(counting: Bool = false) throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [
                .attribute("title", .string), .attribute("rank", .integer64), .attribute("score", .double),
                .attribute("blob", .binaryData), .attribute("when", .date), .attribute("tags", .transformable),
                .attribute("price", .decimal), .attribute("small", .integer16),
            ]),
            EntityDescription(name: "SubNote", parent: "Note", properties: [.attribute("extra", .string)]),
        ])
        if counting { try model.setManagedObjectClass(CountingNote.self, forEntityNamed: "Note") }
        return model
    }

    /// A coordinator with one store of `kind` (a file store at `url`), and a context.
    static func open(_ kind: Kind, _ url: URL, model: ManagedObjectModel) throws -> (any PersistentStore, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(model: model)
        let store: any PersistentStore = kind == .memory ? InMemoryStore() : AtomicFileStore(url: url)
        try coordinator.addStore(store)
        return (store, ManagedObjectContext(coordinator: coordinator))
    }

    static func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("HostileSession8-\(UUID().uuidString).store")
    }

    static func fill(_ note: ManagedObject, _ seed: Int) throws {
        try note.setValue("title \(seed)", forKey: "title")
        try note.setValue(Int64(seed) * 1_000_000_007, forKey: "rank")
        try note.setValue(Double(seed) / 3, forKey: "score")
        try note.setValue(Data([UInt8(seed % 256), 0, 255]), forKey: "blob")
        try note.setValue(Date(timeIntervalSinceReferenceDate: Double(seed) * 86_400.5), forKey: "when")
        try note.setValue(["t\(seed)", "ü"], forKey: "tags")
        try note.setValue(Decimal(seed) / 4, forKey: "price")
        try note.setValue(Int16(seed % 30_000), forKey: "small")
    }

    static func expectFilled(_ note: ManagedObject, _ seed: Int, except: Set<String> = [], _ label: String = "",
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        func check(_ key: String, _ ok: Bool) {
            if !except.contains(key) { #expect(ok, "\(label) \(key)", sourceLocation: sourceLocation) }
        }
        check("title", try note.value(forKey: "title") as? String == "title \(seed)")
        check("rank", try note.value(forKey: "rank") as? Int64 == Int64(seed) * 1_000_000_007)
        check("score", try note.value(forKey: "score") as? Double == Double(seed) / 3)
        check("blob", try note.value(forKey: "blob") as? Data == Data([UInt8(seed % 256), 0, 255]))
        check("when", try note.value(forKey: "when") as? Date == Date(timeIntervalSinceReferenceDate: Double(seed) * 86_400.5))
        check("tags", (try note.value(forKey: "tags") as? [Any])?.compactMap { $0 as? String } == ["t\(seed)", "ü"])
        check("price", try note.value(forKey: "price") as? Decimal == Decimal(seed) / 4)
        check("small", try note.value(forKey: "small") as? Int16 == Int16(seed % 30_000))
    }

    @Test(arguments: Kind.allCases)
    func oneChangedColumnKeepsEveryOtherAcrossAReopen(kind: Kind) throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try Self.model()
        let (store, context) = try Self.open(kind, url, model: model)
        let notes = try (0..<30).map { index in
            let note = try context.insertNewObject(forEntityNamed: index % 2 == 0 ? "Note" : "SubNote")
            try Self.fill(note, index)
            return note
        }
        try context.save()
        let keys = ["title", "rank", "score", "blob", "when", "tags", "price", "small"]
        for (index, note) in notes.enumerated() {
            try note.setValue(nil, forKey: keys[index % keys.count])
        }
        try notes[3].setValue("mine", forKey: "extra")
        try context.save()
        #expect(notes.allSatisfy { $0.storeVersion == 2 })
        let reader: ManagedObjectContext
        if kind == .file {
            reader = try Self.open(.file, url, model: model).1
        } else {
            reader = ManagedObjectContext(coordinator: try #require(context.coordinator))
            reader.stalenessInterval = 0
        }
        for (index, note) in notes.enumerated() {
            let seen = try reader.existingObject(with: note.objectID)
            let key = keys[index % keys.count]
            #expect(try seen.value(forKey: key) == nil, "#\(index) \(key)")
            try Self.expectFilled(seen, index, except: [key], "#\(index)")
            #expect(try store.row(for: note.objectID)?.version == 2)
        }
        #expect(try reader.existingObject(with: notes[3].objectID).value(forKey: "extra") as? String == "mine")
    }

    @Test(arguments: Kind.allCases)
    func savedRowsStayAsSavedWhileTheObjectsChangeOn(kind: Kind) throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (store, context) = try Self.open(kind, url, model: try Self.model())
        let note = try context.insertNewObject(forEntityNamed: "Note")
        try Self.fill(note, 1)
        try context.save()
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let seen = try other.existingObject(with: note.objectID)
        // Unsaved changes of every kind, after an insert's save: the store and the other
        // context keep the saved values.
        try Self.fill(note, 2)
        #expect(try store.row(for: note.objectID)?.attributes["title"] == .string("title 1"))
        try Self.expectFilled(seen, 1, except: [], "other context, after the insert")
        try context.save()
        #expect(try store.row(for: note.objectID)?.attributes["title"] == .string("title 2"))
        // And after an update's save.
        try Self.fill(note, 3)
        #expect(try store.row(for: note.objectID)?.attributes["rank"] == .integer(2_000_000_014))
        let third = ManagedObjectContext(coordinator: try #require(context.coordinator))
        try Self.expectFilled(try third.existingObject(with: note.objectID), 2, except: [], "third context, after the update")
        context.rollback()
        try Self.expectFilled(note, 2, except: [], "rolled back")
    }

    @Test func lifecycleHooksRunOncePerObjectAndSave() throws {
        let (_, context) = try Self.open(.memory, Self.temporaryURL(), model: try Self.model(counting: true))
        let notes = try (0..<3).map { _ in try #require(try context.insertNewObject(forEntityNamed: "Note") as? CountingNote) }
        #expect(notes.map(\.awoken) == [1, 1, 1])
        try context.save()
        #expect(notes.map(\.willSaves) == [1, 1, 1] && notes.map(\.didSaves) == [1, 1, 1])
        try notes[1].setValue("x", forKey: "title")
        try notes[2].setValue("y", forKey: "title")
        try notes[2].setValue(nil, forKey: "title")   // back: still an updated object, so hooks run
        #expect(context.updatedObjects.count == 2)
        try context.save()
        #expect(notes.map(\.willSaves) == [1, 2, 2] && notes.map(\.didSaves) == [1, 2, 2])
        #expect(notes[2].storeVersion == 1 && notes[1].storeVersion == 2, "the set-back object's row is not written")
        context.delete(notes[0])
        try context.save()
        #expect(notes.map(\.willSaves) == [2, 2, 2] && notes.map(\.didSaves) == [2, 2, 2])
        #expect(notes.map(\.awoken) == [1, 1, 1] && notes.map(\.fetched) == [0, 0, 0])
        // Another context fetching them: awakeFromFetch once each, no insert hook.
        let other = ManagedObjectContext(coordinator: try #require(context.coordinator))
        let fetched = try other.fetch(EntityFetchRequest(entityName: "Note")).compactMap { $0 as? CountingNote }
        #expect(fetched.count == 2)
        _ = try fetched.map { try $0.value(forKey: "title") }
        _ = try other.fetch(EntityFetchRequest(entityName: "Note"))
        #expect(fetched.map(\.fetched) == [1, 1] && fetched.map(\.awoken) == [0, 0])
    }

    @Test func temporaryIDsTurnPermanentWhereverTheObjectIsLookedUp() throws {
        let (_, context) = try Self.open(.memory, Self.temporaryURL(), model: try Self.model())
        let note = try context.insertNewObject(forEntityNamed: "SubNote")
        try Self.fill(note, 5)
        let temporary = note.objectID
        #expect(temporary.isTemporaryID)
        #expect(try context.object(with: temporary) === note)
        #expect(try context.existingObject(with: temporary) === note)
        #expect(context.registeredObject(for: temporary) === note)
        try context.save()
        let permanent = note.objectID
        #expect(!permanent.isTemporaryID && permanent != temporary)
        #expect(permanent.entityName == "SubNote")
        #expect(context.registeredObject(for: permanent) === note)
        #expect(context.registeredObject(for: temporary) == nil)
        #expect(try context.object(with: permanent) === note)
        #expect(try context.existingObject(with: permanent) === note)
        #expect(throws: (any Error).self) { try context.existingObject(with: temporary) }
        let uri = permanent.uriRepresentation()
        let coordinator = try #require(context.coordinator)
        #expect(coordinator.managedObjectID(forURIRepresentation: uri) == permanent)
        let other = ManagedObjectContext(coordinator: coordinator)
        let seen = try other.object(with: permanent)
        #expect(seen.entity.name == "SubNote")
        try Self.expectFilled(seen, 5, except: [], "other context by permanent ID")
        // obtainPermanentIDs before the save: the save keeps them.
        let early = try context.insertNewObject(forEntityNamed: "Note")
        try Self.fill(early, 6)
        try context.obtainPermanentIDs(for: [early])
        let obtained = early.objectID
        #expect(!obtained.isTemporaryID)
        try context.save()
        #expect(early.objectID == obtained)
        try Self.expectFilled(try other.existingObject(with: obtained), 6, except: [], "obtained ID")
    }

    @Test(arguments: Kind.allCases)
    func anObjectInsertedAndDeletedBeforeTheSaveNeverReachesTheStore(kind: Kind) throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (store, context) = try Self.open(kind, url, model: try Self.model())
        let kept = try context.insertNewObject(forEntityNamed: "Note")
        let gone = try context.insertNewObject(forEntityNamed: "SubNote")
        try Self.fill(gone, 9)
        context.delete(gone)
        #expect(context.insertedObjects == [kept] && context.deletedObjects.isEmpty)
        try context.save()
        #expect(gone.objectID.isTemporaryID && gone.managedObjectContext == nil)
        let rows = try store.fetch(StoreFetchRequest(entityNames: ["Note", "SubNote"])).rows
        #expect(rows.map(\.objectID) == [kept.objectID])
        #expect(try context.count(for: EntityFetchRequest(entityName: "Note")) == 1)
    }
}
