import Foundation
import Testing
import KeyValueCoding
import KeyValueObserving
import Predicates
import UndoManagement
import TestSupport
@testable import ManagedObjects

/// The shortcuts of the insert-and-save path (Docs/Performance.md, "insert-lean"): a date
/// attribute changed by key when only the context listens, the event's inserted objects looked
/// up once per object, and a save's new rows kept by the coordinator's row cache as one shared
/// array. Each test checks Core Data's documented behaviour, and where a change can take the
/// short or the full way (an object nobody observes, or one a key-value observer watches),
/// that both ways give the same answers.
@Suite struct InsertAndSaveShortcutTests {
    static func model() -> ManagedObjectModel {
        // A valid model: building it cannot fail.
        try! ManagedObjectModel(entities: [
            EntityDescription(name: "Entry", properties: [
                .attribute("title", .string),
                .attribute("due", .date),
                .attribute("rank", .integer64, defaultValue: 1),
                .attribute("memo", .string, isTransient: true),
            ]),
        ])
    }

    static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(model: model())
        try coordinator.addStore(InMemoryStore())
        return ManagedObjectContext(coordinator: coordinator)
    }

    static let first = Date(timeIntervalSinceReferenceDate: 1_000)
    static let second = Date(timeIntervalSinceReferenceDate: 2_000)
    static let third = Date(timeIntervalSinceReferenceDate: 3_000)

    /// What the context says about an object, as text (comparable between the two ways).
    typealias Snapshot = QuietKeyValueChangeTests.Snapshot

    /// The snapshot of an entry (its committed title, due date and rank).
    static func snapshot(_ entry: ManagedObject) -> Snapshot {
        Snapshot(entry, committedKeys: ["title", "due", "rank"])
    }

    /// Inserts an entry, sets its date by key (twice, then in a later event), saves, changes
    /// the date of the saved entry and rolls back; returns what the context said at each step,
    /// the batches of objects-did-change and the date after the rollback.
    static func dateSteps(watched: Bool) throws -> ([Snapshot], [[Int]], Date?) {
        let context = try Self.context()
        var batches: [[Int]] = []
        let token = context.onObjectsDidChange { batches.append([$0.inserted.count, $0.updated.count]) }
        defer { token.cancel() }
        let recorder = ChangeRecorder()
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        // An observer of a key the steps never change makes every change take the full way.
        if watched { try entry.addObserver(recorder, forKeyPath: "memo", options: [.new]) }
        var snapshots: [Snapshot] = []
        try entry.setValue(first, forKey: "due")
        try entry.setValue(second, forKey: "due")
        snapshots.append(Self.snapshot(entry))
        context.processPendingChanges()
        try entry.setValue(third, forKey: "due")
        snapshots.append(Self.snapshot(entry))
        try context.save()
        try entry.setValue(first, forKey: "due")
        try entry.setValue(nil, forKey: "due")
        snapshots.append(Self.snapshot(entry))
        context.processPendingChanges()
        context.rollback()
        snapshots.append(Self.snapshot(entry))
        #expect(recorder.records.isEmpty, "the watched key never changed")
        return (snapshots, batches, try entry.value(forKey: "due") as? Date)
    }

    @Test func aDateChangedByKeyIsRecordedAlikeEitherWay() throws {
        let (quiet, quietBatches, quietDate) = try Self.dateSteps(watched: false)
        let (full, fullBatches, fullDate) = try Self.dateSteps(watched: true)
        #expect(quiet == full && quietBatches == fullBatches && quietDate == fullDate)
        let (second, third) = (String(describing: Self.second), String(describing: Self.third))
        // Apple: an inserted object's changedValues() are its values that are not nil.
        #expect(quiet[0].changed == ["due": second, "rank": "1"])
        #expect(quiet[0].isInserted && !quiet[0].isUpdated)
        // In the later event the date's value at the event's start is the old value.
        #expect(quiet[1].changedThisEvent == ["due": second])
        // After the save: the committed value is the saved one; nil is a change.
        #expect(quiet[2].changed == ["due": "nil"] && quiet[2].committed["due"] == third)
        #expect(quiet[2].changedThisEvent == ["due": third] && quiet[2].isUpdated)
        // Rollback restores the committed (saved) date.
        #expect(quietDate == Self.third && !quiet[3].isUpdated && quiet[3].changed.isEmpty)
        // Inserted; updated in the later event; updated after the save (the rollback's own
        // batch follows).
        #expect(Array(quietBatches.prefix(3)) == [[1, 0], [0, 1], [0, 1]])
    }

    /// Sets a date that is not a finite number of seconds and returns the error's description,
    /// the prior and after notifications of an observer of the date, and what the context says.
    static func refusedDate(watched: Bool) throws -> (String?, [Bool], Snapshot) {
        let context = try Self.context()
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        try entry.setValue(first, forKey: "due")
        try context.save()
        let recorder = ChangeRecorder()
        if watched { try entry.addObserver(recorder, forKeyPath: "due", options: [.new, .prior]) }
        var description: String?
        do {
            try entry.setValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "due")
        } catch let error as KeyValueCodingError {
            if case .valueOutOfRange = error { description = error.errorDescription }
        }
        return (description, recorder.records.map(\.change.isPrior), Self.snapshot(entry))
    }

    @Test func aDateThatIsNotFiniteIsRefusedEitherWay() throws {
        let (quietError, quietNotes, quiet) = try Self.refusedDate(watched: false)
        let (fullError, fullNotes, full) = try Self.refusedDate(watched: true)
        #expect(quietError != nil && quietError == fullError, "a thrown valueOutOfRange naming the key")
        #expect(quietError?.contains("due") == true)
        #expect(quiet == full)
        #expect(!quiet.isUpdated && quiet.changed.isEmpty, "nothing recorded")
        #expect(quietNotes.isEmpty)
        // The observer heard the change announced, then nothing: the refused change was cancelled.
        #expect(!fullNotes.contains(false))
    }

    @Test func aDateChangeIsUndoneAsBefore() throws {
        let context = try Self.context()
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        try entry.setValue(Self.first, forKey: "due")
        try context.save()
        context.undoManager = UndoHistory()
        try entry.setValue(Self.second, forKey: "due")
        try entry.setValue(Self.third, forKey: "due")
        try context.undo()
        #expect(try entry.value(forKey: "due") as? Date == Self.first, "one event: undone as one step")
        try context.redo()
        #expect(try entry.value(forKey: "due") as? Date == Self.third)
    }

    @Test func aDateObserverHearsOldAndNewValues() throws {
        let context = try Self.context()
        let entry = try context.insertNewObject(forEntityNamed: "Entry")
        try entry.setValue(Self.first, forKey: "due")   // before any observer: the short way
        let recorder = ChangeRecorder()
        try entry.addObserver(recorder, forKeyPath: "due", options: [.old, .new])
        try entry.setValue(Self.second, forKey: "due")
        let changes = recorder.records.map { ($0.change.oldValue as? Date, $0.change.newValue as? Date) }
        #expect(changes.count == 1)
        #expect(changes.first?.0 == Self.first && changes.first?.1 == Self.second)
        #expect(throws: KeyValueCodingError.self) { try entry.setValue("tomorrow", forKey: "due") }
        #expect(try entry.value(forKey: "due") as? Date == Self.second)
    }

    /// Apple: objects-did-change reports an object inserted in an earlier event and changed in
    /// this one as updated, and one inserted in this event as inserted only, whatever order
    /// objects are changed, deleted and inserted again in.
    @Test func theEventTellsNewObjectsFromObjectsInsertedEarlier() throws {
        let context = try Self.context()
        var batches: [(inserted: Set<ManagedObject>, updated: Set<ManagedObject>)] = []
        let token = context.onObjectsDidChange { batches.append(($0.inserted, $0.updated)) }
        defer { token.cancel() }
        let earlier = try context.insertNewObject(forEntityNamed: "Entry")
        let other = try context.insertNewObject(forEntityNamed: "Entry")
        context.processPendingChanges()
        let fresh = try context.insertNewObject(forEntityNamed: "Entry")
        try fresh.setValue("fresh", forKey: "title")
        try earlier.setValue("earlier", forKey: "title")
        try fresh.setValue(Int64(2), forKey: "rank")
        try other.setValue(Int64(3), forKey: "rank")
        // Deleted and inserted again in the same event: new in this event.
        let again = try context.insertNewObject(forEntityNamed: "Entry")
        try again.setValue("again", forKey: "title")
        context.delete(again)
        try context.insert(again)
        try again.setValue(Int64(4), forKey: "rank")
        context.processPendingChanges()
        #expect(batches.count == 2)
        #expect(batches.last?.inserted == [fresh, again])
        #expect(batches.last?.updated == [earlier, other])
        // The next event: the objects inserted in the last one are updates now.
        try fresh.setValue("later", forKey: "title")
        context.processPendingChanges()
        #expect(batches.last?.inserted.isEmpty == true && batches.last?.updated == [fresh])
        #expect(fresh.isInserted && !fresh.isUpdated, "still inserted for the save")
    }

    /// The coordinator's row cache after a save holds each new row at version 1 and each
    /// updated row at its new version, with the saved values; another context fills faults
    /// from it with those values.
    @Test(arguments: [1, 3])
    func theRowCacheHoldsTheSavedRows(count: Int) throws {
        let context = try Self.context()
        let coordinator = try #require(context.coordinator)
        let entries = try (0..<count).map { index -> ManagedObject in
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue("entry \(index)", forKey: "title")
            try entry.setValue(Date(timeIntervalSinceReferenceDate: Double(index)), forKey: "due")
            return entry
        }
        try context.save()
        for (index, entry) in entries.enumerated() {
            let row = try #require(coordinator.rowCache.row(for: entry.objectID, maximumAge: -1))
            #expect(row.version == 1 && entry.storeVersion == 1)
            #expect(row.attributeValue(named: "title") == .string("entry \(index)"))
        }
        try entries[0].setValue("changed", forKey: "title")
        try context.save()
        let changed = try #require(coordinator.rowCache.row(for: entries[0].objectID, maximumAge: -1))
        #expect(changed.version == 2 && entries[0].storeVersion == 2)
        #expect(changed.attributeValue(named: "title") == .string("changed"))
        if count > 1 {
            #expect(coordinator.rowCache.row(for: entries[1].objectID, maximumAge: -1)?.version == 1)
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        for (index, entry) in entries.enumerated() {
            let fault = try reader.existingObject(with: entry.objectID)
            #expect(try fault.value(forKey: "title") as? String == (index == 0 ? "changed" : "entry \(index)"))
            #expect(try fault.value(forKey: "due") as? Date == Date(timeIntervalSinceReferenceDate: Double(index)))
        }
        // A change saved from the other context is still checked against the cached versions.
        let stale = try reader.existingObject(with: entries[0].objectID)
        try stale.setValue("from reader", forKey: "title")
        try reader.save()
        try entries[0].setValue("conflict", forKey: "title")
        #expect(throws: ManagedObjectMergeError.self) { try context.save() }
    }

    /// A store's new IDs are checked for repeats whether or not their keys rise within each
    /// entity (the check skips its set of IDs only when they do): a key given again in a later
    /// run of the same entity fails the save, keys shared by two entities do not.
    @Test(arguments: [([Int64(1), 1, 2], true), ([Int64(1), 1, 1], false), ([Int64(3), 1, 2], true), ([Int64(2), 5, 2], false)])
    func repeatedNewIDsAreFoundInAnyOrder(keys: [Int64], saves: Bool) throws {
        var script = ScriptedAnswerStore.Script()
        script.newIDs = { names, store in
            zip(names, keys).map { ManagedObjectID(entityName: $0, storeIdentifier: store, primaryKey: $1) }
        }
        let coordinator = PersistentStoreCoordinator(model: try FruitStandModel.make())
        try coordinator.addStore(ScriptedAnswerStore(script))
        let context = ManagedObjectContext(coordinator: coordinator)
        // Save order: Apple, Orange, Apple (two runs of Apple).
        let objects = try ["Apple", "Orange", "Apple"].map { try context.insertNewObject(forEntityNamed: $0) }
        for object in objects { try object.setValue(2.0, forKey: "radius") }
        if saves {
            try context.save()
            #expect(objects.map(\.objectID.referenceObject) == keys.map { .integer($0) })
        } else {
            #expect(throws: ManagedObjectContextError.self) { try context.save() }
            #expect(objects.allSatisfy { $0.objectID.isTemporaryID } && context.insertedObjects.count == 3)
        }
    }

    /// The in-memory store's public save still answers a version per saved row (1 for a new
    /// row, one more for an updated one), as the saving context's shortcut
    /// (`saveReportingVersions`) does with one number for the new rows and the rule for the
    /// updated ones.
    @Test func theInMemoryStoreAnswersEveryRowsVersion() throws {
        let coordinator = PersistentStoreCoordinator(model: Self.model())
        let store = InMemoryStore()
        try coordinator.addStore(store)
        let ids = try store.newObjectIDs(for: ["Entry", "Entry"])
        let rows = ids.map { StoreRow(objectID: $0, version: 0, attributes: ["title": .string("new")]) }
        let versions = try store.save(StoreSaveChanges(inserted: rows))
        #expect(versions == [ids[0]: 1, ids[1]: 1])
        let updated = StoreRow(objectID: ids[0], version: 1, attributes: ["title": .string("changed")])
        let more = try store.newObjectIDs(for: ["Entry"])
        let saved = try store.saveReportingVersions(StoreSaveChanges(inserted: [StoreRow(objectID: more[0], version: 0)], updated: [updated]))
        // The updated rows' versions are implied (each one more than the row's), not listed.
        #expect(saved.inserted == 1 && saved.updated == nil)
        #expect(try store.row(for: ids[0])?.version == 2)
        // The public save lists them: one more than the version each row was saved with.
        let again = StoreRow(objectID: ids[0], version: 2, attributes: ["title": .string("again")])
        #expect(try store.save(StoreSaveChanges(updated: [again])) == [ids[0]: 3])
        #expect(try store.row(for: more[0])?.version == 1)
        // A stale version is still a conflict.
        #expect(throws: StoreSaveError.self) { try store.save(StoreSaveChanges(updated: [updated])) }
    }

    /// New objects take their permanent IDs in the registered objects whether most registered
    /// objects are new or few are; a save that fails after the IDs were given puts the
    /// temporary IDs back.
    @Test(arguments: [3, 1])
    func permanentIDsReplaceTemporaryOnesInTheRegisteredObjects(newCount: Int) throws {
        let context = try Self.context()
        let coordinator = try #require(context.coordinator)
        let saved = try (0..<3).map { index -> ManagedObject in
            let entry = try context.insertNewObject(forEntityNamed: "Entry")
            try entry.setValue("saved \(index)", forKey: "title")
            return entry
        }
        try context.save()
        // Another context changes the first saved entry: this context's change of it conflicts.
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.existingObject(with: saved[0].objectID).setValue("elsewhere", forKey: "title")
        try other.save()
        try saved[0].setValue("here", forKey: "title")
        let fresh = try (0..<newCount).map { _ in try context.insertNewObject(forEntityNamed: "Entry") }
        let temporaryIDs = fresh.map(\.objectID)
        #expect(throws: ManagedObjectMergeError.self) { try context.save() }
        for (entry, id) in zip(fresh, temporaryIDs) {
            #expect(entry.objectID == id && id.isTemporaryID)
            #expect(context.registeredObject(for: id) === entry)
        }
        #expect(saved.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObjects.count == 3 + newCount)
        // Taking the store's values resolves the conflict; the new objects are then saved.
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        for (entry, id) in zip(fresh, temporaryIDs) {
            #expect(!entry.objectID.isTemporaryID && entry.objectID != id)
            #expect(context.registeredObject(for: entry.objectID) === entry)
            #expect(context.registeredObject(for: id) == nil)
        }
        #expect(saved.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObjects.count == 3 + newCount)
        #expect(Set(context.registeredObjects.map(\.objectID)).count == 3 + newCount)
    }
}
