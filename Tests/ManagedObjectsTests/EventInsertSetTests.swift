import Foundation
import Synchronization
import Testing
import UndoManagement
@testable import ManagedObjects

/// The pending event's inserted objects wait in a list until the event is read or changed
/// (`ManagedObjectContext.pendingEventInserts`), and a save whose inserts are exactly those of
/// its event gives the did-save that event's set: the notifications must say what they said
/// when every insert went straight into the set.
@Suite struct EventInsertSetTests {
    /// The identities of the objects under `inserted` in each posted notification's user info.
    private final class Posted: Sendable {
        let sets = Mutex<[Set<ObjectIdentifier>]>([])
        var all: [Set<ObjectIdentifier>] { sets.withLock { $0 } }
    }

    /// A context on the fruit-stand model, its objects-did-change batches and did-save changes
    /// recorded (typed callbacks and the notifications' user info).
    private final class Recorder {
        let context: ManagedObjectContext
        var events: [ManagedObjectContext.Changes] = []
        var saves: [(result: ManagedObjectContext.SaveResult, changes: ManagedObjectContext.Changes)] = []
        let postedEvents = Posted()
        let postedSaves = Posted()
        private var tokens: [ContextObservation] = []
        private var observers: [any NSObjectProtocol] = []
        private let center = NotificationCenter()

        init() throws {
            context = try ContextEventsTests.context()
            context.notificationCenter = center
            tokens.append(context.onObjectsDidChange { [unowned self] in events.append($0) })
            tokens.append(context.onDidSave { [unowned self] in saves.append(($0, $1)) })
            for (name, posted) in [(ManagedObjectContext.objectsDidChangeNotification, postedEvents),
                                   (ManagedObjectContext.didSaveNotification, postedSaves)] {
                observers.append(center.addObserver(forName: name, object: context, queue: nil) { note in
                    let inserted = note.userInfo?["inserted"] as? Set<ManagedObject> ?? []
                    let identities = Set(inserted.map(ObjectIdentifier.init))
                    posted.sets.withLock { $0.append(identities) }
                })
            }
        }

        func stands(_ count: Int) throws -> [ManagedObject] {
            try (0..<count).map { index in
                let stand = try context.insertNewObject(forEntityNamed: "Stand")
                try stand.setValue("Stand \(index)", forKey: "name")
                return stand
            }
        }

        deinit { for observer in observers { center.removeObserver(observer) } }
    }

    private static func identities(_ objects: [ManagedObject]) -> Set<ObjectIdentifier> {
        Set(objects.map(ObjectIdentifier.init))
    }

