import Foundation
import Synchronization
import Testing
@testable import ManagedObjects
import TestSupport

/// Counts its `validateForInsert()` calls and can refuse (a user's override).
private final class CheckedNote: ManagedObject {
    static let calls = Mutex(0)
    override func validateForInsert() throws {
        Self.calls.withLock { $0 += 1 }
        if (try value(forKey: "title") as? String) == "refused" {
            throw ManagedObjectValidationError(.managedObjectValidation, entity: entity.name, key: "title", reason: "refused by the class")
        }
        try super.validateForInsert()
    }
}

/// The save of new objects: validation of every object (the model's rules read from the
/// slots, a class's override called), permanent IDs given in one pass where every new object
/// waits for its registry entry, and the did-save's sets of objects and IDs.
@Suite(.serialized) struct SaveOfNewObjectsTests {
    static func model(titleRequired: Bool = false) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [
                .attribute(AttributeDescription(name: "title", type: .string, isOptional: !titleRequired)),
                .attribute("rank", .integer64), .attribute("when", .date),
            ]),
        ])
    }

    static func context(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func aClassOverridingValidateForInsertIsCalledForEveryNewObjectAndCanRefuse() throws {
        let model = try Self.model()
        try model.setManagedObjectClass(CheckedNote.self, forEntityNamed: "Note")
        let context = try Self.context(model)
        CheckedNote.calls.withLock { $0 = 0 }
        let notes = try (0..<3).map { index -> ManagedObject in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue("note \(index)", forKey: "title")
            return note
        }
        #expect(notes.allSatisfy { $0 is CheckedNote })
        try context.save()
        #expect(CheckedNote.calls.withLock { $0 } == 3)
        let refused = try context.insertNewObject(forEntityNamed: "Note")
        try refused.setValue("refused", forKey: "title")
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(refused.objectID.isTemporaryID)
        #expect(context.insertedObjects == [refused])
    }

    @Test func aRequiredAttributeWithoutAValueStillFailsTheSave() throws {
        let context = try Self.context(try Self.model(titleRequired: true))
        let named = try context.insertNewObject(forEntityNamed: "Note")
        try named.setValue("named", forKey: "title")
        let unnamed = try context.insertNewObject(forEntityNamed: "Note")
        try unnamed.setValue(Int64(2), forKey: "rank")
        do {
            try context.save()
            Issue.record("a note without its required title was saved")
        } catch let error as ManagedObjectValidationError {
            #expect(error.errors.contains { $0.code == .missingMandatoryProperty && $0.key == "title" })
        }
        #expect(named.objectID.isTemporaryID && unnamed.objectID.isTemporaryID)
    }

    /// A value of another type than its attribute's, put in by `setPrimitiveValue` (which does
    /// not check it), or a date that is not finite, fails the save as before.
    @Test(arguments: ["rank", "when"])
    func aValueOfTheWrongKindStillFailsTheSave(key: String) throws {
        let context = try Self.context(try Self.model())
        let note = try context.insertNewObject(forEntityNamed: "Note")
        try note.setPrimitiveValue(key == "rank" ? "seven" as Any : Date(timeIntervalSinceReferenceDate: .infinity), forKey: key)
        #expect(throws: ManagedObjectValidationError.self) { try context.save() }
        #expect(note.objectID.isTemporaryID)
    }

    /// The did-save carries every saved object and every permanent ID, in the notification's
    /// user info and in the typed callback, for a save of many new objects.
    @Test func theDidSaveCarriesEveryNewObjectAndItsPermanentID() throws {
        let context = try Self.context(try Self.model())
        let center = NotificationCenter()
        context.notificationCenter = center
        let posted = Mutex<(objects: Int, ids: Set<ManagedObjectID>)>((0, []))
        let observer = center.addObserver(forName: ManagedObjectContext.didSaveNotification, object: context, queue: nil) { note in
            let objects = (note.userInfo?["inserted"] as? Set<ManagedObject>)?.count ?? -1
            let ids = note.userInfo?["inserted_objectIDs"] as? Set<ManagedObjectID> ?? []
            posted.withLock { $0 = (objects, ids) }
        }
        defer { center.removeObserver(observer) }
        var typed: (ManagedObjectContext.SaveResult, ManagedObjectContext.Changes)?
        let token = context.onDidSave { typed = ($0, $1) }
        let notes = try (0..<50).map { index -> ManagedObject in
            let note = try context.insertNewObject(forEntityNamed: "Note")
            try note.setValue(Int64(index), forKey: "rank")
            return note
        }
        try context.save()
        let ids = Set(notes.map(\.objectID))
        #expect(ids.count == 50 && ids.allSatisfy { !$0.isTemporaryID })
        #expect(posted.withLock { $0.objects } == 50)
        #expect(posted.withLock { $0.ids } == ids)
        #expect(typed?.0.insertedObjectIDs == ids)
        #expect(typed?.1.inserted == Set(notes))
        withExtendedLifetime(token) {}
    }

    /// New objects of two stores, or next to objects that already have permanent IDs, take
    /// their IDs as before (the grouped way); each is then found by its ID.
    @Test func newObjectsOfTwoStoresAndBesideFetchedOnesTakeTheirStoresIDs() throws {
        let (context, shows, people) = try SavedRowCacheTests.twoStores()
        let coordinator = try #require(context.coordinator)
        let objects = try (0..<4).map { index -> ManagedObject in
            try context.insertNewObject(forEntityNamed: index.isMultiple(of: 2) ? "Movie" : "Person")
        }
        try context.save()
        for object in objects {
            #expect(object.objectID.storeIdentifier == (object.entity.name == "Movie" ? shows.identifier : people.identifier))
            #expect(context.registeredObject(for: object.objectID) === object)
        }
        // A fetch registers permanent IDs; new objects beside them are checked against them.
        let other = ManagedObjectContext(coordinator: coordinator)
        #expect(try other.fetch(EntityFetchRequest(entityName: "Movie")).count == 2)
        let movie = try other.insertNewObject(forEntityNamed: "Movie")
        try other.save()
        #expect(!movie.objectID.isTemporaryID && other.registeredObject(for: movie.objectID) === movie)
        #expect(try shows.row(for: movie.objectID) != nil)
    }

    /// A shape naming every slot in order (the in-memory store's) and one naming some slots
    /// out of order (a store's own) both tell values of exactly their types, or `nil`, from
    /// any other value, and a values array too short from one long enough.
    @Test func rowShapesTellExactValuesInOrderOrNot() throws {
        let entity = EntityDescription(name: "Note", properties: [.attribute("title", .string), .attribute("rank", .integer64),
                                                                   .attribute("ratio", .double)])
        let inOrder = StoreRowShape(entity: entity, names: ["title", "rank", "ratio"])
        let someSlots = StoreRowShape(entity: entity, names: ["ratio", "title"])
        for shape in [inOrder, someSlots] {
            #expect(shape.holdsExactValues(["a", Int64(1), 2.5]))
            #expect(shape.holdsExactValues([nil, nil, nil]))
            #expect(shape.holdsExactValues(["a", Int64(1), 2.5, "beyond the shape"]))
            #expect(!shape.holdsExactValues(["a", Int64(1), 2]))
            #expect(!shape.holdsExactValues([1, Int64(1), 2.5]))
            #expect(!shape.holdsExactValues(["a"]))
        }
        // A slot the partial shape does not name may hold anything.
        #expect(someSlots.holdsExactValues(["a", "not an integer", 2.5]))
        #expect(!inOrder.holdsExactValues(["a", "not an integer", 2.5]))
    }

    /// A store's new IDs checked one by one after IDs that share their scope: a later ID of
    /// another entity, or an ID of the entity asked earlier given for another entity, fails
    /// the save, and nothing changes ID.
    @Test(arguments: [["Apple", "Apple", "Apple"], ["Apple", "Stand"]])
    func aWrongIDAfterSoundOnesSharingTheirScopeFailsTheSave(names: [String]) throws {
        var script = ScriptedAnswerStore.Script()
        script.newIDs = { asked, store in
            // Apples with rising keys for every name, but the last one of three: a Stand.
            asked.indices.map { index in
                ManagedObjectID(entityName: index == 2 ? "Stand" : "Apple", storeIdentifier: store, primaryKey: Int64(200 + index))
            }
        }
        let context = try StoreAnswerCheckTests.context(script)
        let objects = try names.map { name -> ManagedObject in
            let object = try context.insertNewObject(forEntityNamed: name)
            if name == "Apple" { try object.setValue(2.0, forKey: "radius") } else { try object.setValue("Corner", forKey: "name") }
            return object
        }
        do {
            try context.save()
            Issue.record("the save went through with a wrong ID")
        } catch let error as ManagedObjectContextError {
            guard case .invalidStoreAnswer(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("for a new"))
        }
        #expect(objects.allSatisfy { $0.objectID.isTemporaryID })
    }
}