    @Test func aRunOfInsertsIsReportedOnceEachByTheEventAndTheSave() throws {
        let recorder = try Recorder()
        let stands = try recorder.stands(300)
        try recorder.context.save()
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.inserted == Set(stands))
        #expect(recorder.postedEvents.all == [Self.identities(stands)])
        #expect(recorder.saves.count == 1)
        #expect(recorder.saves.first?.changes.inserted == Set(stands))
        #expect(recorder.postedSaves.all == [Self.identities(stands)])
        #expect(recorder.saves.first?.result.insertedObjectIDs == Set(stands.map(\.objectID)))
        #expect(!recorder.context.hasChanges)
    }

    @Test func insertsOfEarlierEventsAreSavedWithTheLastEventsOnes() throws {
        let recorder = try Recorder()
        let first = try recorder.stands(3)
        recorder.context.processPendingChanges()
        let second = try recorder.stands(2)
        try recorder.context.save()
        #expect(recorder.events.map(\.inserted) == [Set(first), Set(second)])
        #expect(recorder.saves.first?.changes.inserted == Set(first + second), "the save's inserts, not only its event's")
        #expect(recorder.postedSaves.all == [Self.identities(first + second)])
    }

    @Test func anObjectInsertedAndDeletedInTheEventIsInNeitherSet() throws {
        let recorder = try Recorder()
        let stands = try recorder.stands(5)
        recorder.context.delete(stands[1])
        let later = try recorder.stands(2)
        recorder.context.processPendingChanges()
        let kept = Set(stands + later).subtracting([stands[1]])
        #expect(recorder.events.first?.inserted == kept)
        #expect(recorder.events.first?.deleted.isEmpty == true)
        try recorder.context.save()
        #expect(recorder.saves.first?.changes.inserted == kept)
        #expect(recorder.saves.first?.result.insertedObjectIDs.count == 6)
    }

    @Test func anObjectDeletedAndInsertedAgainInOneEventIsInsertedOnce() throws {
        let recorder = try Recorder()
        let stands = try recorder.stands(3)
        recorder.context.delete(stands[0])
        try recorder.context.insert(stands[0])
        let more = try recorder.stands(2)
        try recorder.context.save()
        #expect(recorder.events.first?.inserted == Set(stands + more))
        #expect(recorder.saves.first?.changes.inserted == Set(stands + more))
        #expect(recorder.saves.first?.result.insertedObjectIDs.count == 5)
    }

    @Test func insertsAfterADeleteOfASavedObjectAreReportedWithIt() throws {
        let recorder = try Recorder()
        let saved = try recorder.stands(2)
        try recorder.context.save()
        recorder.context.delete(saved[0])
        // The event deleted an object: these inserts go into the event's set at once.
        let stands = try recorder.stands(3)
        try recorder.context.save()
        #expect(recorder.events.last?.inserted == Set(stands))
        #expect(recorder.events.last?.deleted == [saved[0]])
        #expect(recorder.saves.last?.changes.inserted == Set(stands))
        #expect(recorder.saves.last?.changes.deleted == [saved[0]])
    }

    @Test func aRollbackForgetsTheWaitingInserts() throws {
        let recorder = try Recorder()
        _ = try recorder.stands(4)
        recorder.context.rollback()
        let kept = try recorder.stands(1)
        recorder.context.processPendingChanges()
        #expect(recorder.events.last?.inserted == Set(kept))
        try recorder.context.save()
        #expect(recorder.saves.first?.changes.inserted == Set(kept))
    }

    @Test func changesOfObjectsInsertedInTheEventAreNotUpdates() throws {
        // With an undo manager every store takes the full way, which asks whether the object
        // was inserted in this event (the waiting inserts must count).
        let recorder = try Recorder()
        recorder.context.undoManager = UndoHistory()
        let stands = try recorder.stands(3)
        try stands[2].setValue("Renamed", forKey: "name")
        recorder.context.processPendingChanges()
        #expect(recorder.events.first?.inserted == Set(stands))
        #expect(recorder.events.first?.updated.isEmpty == true)
        try recorder.context.undo()
        #expect(recorder.context.insertedObjects.isEmpty, "the undo removed the event's inserts")
    }

    @Test func anObjectInsertedDuringTheSaveIsSavedAndReported() throws {
        let recorder = try Recorder()
        let stands = try recorder.stands(3)
        // Inserted when the save's first objects-did-change is delivered: after the save took
        // its event's inserts, before it writes.
        var extra: ManagedObject?
        let token = recorder.context.onObjectsDidChange { _ in
            guard extra == nil else { return }
            extra = try? recorder.context.insertNewObject(forEntityNamed: "Stand")
            try? extra?.setValue("Late", forKey: "name")
        }
        try recorder.context.save()
        token.cancel()
        let late = try #require(extra)
        #expect(recorder.events.map(\.inserted) == [Set(stands), [late]])
        #expect(recorder.saves.first?.changes.inserted == Set(stands + [late]))
        #expect(recorder.postedSaves.all == [Self.identities(stands + [late])])
        #expect(recorder.saves.first?.result.insertedObjectIDs == Set((stands + [late]).map(\.objectID)))
        #expect(!late.objectID.isTemporaryID)
    }
}
